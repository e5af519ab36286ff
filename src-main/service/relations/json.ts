/**
 * Safe reads of cluster JSON: an object is whatever the cluster sent, so every step checks the
 * shape it expects and yields nothing for anything else, never throwing.
 */

export type Obj = Readonly<Record<string, unknown>>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `v[key]` when it is an object. */
export const objAt = (v: unknown, key: string): Obj | undefined => {
  if (!isObj(v)) return undefined;
  const child = v[key];
  return isObj(child) ? child : undefined;
};

/** The objects of an array; anything else is no objects. */
export const objs = (v: unknown): readonly Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** A non-empty string, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A finite number, else undefined. */
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** The string values of a string map; undefined when it is not one or holds none. */
export function stringMap(v: unknown): Record<string, string> | undefined {
  if (!isObj(v)) return undefined;
  const out: Record<string, string> = {};
  let any = false;
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string') continue;
    out[k] = value;
    any = true;
  }
  return any ? out : undefined;
}

/** The group of an apiVersion: `apps/v1` → `apps`, `v1` → `` (core). */
export const groupOf = (apiVersion: string | undefined): string => {
  const slash = apiVersion?.indexOf('/') ?? -1;
  return slash < 0 ? '' : (apiVersion as string).slice(0, slash);
};
