import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** Prints one closing line, `Summary: N passed, N failed, N skipped`, that CI tools read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file whose set-up or import failed fails even when none of its tests ran.
      if (module.state() === 'failed' && failedHere === 0) failedHere = 1;
      failed += failedHere;
    }
    // An error outside any test (a bad config, a crash between tests) fails the run: count it.
    failed += unhandledErrors.length;
    process.stdout.write(`\nSummary: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
