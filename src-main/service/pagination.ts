import { randomUUID } from 'node:crypto';
import type { Reply } from '../../src-shared/contract/define';
import type { PageInfo } from '../../src-shared/contract/models';

export interface Page<T> {
  items: T[];
  page: PageInfo;
}

/** The one pagination rule for every list: a slice of an already ordered collection. */
export function paginate<T>(all: readonly T[], limit: number, offset: number): Page<T> {
  return { items: all.slice(offset, offset + limit), page: { total: all.length, limit, offset } };
}

/**
 * Each cached row object gets a number the first time a page carries it. Rows are immutable (a
 * change replaces the object), so a page's row numbers, with what the rows are wrapped in,
 * identify its bytes: the ETag hashes a few hundred bytes instead of the whole page. The nonce
 * keeps numbers from one run of the service from matching another's.
 */
const rowNumbers = new WeakMap<object, number>();
let lastRowNumber = 0;
const RUN_NONCE = randomUUID();

function rowNumber(row: object): number {
  let n = rowNumbers.get(row);
  if (n === undefined) {
    n = ++lastRowNumber;
    rowNumbers.set(row, n);
  }
  return n;
}

export interface SerialisedRows<T> {
  /** A row's text; for a wrapped page, the text between the wrap's prefix and suffix. */
  text: (row: T) => string;
  jsonWrap?: { prefix: string; suffix: string };
  /** Everything besides the row that `text` and the wrap depend on (e.g. the workspace id). */
  variant: string;
}

/**
 * A page of rows kept as JSON text, for the cluster lists: the body is built from the page's
 * texts, and `data` is parsed only by a transport that needs objects (IPC).
 */
export function serialisedPage<T extends object, R>(
  rows: readonly T[],
  limit: number,
  offset: number,
  how: SerialisedRows<T>,
  read: { token: string; staleSince?: string },
): Reply<R[]> {
  const slice = rows.slice(offset, offset + limit);
  // The elements only: joined here, a page over 128 KB would be a large-object string that only a
  // full GC frees; HTTP encodes the elements straight into the body's bytes instead.
  const json = slice.map(how.text);
  const wrap = how.jsonWrap;
  const etagSeed = `${RUN_NONCE}\n${how.variant}\n${wrap ? `${wrap.prefix}\n${wrap.suffix}\n` : ''}${slice.map(rowNumber).join(',')}`;
  return {
    get data() {
      const texts = wrap ? json.map((t) => `${wrap.prefix}${t}${wrap.suffix}`) : json;
      return JSON.parse(`[${texts.join(',')}]`) as R[];
    },
    json,
    ...(wrap ? { jsonWrap: wrap } : {}),
    etagSeed,
    page: { total: rows.length, limit, offset, snapshot: read.token },
    ...(read.staleSince ? { staleSince: read.staleSince } : {}),
  };
}

/**
 * Link header (RFC 8288) with first/prev/next/last. Links are relative, keep every other query
 * parameter, and an empty collection still has first and last (both at offset 0).
 */
export function linkHeader(path: string, query: URLSearchParams, page: PageInfo): string {
  const { total, limit, offset } = page;
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  const href = (o: number) => {
    const q = new URLSearchParams(query);
    q.delete('limit');
    q.delete('offset');
    // Every page of a walk comes from the snapshot the first page was cut from.
    if (page.snapshot) q.set('snapshot', page.snapshot);
    q.set('limit', String(limit));
    q.set('offset', String(o));
    return `<${path}?${q.toString()}>`;
  };
  const links = [`${href(0)}; rel="first"`];
  if (offset > 0) links.push(`${href(Math.max(0, Math.min(offset - limit, lastOffset)))}; rel="prev"`);
  if (offset + limit < total) links.push(`${href(offset + limit)}; rel="next"`);
  links.push(`${href(lastOffset)}; rel="last"`);
  return links.join(', ');
}

export function pageHeaders(path: string, query: URLSearchParams, page: PageInfo): Record<string, string> {
  return {
    'x-Total': String(page.total),
    'x-Limit': String(page.limit),
    'x-Offset': String(page.offset),
    Link: linkHeader(path, query, page),
    ...(page.expiredRows ? { 'X-Expired-Rows': page.expiredRows } : {}),
  };
}
