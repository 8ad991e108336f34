import type { FullConfig, FullResult, Reporter, Suite, TestError } from '@playwright/test/reporter';

/**
 * Ends the run with exactly one line "N passed, N failed", which .ci/run reads
 * (/^(\d+) passed, (\d+) failed$/m) to add the browser tests to its total. Skipped tests (and tests an
 * interrupted run never reached) are not counted. A failure outside any test (global setup, a file that does
 * not load, a worker's teardown, Ctrl-C) counts as one failed when no test failed, so the line never reads
 * "0 failed" for a run that exits non-zero.
 */
export default class SummaryReporter implements Reporter {
  private suite: Suite | undefined;
  private errors = 0;

  onBegin(_config: FullConfig, suite: Suite): void {
    this.suite = suite;
  }

  onError(_error: TestError): void {
    this.errors += 1;
  }

  onEnd(result: FullResult): void {
    let passed = 0;
    let failed = 0;
    for (const test of this.suite?.allTests() ?? []) {
      const outcome = test.outcome();
      // "flaky" (failed, then passed on a retry) can only happen if retries are switched on in the config.
      if (outcome === 'expected' || outcome === 'flaky') passed += 1;
      else if (outcome === 'unexpected') failed += 1;
    }
    if (failed === 0 && (this.errors > 0 || result.status !== 'passed')) failed = 1;
    console.log(`${passed} passed, ${failed} failed`);
  }
}
