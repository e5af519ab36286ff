/**
 * The events view's time range: what it sends as `since`/`until` (an ISO instant, or for the
 * presets a duration back from now that the service resolves on each poll; on a snapshot the
 * service counts it back from when the snapshot was taken) and how it is shown and typed. Pure,
 * so it is tested without a DOM.
 */

export interface TimeRange {
  /** ISO 8601 instant or a duration such as `15m`; null: from the oldest event. */
  since: string | null;
  /** ISO 8601 instant; null: up to now. */
  until: string | null;
}

export const NO_RANGE: TimeRange = { since: null, until: null };

export const PRESETS = [
  { value: '15m', label: '15m', text: 'the last 15 minutes' },
  { value: '1h', label: '1h', text: 'the last hour' },
  { value: '24h', label: '24h', text: 'the last 24 hours' },
  { value: '7d', label: '7d', text: 'the last 7 days' },
] as const;

const DURATION = /^\d+[smhd]$/;

export const isDuration = (v: string): boolean => DURATION.test(v);

/** The query parameters of a range, as the events list, the timeline and the groups take them. */
export function rangeQuery(r: TimeRange): Record<string, string> {
  return { ...(r.since ? { since: r.since } : {}), ...(r.until ? { until: r.until } : {}) };
}

const two = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` input's value (local time, to the second); '' for a duration or nothing. */
export function toLocalInput(value: string | null): string {
  if (!value || isDuration(value)) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** A `datetime-local` value (local time) as an ISO instant; null when empty or not a time. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** The range two typed inputs describe, or why it is not one. An empty input leaves that end open. */
export function rangeFromInputs(from: string, until: string): { range: TimeRange } | { error: string } {
  const since = from === '' ? null : fromLocalInput(from);
  const end = until === '' ? null : fromLocalInput(until);
  if (from !== '' && since === null) return { error: '“From” is not a date and time' };
  if (until !== '' && end === null) return { error: '“Until” is not a date and time' };
  if (since && end && Date.parse(since) >= Date.parse(end)) return { error: '“From” must be before “Until”' };
  return { range: { since, until: end } };
}

/**
 * The range a drag on the chart selected, from the two x values (seconds since the epoch, the
 * chart's unit) in either order, widened to whole seconds so the selection's edges stay inside.
 * Null for an empty selection (a click).
 */
export function rangeFromSelection(a: number, b: number): TimeRange | null {
  const lo = Math.floor(Math.min(a, b));
  const hi = Math.ceil(Math.max(a, b));
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi <= lo) return null;
  return { since: new Date(lo * 1000).toISOString(), until: new Date(hi * 1000).toISOString() };
}

/** What a relative range ends at: now, or on a snapshot the moment it was taken. */
const endOf = (takenAt: string | undefined) => (takenAt ? 'the snapshot' : 'now');

/**
 * The range in words, for the line above the chart. `format` shows an instant (locale-dependent
 * in the app). `takenAt`: the cluster is a snapshot taken then, so durations count back from it.
 */
export function describeRange(r: TimeRange, format: (iso: string) => string, takenAt?: string): string {
  const preset = PRESETS.find((p) => p.value === r.since);
  const before = takenAt ? ' before the snapshot' : '';
  const since = r.since
    ? preset
      ? `${preset.text}${before}`
      : isDuration(r.since)
        ? `the last ${r.since}${before}`
        : format(r.since)
    : null;
  const sinceIsRelative = r.since !== null && isDuration(r.since);
  if (since && r.until)
    return sinceIsRelative ? `${since}, until ${format(r.until)}` : `${since} – ${format(r.until)}`;
  if (since) return sinceIsRelative ? `Events of ${since}` : `From ${since} to ${endOf(takenAt)}`;
  if (r.until) return `Up to ${format(r.until)}`;
  return 'All events';
}

export const isEmptyRange = (r: TimeRange): boolean => r.since === null && r.until === null;
