import { describe, expect, it } from 'vitest';
import { linkHeader, pageHeaders, paginate, serialisedPage } from './pagination';

const rels = (header: string) =>
  Object.fromEntries(
    header.split(', ').map((part) => {
      const m = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
      if (!m) throw new Error(`bad link part ${part}`);
      return [m[2], m[1]];
    }),
  );

describe('paginate', () => {
  it('slices an ordered collection and reports the totals', () => {
    const all = Array.from({ length: 45 }, (_, i) => i);
    expect(paginate(all, 20, 40)).toEqual({
      items: [40, 41, 42, 43, 44],
      page: { total: 45, limit: 20, offset: 40 },
    });
    expect(paginate(all, 20, 100).items).toEqual([]);
  });
});

describe('linkHeader', () => {
  const q = new URLSearchParams('labelSelector=app%3Dweb&limit=10&offset=10');

  it('has no prev on the first page and keeps other parameters', () => {
    const links = rels(linkHeader('/v1/x', q, { total: 25, limit: 10, offset: 0 }));
    expect(Object.keys(links)).toEqual(['first', 'next', 'last']);
    expect(links.first).toBe('/v1/x?labelSelector=app%3Dweb&limit=10&offset=0');
    expect(links.next).toBe('/v1/x?labelSelector=app%3Dweb&limit=10&offset=10');
    expect(links.last).toBe('/v1/x?labelSelector=app%3Dweb&limit=10&offset=20');
  });

  it('has all four on a middle page', () => {
    const links = rels(linkHeader('/v1/x', q, { total: 25, limit: 10, offset: 10 }));
    expect(Object.keys(links)).toEqual(['first', 'prev', 'next', 'last']);
    expect(links.prev).toContain('offset=0');
  });

  it('has no next on the last page, which may be short', () => {
    const links = rels(linkHeader('/v1/x', q, { total: 25, limit: 10, offset: 20 }));
    expect(Object.keys(links)).toEqual(['first', 'prev', 'last']);
    expect(links.last).toContain('offset=20');
  });

  it('gives an empty collection first and last at offset 0', () => {
    const links = rels(linkHeader('/v1/x', new URLSearchParams(), { total: 0, limit: 20, offset: 0 }));
    expect(links).toEqual({ first: '/v1/x?limit=20&offset=0', last: '/v1/x?limit=20&offset=0' });
  });

  it('puts last on the last full page when the total is an exact multiple of the limit', () => {
    const first = rels(linkHeader('/v1/x', new URLSearchParams(), { total: 100, limit: 10, offset: 0 }));
    expect(first.last).toBe('/v1/x?limit=10&offset=90');
    const last = rels(linkHeader('/v1/x', new URLSearchParams(), { total: 100, limit: 10, offset: 90 }));
    expect(Object.keys(last)).toEqual(['first', 'prev', 'last']);
    expect(last.last).toBe('/v1/x?limit=10&offset=90');
    // One full page: first and last are the same page, and there is no next.
    expect(rels(linkHeader('/v1/x', new URLSearchParams(), { total: 20, limit: 20, offset: 0 }))).toEqual({
      first: '/v1/x?limit=20&offset=0',
      last: '/v1/x?limit=20&offset=0',
    });
  });

  it('points prev at the last real page when the offset runs past the end', () => {
    const links = rels(linkHeader('/v1/x', new URLSearchParams(), { total: 25, limit: 10, offset: 90 }));
    expect(links.prev).toContain('offset=20');
    expect(links.next).toBeUndefined();
  });
});

describe('serialisedPage', () => {
  const rows = [{ json: '{"n":"c"}' }, { json: '{"n":"a"}' }, { json: '{"n":"é"}' }, { json: '{"n":"b"}' }];
  const read = { token: 't1' };
  const wrapped = (variant: string, list = rows) =>
    serialisedPage<(typeof rows)[number], { head: number; resource: { n: string } }>(
      list,
      2,
      1,
      { text: (r) => r.json, jsonWrap: { prefix: '{"head":1,"resource":', suffix: '}' }, variant },
      read,
    );

  it("parses to the wrapped elements of the page's rows, for transports that need objects", () => {
    expect(wrapped('').data).toEqual([
      { head: 1, resource: { n: 'a' } },
      { head: 1, resource: { n: 'é' } },
    ]);
  });

  it('gives the same ETag seed for the same row objects, and another when a row object is replaced', () => {
    expect(wrapped('').etagSeed).toBe(wrapped('').etagSeed);
    const replaced = [rows[0]!, { json: '{"n":"a"}' }, rows[2]!, rows[3]!];
    expect(wrapped('', replaced).etagSeed).not.toBe(wrapped('').etagSeed);
  });

  it('gives another ETag seed for another variant or another wrap', () => {
    expect(wrapped('ws-1').etagSeed).not.toBe(wrapped('ws-2').etagSeed);
    const other = serialisedPage(rows, 2, 1, { text: (r) => r.json, variant: '' }, read);
    expect(other.etagSeed).not.toBe(wrapped('').etagSeed);
  });

  it('a row outside the page does not change its ETag seed', () => {
    const changedOutside = [{ json: '{"n":"z"}' }, rows[1]!, rows[2]!, { json: '{"n":"y"}' }];
    expect(wrapped('', changedOutside).etagSeed).toBe(wrapped('').etagSeed);
  });

  it('says when its rows are stale only when they are', () => {
    const plain = serialisedPage(rows, 2, 0, { text: (r) => r.json, variant: '' }, read);
    expect('staleSince' in plain).toBe(false);
    const stale = serialisedPage(
      rows,
      2,
      0,
      { text: (r) => r.json, variant: '' },
      { token: 't1', staleSince: '2026-11-24T08:00:00.000Z' },
    );
    expect(stale.staleSince).toBe('2026-11-24T08:00:00.000Z');
  });
});

describe('pageHeaders', () => {
  it('sends X-Expired-Rows only for a page that has expired rows', () => {
    const page = { total: 3, limit: 2, offset: 0 };
    expect(pageHeaders('/v1/x', new URLSearchParams(), page)).not.toHaveProperty('X-Expired-Rows');
    expect(pageHeaders('/v1/x', new URLSearchParams(), { ...page, expiredRows: '0-1' })).toMatchObject({
      'x-Total': '3',
      'x-Limit': '2',
      'x-Offset': '0',
      'X-Expired-Rows': '0-1',
    });
  });
});
