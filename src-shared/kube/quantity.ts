/**
 * Kubernetes quantities ("250m", "1.5Gi", "2e3") as plain numbers, shared by the renderer's
 * display helpers and the guidance that compares requests with allocatable. Rule: a value that
 * does not parse is NaN, never 0, so callers can tell "unknown" from "none".
 */

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** A Kubernetes quantity ("250m", "1.5Gi", "2e3") as a plain number, or NaN when it does not parse. */
export function parseQuantity(q: string | number | undefined): number {
  if (q === undefined) return Number.NaN;
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)$/.exec(q.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  if (suffix in BINARY) return n * BINARY[suffix]!;
  if (suffix in DECIMAL) return n * DECIMAL[suffix]!;
  return Number.NaN;
}
