/**
 * Shared state of one demo generation run: the clock, the seeded randomness, the objects made
 * so far (in creation order, each with its own resourceVersion) and what the ticker and log
 * source need to know about them afterwards.
 */

import type { Crasher, RecurringEvent } from '../content';
import { Rng, uidFor } from '../random';
import { rfc3339 } from '../time';
import type { CoreEvent, KubeObject } from '../types';
import type { LogProfileId } from './log-profiles';

export interface NodeInfo {
  name: string;
  ip: string;
  index: number;
  ready: boolean;
  memoryPressure: boolean;
  labels: Record<string, string>;
}

export interface GenScale {
  pods?: number;
  events?: number;
  nodes?: number;
  namespaces?: number;
}

export class Gen {
  readonly rng: Rng;
  readonly objects: KubeObject[] = [];
  readonly events: CoreEvent[] = [];
  readonly nodes: NodeInfo[] = [];
  readonly logProfiles = new Map<string, LogProfileId>();
  readonly crashers: Crasher[] = [];
  readonly recurring: RecurringEvent[] = [];
  private rv = 0;
  private salt = 0;
  private readonly uidOwners = new Map<string, string>();

  constructor(
    readonly seed: number,
    readonly now: number,
    readonly scale: GenScale,
  ) {
    this.rng = new Rng(seed);
  }

  ago(ms: number): string {
    return rfc3339(this.now - ms);
  }

  /**
   * The uid of the object named by `key`, the same on every call. Uids come from a 32-bit hash,
   * which repeats now and then past ~100,000 objects (four times at 50,000 pods + 100,000
   * events); a key whose uid is already another key's takes the next salted one.
   */
  uid(key: string): string {
    for (let attempt = 0; ; attempt++) {
      const uid = uidFor(attempt === 0 ? `${this.seed}:${key}` : `${this.seed}:${key}#${attempt}`);
      const owner = this.uidOwners.get(uid);
      if (owner === undefined) this.uidOwners.set(uid, key);
      else if (owner !== key) continue;
      return uid;
    }
  }

  /** Adds an object with the next resourceVersion and returns it. */
  add<T extends KubeObject>(obj: T): T {
    obj.metadata.resourceVersion = String(++this.rv);
    if (obj.kind === 'Event') this.events.push(obj as unknown as CoreEvent);
    else this.objects.push(obj);
    return obj;
  }

  /** Distinguishes events created in the same millisecond (per run, so runs are identical). */
  nextSalt(): number {
    return this.salt++;
  }

  readyNodes(): NodeInfo[] {
    return this.nodes.filter((n) => n.ready);
  }

  node(name: string): NodeInfo {
    const n = this.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name}`);
    return n;
  }

  setLogProfile(namespace: string, pod: string, container: string, profile: LogProfileId): void {
    this.logProfiles.set(`${namespace}/${pod}/${container}`, profile);
  }
}
