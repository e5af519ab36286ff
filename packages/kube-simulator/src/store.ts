/**
 * The single source of truth: every object, the global resourceVersion counter (etcd's
 * revision) and a bounded per-resource change history that watches replay from. Every change,
 * whether from a test, the ticker or the demo generator, goes through upsert/remove so watches
 * and resourceVersions always agree with what lists return. It runs past 300 lines because the
 * writes, the history and the open-watch registry must change together under one counter;
 * splitting them would let a watch see a revision its list never had. The kinds it holds are its
 * own SimKinds: a CustomResourceDefinition stored here serves its kind from that write on, and
 * its removal deletes that kind's objects, as the apiserver does.
 */

import { CRD_GROUP, CRD_KIND, crdDefs, established } from './crds';
import { buildEvent, bumpEventObject, type EventBump, type EventInput } from './events';
import { SimKinds } from './kinds';
import { LogStore } from './logs';
import { managedEntry } from './managed-fields';
import {
  appendLogLine,
  type LogLineResult,
  type RestartOptions,
  restartContainer,
  startContainer,
  type TerminateOptions,
  terminateContainer,
} from './pod-lifecycle';
import { uidFor } from './random';
import { apiVersionOf, type ResourceDef } from './resources';
import { LazyObject, objectKey, Table } from './table';
import { rfc3339 } from './time';
import type { CoreEvent, KubeObject, KubeObjectInput } from './types';

export interface Change {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  /** The object before a MODIFIED, so selector watches can turn it into ADDED/DELETED. */
  prev?: KubeObject;
}

type ChangeListener = (change: Change) => void;

interface History {
  changes: Change[];
  /** Changes at or below this revision have been dropped; older watches get 410 Expired. */
  compactedRv: number;
}

const DEFAULT_HISTORY = 10_000;

export class SimStore {
  readonly logs: LogStore;
  readonly kinds = new SimKinds();
  private revision = 0;
  private readonly tables = new Map<string, Table>();
  private readonly histories = new Map<string, History>();
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  private readonly openWatches = new Set<(expired: boolean) => void>();
  /** Resources whose objects load on first use (a snapshot's), so nothing waits for those it does not read. */
  private readonly deferred = new Map<string, () => Iterable<KubeObject | LazyObject>>();
  private uidCounter = 0;
  /** Lowest revision a new watch or continue token may start from. */
  compactedFloor = 0;

  constructor(
    readonly now: () => number = Date.now,
    private readonly historyLimit = DEFAULT_HISTORY,
  ) {
    this.logs = new LogStore(now);
  }

  /** Current revision: the resourceVersion of the newest write in the whole cluster. */
  get rv(): number {
    return this.revision;
  }

  def(resource: string): ResourceDef {
    const d = this.kinds.resolve(resource);
    if (!d) throw new Error(`unknown resource ${resource}`);
    return d;
  }

  table(resource: string): Table {
    const d = this.def(resource);
    const pending = this.deferred.get(d.key);
    if (pending) {
      this.deferred.delete(d.key);
      this.fill(pending());
      // Only this resource's history starts here: a watch of another resource from the revision
      // of a list made before stays valid, as nothing of it changed.
      const h = this.history(d.key);
      h.changes.length = 0;
      h.compactedRv = this.revision;
    }
    let t = this.tables.get(d.key);
    if (!t) {
      t = new Table();
      this.tables.set(d.key, t);
    }
    return t;
  }

  /** get('pods', 'shop', 'checkout-…') or get('nodes', 'worker-1'); returns a copy. */
  get<T extends KubeObject = KubeObject>(
    resource: string,
    namespaceOrName: string,
    name?: string,
  ): T | undefined {
    const obj = this.peek(resource, namespaceOrName, name);
    return obj ? (structuredClone(obj) as T) : undefined;
  }

  /** Like get() but returns the stored object itself: never mutate it. */
  peek(resource: string, namespaceOrName: string, name?: string): KubeObject | undefined {
    const key = name === undefined ? namespaceOrName : objectKey(namespaceOrName, name);
    return this.table(resource).get(key);
  }

  /** Stored objects in list order (namespace, then name). Never mutate them. */
  list(resource: string, namespace?: string): KubeObject[] {
    return [...this.table(resource).values(namespace)];
  }

  count(resource: string, namespace?: string): number {
    const [start, end] = this.table(resource).range(namespace);
    return end - start;
  }

