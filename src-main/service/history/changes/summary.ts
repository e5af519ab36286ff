/**
 * The one-line summary of a recorded change, as a person scanning a history reads it:
 * `image app: 1.4.1 → 1.4.2`, `replicas 3 → 5`, `data changed: key1, key2`,
 * `condition Ready True → False`, `created`, `deleted`; else the changed paths
 * (`spec.template.spec.containers[app].env`, at most MAX_PATHS of them).
 *
 * Rules: pure; a Secret's summary never holds a value (only key names: its stored object holds no
 * values anyway), and an update of a Secret whose patch is empty says `data changed` (its values
 * moved, which the stripped object cannot show); pieces join with `; `, recognised ones first,
 * then the paths no piece explained; `metadata.generation` alone is never listed (it moves with
 * every spec change).
 */
import type { Json, Operation } from './diff';

export type ChangeKind = 'seen' | 'created' | 'updated' | 'deleted';

export interface SummaryInput {
  change: ChangeKind;
  /** `group/plural` (core: `/pods`). */
  kindKey: string;
  prev?: Json | undefined;
  next?: Json | undefined;
  patch: readonly Operation[];
}

export const MAX_PATHS = 5;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The container lists whose images a summary names, as JSON Pointer prefixes. */
const CONTAINER_LISTS = [
  '/spec/containers',
  '/spec/initContainers',
  '/spec/template/spec/containers',
  '/spec/template/spec/initContainers',
  '/spec/jobTemplate/spec/template/spec/containers',
  '/spec/jobTemplate/spec/template/spec/initContainers',
];

/** Maps whose keys are the user's data: a path stops at the map (`metadata.labels`). */
const DATA_MAPS = new Set(['labels', 'annotations', 'data', 'binaryData', 'matchLabels', 'nodeSelector']);

export function summarize(input: SummaryInput): string {
  const { change } = input;
  if (change === 'created') return 'created';
  if (change === 'deleted') return 'deleted';
  if (change === 'seen') return 'first seen';
  const pieces: string[] = [];
  const covered: ((path: string) => boolean)[] = [];
  const prev = input.prev ?? {};
  const next = input.next ?? {};
  images(prev, next, pieces, covered);
  scalars(input.kindKey, prev, next, pieces, covered);
  data(input.kindKey, prev, next, input.patch, pieces, covered);
  conditions(prev, next, pieces, covered);
  const paths: string[] = [];
  for (const op of input.patch) {
    if (covered.some((c) => c(op.path)) || op.path === '/metadata/generation') continue;
    const p = readablePath(op.path, prev, next);
    if (!paths.includes(p)) paths.push(p);
  }
  if (paths.length > MAX_PATHS) {
    const more = paths.length - MAX_PATHS;
    pieces.push(...paths.slice(0, MAX_PATHS), `… (+${more} more)`);
  } else pieces.push(...paths);
  if (pieces.length === 0) return 'updated';
  return pieces.join('; ');
}

/** The value at a JSON Pointer, or undefined. */
export function at(obj: unknown, pointer: string): unknown {
  if (pointer === '') return obj;
  let cur: unknown = obj;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) cur = cur[Number(key)];
    else if (isRecord(cur)) cur = cur[key];
    else return undefined;
  }
  return cur;
}

const named = (list: unknown): Map<string, Json> => {
  const out = new Map<string, Json>();
  if (Array.isArray(list))
    for (const c of list) if (isRecord(c) && typeof c.name === 'string') out.set(c.name, c);
  return out;
};

/** `1.4.1 → 1.4.2` when only the tag moved, else the whole references. */
export function imageChange(from: string, to: string): string {
  const split = (ref: string) => {
    const at = ref.indexOf('@');
    if (at !== -1) return [ref.slice(0, at), ref.slice(at + 1)] as const;
    const slash = ref.lastIndexOf('/');
    const colon = ref.lastIndexOf(':');
    return colon > slash
      ? ([ref.slice(0, colon), ref.slice(colon + 1)] as const)
      : ([ref, 'latest'] as const);
  };
  const [repoA, tagA] = split(from);
  const [repoB, tagB] = split(to);
  return repoA === repoB ? `${tagA} → ${tagB}` : `${from} → ${to}`;
}

function images(prev: Json, next: Json, pieces: string[], covered: ((p: string) => boolean)[]): void {
  for (const list of CONTAINER_LISTS) {
    const a = named(at(prev, list));
    const b = named(at(next, list));
    let any = false;
    for (const [name, c] of b) {
      const was = a.get(name)?.image;
      if (typeof was === 'string' && typeof c.image === 'string' && was !== c.image) {
        pieces.push(`image ${name}: ${imageChange(was, c.image)}`);
        any = true;
      }
    }
    if (any) {
      const image = new RegExp(`^${list}/\\d+/image$`);
      covered.push((p) => image.test(p));
    }
  }
}

