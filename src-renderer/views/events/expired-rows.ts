/**
 * The rows of an `includeExpired=true` page that the cluster no longer has, as the service marks
 * them: `PageInfo.expiredRows` (IPC) or the `X-Expired-Rows` header (HTTP), 0-based row ranges on
 * the page such as `3,57-99`. Parsed here at the edge: a malformed part is dropped rather than
 * guessed at, and rows past the page's length are ignored so a bad range cannot cost memory.
 */
export function parseExpiredRows(raw: string | undefined, rowCount: number): Set<number> {
  const rows = new Set<number>();
  if (!raw) return rows;
  for (const part of raw.split(',')) {
    const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part);
    if (!m) continue;
    const first = Number(m[1]);
    const last = m[2] === undefined ? first : Number(m[2]);
    if (last < first) continue;
    for (let i = first; i <= Math.min(last, rowCount - 1); i++) rows.add(i);
  }
  return rows;
}

/** The ids of a page's expired events, so pages read at different offsets merge by identity. */
export function expiredIds(items: ReadonlyArray<{ eventId: string }>, raw: string | undefined): Set<string> {
  const ids = new Set<string>();
  for (const i of parseExpiredRows(raw, items.length)) ids.add(items[i]!.eventId);
  return ids;
}