  /**
   * Creates or replaces an object (by apiVersion/kind/namespace/name) and notifies watches.
   * Fills uid, creationTimestamp and managedFields when missing; always assigns a new
   * resourceVersion. Returns a copy of what was stored.
   */
  upsert<T extends KubeObject = KubeObject>(input: KubeObjectInput | KubeObject): T {
    const d = this.kinds.forObject(input.apiVersion, input.kind);
    if (!d) throw new Error(`unknown kind ${input.kind}`);
    let obj = structuredClone(input) as KubeObject;
    if (obj.kind === 'Pod') {
      // What the apiserver defaults on create; the rest of the simulator relies on it.
      obj.spec = { containers: [], ...(obj.spec as object | undefined) };
      obj.status = { phase: 'Pending', ...(obj.status as object | undefined) };
    }
    const now = this.now();
    if (isCrd(d)) obj = established(obj, rfc3339(now));
    const ns = d.namespaced ? obj.metadata.namespace || 'default' : undefined;
    const table = this.table(d.key);
    const key = objectKey(ns, obj.metadata.name);
    const prev = table.get(key);
    const meta = obj.metadata;
    if (ns) meta.namespace = ns;
    else delete meta.namespace;
    meta.uid = prev?.metadata.uid ?? (meta.uid || uidFor(`upsert:${key}:${++this.uidCounter}:${now}`));
    meta.creationTimestamp = prev?.metadata.creationTimestamp ?? (meta.creationTimestamp || rfc3339(now));
    if (!meta.managedFields || meta.managedFields.length === 0) {
      const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
      meta.managedFields = [
        managedEntry({
          manager: 'skiff-simulator',
          apiVersion: apiVersionOf(d),
          time: rfc3339(now),
          owned: { metadata: { labels: meta.labels, annotations: meta.annotations }, ...rest },
        }),
      ];
    }
    meta.resourceVersion = String(++this.revision);
    table.set(key, obj);
    if (isCrd(d)) this.kinds.setCustom(meta.name, crdDefs(obj));
    this.emit(
      d.key,
      prev
        ? { rv: this.revision, type: 'MODIFIED', object: obj, prev }
        : { rv: this.revision, type: 'ADDED', object: obj },
    );
    return structuredClone(obj) as T;
  }

  /** Deletes an object; watches see DELETED carrying the last state at a new revision. */
  remove(resource: string, namespaceOrName: string, name?: string): boolean {
    const d = this.def(resource);
    const key = name === undefined ? namespaceOrName : objectKey(namespaceOrName, name);
    const table = this.table(d.key);
    const prev = table.delete(key);
    if (!prev) return false;
    const gone: KubeObject = {
      ...prev,
      metadata: { ...prev.metadata, resourceVersion: String(++this.revision) },
    };
    this.emit(d.key, { rv: this.revision, type: 'DELETED', object: gone });
    if (d.key === 'pods' && prev.metadata.namespace)
      this.logs.endAll(prev.metadata.namespace, prev.metadata.name);
    if (isCrd(d)) this.removeCustomKind(prev.metadata.name);
    return true;
  }

  /** A CRD is gone: its objects are deleted (watchers see each go), then its kind stops being served. */
  private removeCustomKind(crdName: string): void {
    const served = this.kinds.resolve(crdName);
    if (served && served.key === crdName) {
      for (const obj of this.list(crdName)) {
        const ns = obj.metadata.namespace;
        if (ns) this.remove(crdName, ns, obj.metadata.name);
        else this.remove(crdName, obj.metadata.name);
      }
    }
    this.kinds.removeCustom(crdName);
    this.tables.delete(crdName);
    this.histories.delete(crdName);
  }

  /**
   * Loads generated objects without emitting watch events (they existed "before" any watch).
   * Each gets its own resourceVersion; history starts after the load.
   */
  load(objects: Iterable<KubeObject>): void {
    this.fill(objects);
    for (const h of this.histories.values()) h.changes.length = 0;
    this.compact();
  }

  /** Puts objects into their tables, each keeping a valid resourceVersion it has, as `load` describes. */
  private fill(objects: Iterable<KubeObject | LazyObject>): void {
    const perResource = new Map<string, [string, KubeObject | LazyObject][]>();
    for (const obj of objects) {
      const d = this.kinds.forObject(obj instanceof LazyObject ? undefined : obj.apiVersion, obj.kind);
      if (!d) throw new Error(`unknown kind ${obj.kind}`);
      // A CRD serves its kind from here on, so its objects further along resolve.
      if (isCrd(d)) {
        const crd = obj instanceof LazyObject ? obj.decode() : obj;
        this.kinds.setCustom(crd.metadata.name, crdDefs(crd));
      }
      let key: string;
      if (obj instanceof LazyObject) {
        this.revision = Math.max(this.revision, obj.resourceVersion);
        key = objectKey(d.namespaced ? obj.namespace : undefined, obj.name);
      } else {
        // Generators may pre-assign revisions so references (event → pod version) line up.
        const given = Number(obj.metadata.resourceVersion);
        if (obj.metadata.resourceVersion && Number.isSafeInteger(given) && given > 0) {
          this.revision = Math.max(this.revision, given);
        } else obj.metadata.resourceVersion = String(++this.revision);
        key = objectKey(d.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name);
      }
      let bucket = perResource.get(d.key);
      if (!bucket) {
        bucket = [];
        perResource.set(d.key, bucket);
      }
      bucket.push([key, obj]);
    }
    for (const [resource, entries] of perResource) this.table(resource).load(entries);
  }