const SCALARS: readonly { kindKey?: string; pointer: string; label: string }[] = [
  { pointer: '/spec/replicas', label: 'replicas' },
  { kindKey: 'autoscaling/horizontalpodautoscalers', pointer: '/spec/minReplicas', label: 'minReplicas' },
  { kindKey: 'autoscaling/horizontalpodautoscalers', pointer: '/spec/maxReplicas', label: 'maxReplicas' },
  {
    kindKey: 'autoscaling/horizontalpodautoscalers',
    pointer: '/status/desiredReplicas',
    label: 'desired replicas',
  },
];

function scalars(
  kindKey: string,
  prev: Json,
  next: Json,
  pieces: string[],
  covered: ((p: string) => boolean)[],
): void {
  for (const s of SCALARS) {
    if (s.kindKey !== undefined && s.kindKey !== kindKey) continue;
    const a = at(prev, s.pointer);
    const b = at(next, s.pointer);
    if (a === b) continue;
    pieces.push(`${s.label} ${a ?? 'unset'} → ${b ?? 'unset'}`);
    covered.push((p) => p === s.pointer);
  }
}

/** A ConfigMap's data and binaryData keys, a Secret's keys (names and sizes only). */
function data(
  kindKey: string,
  prev: Json,
  next: Json,
  patch: readonly Operation[],
  pieces: string[],
  covered: ((p: string) => boolean)[],
): void {
  const changed = new Set<string>();
  if (kindKey === '/configmaps') {
    for (const field of ['data', 'binaryData']) {
      const a = isRecord(prev[field]) ? prev[field] : {};
      const b = isRecord(next[field]) ? next[field] : {};
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[k] !== b[k]) changed.add(k);
    }
    if (changed.size === 0) return;
    covered.push(
      (p) => p === '/data' || p.startsWith('/data/') || p === '/binaryData' || p.startsWith('/binaryData/'),
    );
  } else if (kindKey === '/secrets') {
    const sizes = (o: Json) => {
      const m = new Map<string, unknown>();
      if (Array.isArray(o.keys))
        for (const k of o.keys) if (isRecord(k) && typeof k.name === 'string') m.set(k.name, k.bytes);
      return m;
    };
    const a = sizes(prev);
    const b = sizes(next);
    for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) changed.add(k);
    covered.push((p) => p === '/keys' || p.startsWith('/keys/'));
    // Values moved unseen (same sizes): the patch is empty but the Secret changed.
    if (changed.size === 0) {
      if (patch.length === 0) pieces.push('data changed');
      return;
    }
  } else return;
  pieces.push(`data changed: ${[...changed].sort().join(', ')}`);
}

function conditions(prev: Json, next: Json, pieces: string[], covered: ((p: string) => boolean)[]): void {
  const byType = (o: Json) => {
    const m = new Map<string, unknown>();
    const list = at(o, '/status/conditions');
    if (Array.isArray(list))
      for (const c of list) if (isRecord(c) && typeof c.type === 'string') m.set(c.type, c.status);
    return m;
  };
  const a = byType(prev);
  const b = byType(next);
  let any = false;
  for (const [type, status] of b) {
    const was = a.get(type);
    if (was !== undefined && was !== status) {
      pieces.push(`condition ${type} ${String(was)} → ${String(status)}`);
      any = true;
    }
  }
  if (any) covered.push((p) => p.startsWith('/status/conditions/'));
}

/**
 * A JSON Pointer as a person reads it, cut where it stops telling more: array elements by their
 * `name` or `type` (`containers[app]`, `conditions[Ready]`), a path stops one step below a named
 * element and at a map of the user's data (`metadata.labels`).
 */
export function readablePath(pointer: string, prev: unknown, next: unknown): string {
  const keys = pointer
    .slice(1)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = '';
  let curA: unknown = prev;
  let curB: unknown = next;
  let belowNamed = false;
  for (const key of keys) {
    const list = Array.isArray(curB) ? curB : Array.isArray(curA) ? curA : undefined;
    if (list) {
      const el =
        (Array.isArray(curB) ? curB[Number(key)] : undefined) ??
        (Array.isArray(curA) ? curA[Number(key)] : undefined);
      const id = isRecord(el)
        ? typeof el.name === 'string'
          ? el.name
          : typeof el.type === 'string'
            ? el.type
            : undefined
        : undefined;
      out += id !== undefined ? `[${id}]` : `[${key}]`;
      if (id !== undefined) belowNamed = true;
    } else {
      out += out === '' ? key : `.${key}`;
      if (belowNamed || DATA_MAPS.has(key)) return out;
    }
    curA = Array.isArray(curA) ? curA[Number(key)] : isRecord(curA) ? curA[key] : undefined;
    curB = Array.isArray(curB) ? curB[Number(key)] : isRecord(curB) ? curB[key] : undefined;
  }
  return out;
}
