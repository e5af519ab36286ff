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
 * A page of rows kept as JSON text, for the cluster lists: the body is built by concatenating the
 * page's texts, and `data` is parsed only by a transport that needs objects (IPC).
 */
export function serialisedPage<T, R>(
  rows: readonly T[],
  limit: number,
  offset: number,
  text: (row: T) => string,
  read: { token: string; staleSince?: string },
): Reply<R[]> {
  // The elements only: joined here, a page over 128 KB would be a large-object string that only a
  // full GC frees; HTTP encodes the elements straight into the body's bytes instead.
  const json = rows.slice(offset, offset + limit).map(text);
  return {
    get data() {
      return JSON.parse(`[${json.join(',')}]`) as R[];
    },
    json,
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
