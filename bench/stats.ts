export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const ms = (n: number) => `${n.toFixed(1)} ms`;

export async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export function table(rows: Array<Record<string, string>>): string {
  const cols = Object.keys(rows[0] ?? {});
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i]!)).join(' | ')} |`;
  return [
    line(cols),
    line(width.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(cols.map((c) => r[c] ?? ''))),
  ].join('\n');
}

/** Nearest-rank percentile (p in 0..100) of a sample; the p99 of 300 requests is its 297th value. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error('percentile of an empty sample');
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const mib = (n: number) => `${n.toFixed(0)} MiB`;

/** One line of the closing summary: a figure against its target. */
export interface Verdict {
  figure: string;
  measured: string;
  target: string;
  pass: boolean | undefined;
}

export function verdictTable(verdicts: readonly Verdict[]): string {
  return table(
    verdicts.map((v) => ({
      figure: v.figure,
      measured: v.measured,
      target: v.target,
      result: v.pass === undefined ? 'n/a' : v.pass ? 'pass' : 'FAIL',
    })),
  );
}
