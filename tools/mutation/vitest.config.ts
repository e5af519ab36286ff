import { relative } from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from '../../vitest.config';

/**
 * Runs a mutant's tests in the order most likely to end the run early. StrykerJS stops at the first
 * failing test (a killed mutant), but Vitest's own order puts the longest files first, so a mutant
 * also covered by the 60 s flapping test waited for it before a 50 ms unit test killed it. Here the
 * file that failed last (it killed the previous mutant, likely a neighbour) goes first, then the
 * fastest.
 */
class FailedThenFastestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): [number, number] => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      const last = this.ctx.cache.getFileTestResults(key);
      return last ? [last.failed ? 0 : 1, last.duration] : [1, Number.MAX_SAFE_INTEGER];
    };
    return files
      .map((spec) => ({ spec, rank: rank(spec) }))
      .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1])
      .map(({ spec }) => spec);
  }
}

/** The suite as `vitest.config.ts` defines it, for `npm run test:mutation` (tools/mutation/stryker.config.mjs) only. */
export default mergeConfig(
  base,
  defineConfig({
    // Mutant runs record failures and partial durations; kept apart from the cache that orders
    // everyone's ordinary `vitest run`.
    cacheDir: 'node_modules/.vite-mutation',
    test: { sequence: { sequencer: FailedThenFastestFirst } },
  }),
);
