/**
 * Kubernetes timestamp formats. metav1.Time serialises with second precision, metav1.MicroTime
 * with six fractional digits and container log timestamps (CRI) with nine.
 */

// Generating large clusters formats the same few thousand seconds over and over.
const secondCache = new Map<number, string>();

export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  let text = secondCache.get(second);
  if (text === undefined) {
    text = `${new Date(second * 1000).toISOString().slice(0, 19)}Z`;
    if (secondCache.size > 50_000) secondCache.clear();
    secondCache.set(second, text);
  }
  return text;
}

export function microTime(ms: number, micros = 0): string {
  const base = new Date(Math.floor(ms)).toISOString().slice(0, 23);
  return `${base}${String(Math.floor(micros) % 1000).padStart(3, '0')}Z`;
}

export function nanoTime(ms: number, subMsNanos = 0): string {
  const base = new Date(Math.floor(ms)).toISOString().slice(0, 23);
  return `${base}${String(Math.floor(subMsNanos) % 1_000_000).padStart(6, '0')}Z`;
}

/** Parses an RFC 3339 timestamp (any fractional precision); NaN when invalid. */
export function parseTime(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return Number.NaN;
  return Date.parse(text);
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
