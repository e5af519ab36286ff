import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** The list reporter marks a skipped test with "-" but not why; this prints the reason beside it. */
export default class SkipReasonsReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'skipped') return;
    const why = test.annotations.find((a) => a.type === 'skip')?.description;
    console.log(`skipped: ${test.titlePath().filter(Boolean).join(' › ')}${why ? ` — ${why}` : ''}`);
  }
}
