/**
 * list and get. Lists walk the resource's sorted key array, so a chunk of a 100k-item list
 * costs a binary search plus the chunk itself. Continue tokens have the apiserver's shape:
 * base64url({"v":"meta.k8s.io/v1","rv":<revision>,"start":"<last key>\u0000"}).
 */

import { itemJson, listEnvelope, objectJson } from './present';
import type { ResourceDef } from './resources';
import { type Filter, matches } from './selectors';
import { badRequest, expired, notFound, type Status } from './status';
import type { SimStore } from './store';
import { objectKey } from './table';

/**
 * `key`: etcd's order, as an apiserver answers from etcd. `scrambled`: each chunk in a fixed order
 * unrelated to names or times, as lists served from the watch cache once came
 * (kubernetes/kubernetes#113730) and as kine (k3s) answers. Kubernetes promises no list order, so
 * a client must impose its own; the tests of Skiff's own order list this way.
 */
export type ListOrder = 'key' | 'scrambled';

interface ListParams {
  namespace: string | undefined;
  filter: Filter;
  limit: number;
  continueToken: string | undefined;
  order?: ListOrder;
}

export type Result = { ok: true; json: string } | { ok: false; status: Status };

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

function encodeContinue(rv: number, lastKey: string): string {
  const token: ContinueToken = { v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decodeContinue(token: string): ContinueToken | string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'v' in parsed &&
      parsed.v === 'meta.k8s.io/v1' &&
      'rv' in parsed &&
      typeof parsed.rv === 'number' &&
      'start' in parsed &&
      typeof parsed.start === 'string' &&
      parsed.start.length > 0
    ) {
      return { v: parsed.v, rv: parsed.rv, start: parsed.start };
    }
    return 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)';
  } catch {
    return 'continue key is not valid: illegal base64 data';
  }
}

const TOO_OLD =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export function listObjects(store: SimStore, def: ResourceDef, params: ListParams): Result {
  const table = store.table(def.key);
  const range = table.range(def.namespaced ? params.namespace : undefined);
  let start = range[0];
  const end = range[1];
  let rv = store.rv;
  if (params.continueToken) {
    const token = decodeContinue(params.continueToken);
    if (typeof token === 'string') return { ok: false, status: badRequest(token) };
    if (token.rv !== -1 && token.rv < store.oldestAvailableRv(def.key)) {
      const s = expired(TOO_OLD);
      s.metadata.continue = Buffer.from(JSON.stringify({ ...token, rv: -1 })).toString('base64url');
      return { ok: false, status: s };
    }
    if (token.rv !== -1) rv = token.rv;
    start = Math.max(start, table.lowerBound(token.start));
  }
  const items: string[] = [];
  const ranks: number[] = [];
  const scrambled = params.order === 'scrambled';
  let i = start;
  let lastKey: string | undefined;
  const limit = params.limit > 0 ? params.limit : Number.POSITIVE_INFINITY;
  // An object still held as text (a snapshot's) goes out as it is when nothing is filtered or converted.
  const asText = params.filter.empty && def.storage === undefined;
  for (; i < end && items.length < limit; i++) {
    const text = asText ? table.itemJsonAt(i) : undefined;
    if (text !== undefined) items.push(text);
    else {
      const obj = table.at(i);
      if (!obj || !matches(params.filter, obj)) continue;
      items.push(itemJson(def, obj));
    }
    lastKey = table.keyAt(i);
    if (scrambled) ranks.push(scrambleRank(lastKey as string));
  }
  // Only the order inside the chunk changes: chunks and continue tokens still follow the keys.
  const body = scrambled
    ? items
        .map((_, k) => k)
        .sort((a, b) => ranks[a]! - ranks[b]!)
        .map((k) => items[k])
    : items;
  const meta: string[] = [`"resourceVersion":"${rv}"`];
  if (i < end && lastKey !== undefined) {
    meta.push(`"continue":"${encodeContinue(rv, lastKey)}"`);
    // The apiserver only knows the remaining count when no selector filters the range.
    if (params.filter.empty) meta.push(`"remainingItemCount":${end - i}`);
  }
  return {
    ok: true,
    json: `${listEnvelope(def)},"metadata":{${meta.join(',')}},"items":[${body.join(',')}]}`,
  };
}

/**
 * A hash of the key: fixed for a key, and unrelated to how keys (names, times) sort. FNV-1a alone
 * keeps the last characters in the top bits, and event names end in their time; the murmur3
 * finaliser spreads them.
 */
function scrambleRank(key: string): number {
  let h = 0x811c9dc5;
  for (let c = 0; c < key.length; c++) h = Math.imul(h ^ key.charCodeAt(c), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function getObject(
  store: SimStore,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
): Result {
  const table = store.table(def.key);
  const obj = table.get(objectKey(def.namespaced ? namespace : undefined, name));
  if (!obj) return { ok: false, status: notFound(def, name) };
  return { ok: true, json: objectJson(def, obj) };
}