  /**
   * Loads a resource's objects as `load` does, but only when something first reads that resource.
   * A LazyObject among them stays text until it is read (see table.ts).
   */
  defer(resource: string, objects: () => Iterable<KubeObject | LazyObject>): void {
    this.deferred.set(this.def(resource).key, objects);
  }

  /** Forgets the change history: watches from any older resourceVersion now get 410 Expired. */
  compact(): void {
    for (const d of [...this.tables.keys()]) this.history(d).changes.length = 0;
    for (const h of this.histories.values()) h.compactedRv = this.revision;
    this.compactedFloor = this.revision;
  }

  history(resource: string): History {
    const d = this.def(resource);
    let h = this.histories.get(d.key);
    if (!h) {
      h = { changes: [], compactedRv: this.compactedFloor };
      this.histories.set(d.key, h);
    }
    return h;
  }

  /** Changes with rv > sinceRv, or undefined when some of them were already compacted away. */
  changesSince(resource: string, sinceRv: number): Change[] | undefined {
    const h = this.history(resource);
    if (sinceRv < h.compactedRv) return undefined;
    let lo = 0;
    let hi = h.changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((h.changes[mid] as Change).rv <= sinceRv) lo = mid + 1;
      else hi = mid;
    }
    return h.changes.slice(lo);
  }

  oldestAvailableRv(resource: string): number {
    return this.history(resource).compactedRv;
  }

  subscribe(resource: string, listener: ChangeListener): () => void {
    const d = this.def(resource);
    let set = this.listeners.get(d.key);
    if (!set) {
      set = new Set();
      this.listeners.set(d.key, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Registers an open watch so endWatches can reach it; returns its unregister function. */
  trackWatch(end: (expired: boolean) => void): () => void {
    this.openWatches.add(end);
    return () => this.openWatches.delete(end);
  }

  /**
   * Fault knob: ends every open watch, as an apiserver restart or a watch-cache reset does. With
   * `expired` each first gets an ERROR event holding a 410 Expired Status, what the apiserver sends
   * a watcher that fell too far behind. Returns how many watches were ended.
   */
  endWatches(opts: { expired?: boolean } = {}): number {
    const open = [...this.openWatches];
    this.openWatches.clear();
    for (const end of open) end(opts.expired === true);
    return open.length;
  }

  private emit(resource: string, change: Change): void {
    const h = this.history(resource);
    h.changes.push(change);
    if (h.changes.length > this.historyLimit) {
      const dropped = h.changes.splice(0, h.changes.length - this.historyLimit);
      h.compactedRv = (dropped[dropped.length - 1] as Change).rv;
    }
    const set = this.listeners.get(resource);
    if (set) for (const listener of [...set]) listener(change);
  }

  // ----- conveniences for tests and the ticker -----

  /** Records a core/v1 Event (or folds it into an existing one with the same name). */
  addEvent(input: EventInput): CoreEvent {
    const io = input.involvedObject;
    const d = this.kinds.forObject(io.apiVersion, io.kind);
    if (!io.uid && d) {
      // Like a real event recorder, reference the object's uid and current resourceVersion.
      const target = d.namespaced
        ? this.peek(d.key, io.namespace ?? 'default', io.name)
        : this.peek(d.key, io.name);
      if (target) {
        input = {
          ...input,
          involvedObject: {
            ...io,
            uid: target.metadata.uid,
            resourceVersion: target.metadata.resourceVersion,
          },
        };
      }
    }
    return this.upsert<CoreEvent>(buildEvent(input, this.now()));
  }

  /** count++ / lastTimestamp (or series for events.k8s.io-style events). */
  bumpEvent(namespace: string, name: string, bump: EventBump = {}): CoreEvent | undefined {
    const ev = this.peek('events', namespace, name) as CoreEvent | undefined;
    if (!ev) return undefined;
    return this.upsert<CoreEvent>(bumpEventObject(ev, this.now(), bump));
  }

  appendLog(namespace: string, pod: string, container: string, line: string): LogLineResult {
    return appendLogLine(this, namespace, pod, container, line);
  }

  /** The running instance exits and the kubelet starts a new one (restartCount++). */
  restartContainer(namespace: string, pod: string, container: string, opts: RestartOptions = {}): KubeObject {
    return restartContainer(this, namespace, pod, container, opts);
  }

  /** The running instance exits; with restartPolicy Always the container waits in CrashLoopBackOff. */
  terminateContainer(
    namespace: string,
    pod: string,
    container: string,
    opts: TerminateOptions = {},
  ): KubeObject {
    return terminateContainer(this, namespace, pod, container, opts);
  }

  /** A waiting container starts a new instance (restartCount++ if it ran before). */
  startContainer(namespace: string, pod: string, container: string): KubeObject {
    return startContainer(this, namespace, pod, container);
  }
}

function isCrd(d: ResourceDef): boolean {
  return d.group === CRD_GROUP && d.kind === CRD_KIND;
}
