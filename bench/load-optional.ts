import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Verdict } from './stats';

export type LoadOutcome = { skipped: string } | { skipped?: undefined; verdicts: Verdict[] };

interface LoadModule {
  runLoadBench(opts: { quick: boolean }): Promise<unknown>;
  printLoadReport(report: unknown): void;
  /** The report against section 6's targets, for the closing summary. */
  loadVerdicts?(report: unknown): Verdict[];
}

/**
 * Section 6's load test lives in bench/load.ts, written apart from this driver; it is imported by
 * URL so the driver runs (and typechecks) with or without it.
 */
export async function runOptionalLoadBench(quick: boolean): Promise<LoadOutcome> {
  const url = new URL('./load.ts', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return { skipped: 'bench/load.ts is not there yet' };
  const mod = (await import(url.href)) as Partial<LoadModule>;
  if (typeof mod.runLoadBench !== 'function' || typeof mod.printLoadReport !== 'function')
    return { skipped: 'bench/load.ts exports no runLoadBench/printLoadReport' };
  const report = await mod.runLoadBench({ quick });
  mod.printLoadReport(report);
  return { verdicts: mod.loadVerdicts?.(report) ?? [] };
}
