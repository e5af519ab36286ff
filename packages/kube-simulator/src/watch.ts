/**
 * watch=true: newline-delimited {"type","object"} events over a chunked 200 response, like the
 * apiserver's watch cache. A resourceVersion older than the retained history gets the real
 * behaviour: a 200 whose only event is ERROR carrying a 410 Expired Status, then end of stream.
 * Changes are filtered per watch, including the apiserver's selector transitions (an object
 * modified into a selector arrives as ADDED, modified out of it as DELETED).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { objectJson } from './present';
import { apiVersionOf, type ResourceDef } from './resources';
import { type Filter, matches } from './selectors';
import { expired } from './status';
import type { Change, SimStore } from './store';
import type { KubeObject } from './types';

interface WatchParams {
  namespace: string | undefined;
  filter: Filter;
  resourceVersion: string | undefined;
  allowBookmarks: boolean;
  sendInitialEvents: boolean;
  timeoutSeconds: number | undefined;
  bookmarkMs: number;
  /** How an object goes out (a Table row for kubectl get -w, table-http.ts); default as it is. */
  print?: (objectJson: string) => string;
}

/** Writes lines in order while respecting socket backpressure. */
class LineWriter {
  private readonly queue: Iterator<string>[] = [];
  private waiting = false;
  private ended = false;

  constructor(private readonly res: ServerResponse) {
    res.on('drain', () => {
      this.waiting = false;
      this.pump();
    });
  }

  push(lines: Iterable<string>): void {
    if (this.ended) return;
    this.queue.push(lines[Symbol.iterator]());
    this.pump();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.pump();
  }

  private pump(): void {
    while (!this.waiting && this.queue.length > 0 && !this.res.destroyed) {
      const next = (this.queue[0] as Iterator<string>).next();
      if (next.done) {
        this.queue.shift();
        continue;
      }
      if (!this.res.write(next.value)) this.waiting = true;
    }
    if (this.ended && this.queue.length === 0 && !this.res.writableEnded) this.res.end();
  }
}

function eventLine(type: string, json: string): string {
  return `{"type":"${type}","object":${json}}\n`;
}

/** Starts a watch; returns a function that ends it (used on server shutdown). */
export function serveWatch(
  req: IncomingMessage,
  res: ServerResponse,
  store: SimStore,
  def: ResourceDef,
  params: WatchParams,
): () => void {
  const storage = def.key;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  const out = new LineWriter(res);
  const print = params.print ?? ((json: string) => json);
  const inScope = (obj: KubeObject) =>
    !def.namespaced || !params.namespace || obj.metadata.namespace === params.namespace;
  const visible = (obj: KubeObject) => inScope(obj) && matches(params.filter, obj);

  const timers: NodeJS.Timeout[] = [];
  let unsubscribe: () => void = () => {};
  let untrack: () => void = () => {};
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    unsubscribe();
    untrack();
    for (const t of timers) clearTimeout(t);
    out.end();
  };
  req.on('close', finish);
  res.on('close', finish);

  const rvParam = params.resourceVersion ?? '';
  const fromScratch = rvParam === '' || rvParam === '0' || params.sendInitialEvents;
  let replay: Change[] = [];
  if (!fromScratch) {
    const since = Number(rvParam);
    const changes = store.changesSince(storage, since);
    if (!changes) {
      const s = expired(`too old resource version: ${since} (${store.oldestAvailableRv(storage) + 1})`);
      out.push([eventLine('ERROR', JSON.stringify(s))]);
      finish();
      return finish;
    }
    replay = changes;
  }

  if (fromScratch) {
    const table = store.table(storage);
    // Snapshot now (a list of references) so later changes cannot reorder the initial events.
    const snapshot = [...table.values(def.namespaced ? params.namespace : undefined)];
    out.push(
      (function* initial() {
        for (const obj of snapshot)
          if (matches(params.filter, obj)) yield eventLine('ADDED', print(objectJson(def, obj)));
      })(),
    );
    if (params.sendInitialEvents && params.allowBookmarks) {
      out.push([bookmarkLine(def, store.rv, true)]);
    }
  }
  for (const change of replay) {
    const line = changeLine(def, change, visible, print);
    if (line) out.push([line]);
  }
  unsubscribe = store.subscribe(storage, (change) => {
    const line = changeLine(def, change, visible, print);
    if (line) out.push([line]);
  });
  untrack = store.trackWatch((tooOld) => {
    if (tooOld) {
      const s = expired('The resourceVersion for the provided watch is too old.');
      out.push([eventLine('ERROR', JSON.stringify(s))]);
    }
    finish();
  });

  if (params.allowBookmarks) {
    const tick = () => {
      out.push([bookmarkLine(def, store.rv, false)]);
      timers[0] = setTimeout(tick, params.bookmarkMs);
    };
    timers[0] = setTimeout(tick, params.bookmarkMs);
  }
  if (params.timeoutSeconds !== undefined && params.timeoutSeconds > 0) {
    timers.push(setTimeout(finish, params.timeoutSeconds * 1000));
  }
  return finish;
}

// Many watches see the same change; serialise it once per view.
const changeJson = new WeakMap<Change, Map<ResourceDef, string>>();

function jsonOf(def: ResourceDef, change: Change): string {
  let byDef = changeJson.get(change);
  if (!byDef) {
    byDef = new Map();
    changeJson.set(change, byDef);
  }
  let json = byDef.get(def);
  if (json === undefined) {
    json = objectJson(def, change.object);
    byDef.set(def, json);
  }
  return json;
}

function changeLine(
  def: ResourceDef,
  change: Change,
  visible: (obj: KubeObject) => boolean,
  print: (objectJson: string) => string,
): string | undefined {
  const now = visible(change.object);
  const line = (type: string) => eventLine(type, print(jsonOf(def, change)));
  if (change.type === 'MODIFIED') {
    const before = change.prev ? visible(change.prev) : false;
    if (now && before) return line('MODIFIED');
    if (now) return line('ADDED');
    if (before) return line('DELETED');
    return undefined;
  }
  return now ? line(change.type) : undefined;
}

function bookmarkLine(def: ResourceDef, rv: number, initialEventsEnd: boolean): string {
  const obj = {
    kind: def.kind,
    apiVersion: apiVersionOf(def),
    metadata: {
      resourceVersion: String(rv),
      ...(initialEventsEnd ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}),
    },
  };
  return eventLine('BOOKMARK', JSON.stringify(obj));
}
