/** Minimal resource.Quantity parsing for the units the demo data uses. */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** The quantity as a plain number (cores for CPU, bytes for memory); NaN when unparsable. */
export function parseQuantity(text: string): number {
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(text.trim());
  if (!m) return Number.NaN;
  const value = Number(m[1]);
  const suffix = m[2] ?? '';
  const factor = BINARY[suffix] ?? DECIMAL[suffix];
  return factor === undefined ? Number.NaN : value * factor;
}

export function nanoCores(cores: number): string {
  return `${Math.max(0, Math.round(cores * 1e9))}n`;
}

export function kibibytes(bytes: number): string {
  return `${Math.max(0, Math.round(bytes / 1024))}Ki`;
}
