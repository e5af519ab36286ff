/**
 * The event filters as the history answers them: the SQL condition, a stable key for memos, and
 * the expired rows of a page as ranges.
 *
 * Rules: the condition is one SQL text for both storage backends (`$name` placeholders, no bare
 * integer as a condition); the history answers exactly the filter the live list answers (HistoryFilter is
 * EventFilter); every condition leads one of the table's indexes, so a page is read in order
 * without sorting.
 */

import type { EventEntry } from '../entries';
import { allowedKey, type EventFilter } from '../filter';

/** The event list's filters, resolved: the same filter the live list answers. */
export type HistoryFilter = EventFilter;

/** A recorded event as stored: the live entry's fields, plus when the cluster dropped it. */
export interface HistoryRow extends EventEntry {
  readonly firstMs: number;
  /** Epoch ms the service saw the event gone from the cluster; undefined while the cluster has it. */
  readonly expiredAt: number | undefined;
}

/**
 * The SQL condition of a filter, with its parameters. Every column named here leads one of the
 * table's indexes after cluster_id, and each index ends in the list's order, so SQLite reads a
 * filtered page in order without sorting.
 */
export function whereOf(
  clusterId: string,
  f: HistoryFilter,
): { sql: string; params: Record<string, string | number> } {
  const terms = ['cluster_id = $cluster'];
  const params: Record<string, string | number> = { cluster: clusterId };
  const eq = (column: string, name: string, value: string | undefined) => {
    if (value === undefined) return;
    terms.push(`${column} = $${name}`);
    params[name] = value;
  };
  eq('type', 'type', f.type);
  eq('reason', 'reason', f.reason);
  eq('namespace', 'namespace', f.namespace);
  eq('kind_key', 'kind', f.kind);
  eq('name', 'name', f.name);
  // `--authorize rbac`: the namespaces the caller may list events in (none: nothing).
  if (f.namespaces !== undefined) {
    const names = allowedKey(f) ?? [];
    if (names.length === 0) terms.push('1 = 0');
    else {
      names.forEach((ns, i) => {
        params[`ns${i}`] = ns;
      });
      terms.push(`namespace IN (${names.map((_, i) => `$ns${i}`).join(', ')})`);
    }
  }
  if (f.sinceMs !== undefined) {
    terms.push('last_ms >= $since');
    params.since = f.sinceMs;
  }
  if (f.untilMs !== undefined) {
    terms.push('last_ms <= $until');
    params.until = f.untilMs;
  }
  // The categories: events about namespaced objects are resource events, the others system events.
  if (!f.resourceEvents && !f.systemEvents) terms.push('1 = 0');
  else if (!f.resourceEvents) terms.push("namespace = ''");
  else if (!f.systemEvents) terms.push("namespace <> ''");
  return { sql: terms.join(' AND '), params };
}

/** A stable text of a filter, for memo keys. */
export function filterKey(f: HistoryFilter): string {
  return JSON.stringify([
    f.type ?? null,
    f.reason ?? null,
    f.namespace ?? null,
    f.kind ?? null,
    f.name ?? null,
    f.sinceMs ?? null,
    f.untilMs ?? null,
    f.resourceEvents,
    f.systemEvents,
    allowedKey(f),
  ]);
}

/**
 * Row positions as ranges: [0, 1, 2, 5] → "0-2,5". The X-Expired-Rows header and
 * PageInfo.expiredRows carry the expired rows of a page this way.
 */
export function formatRanges(positions: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < positions.length) {
    const start = positions[i]!;
    let end = start;
    while (i + 1 < positions.length && positions[i + 1] === end + 1) end = positions[++i]!;
    parts.push(start === end ? String(start) : `${start}-${end}`);
    i++;
  }
  return parts.join(',');
}
