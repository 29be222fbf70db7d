import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Prints the slowest test files (where the run's time goes: `npm test` must stay well inside CI's
 * limit) and one closing line, `Summary: N passed, N failed, N skipped`, that CI tools read.
 */
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
    const slowest = testModules
      .map((module) => ({ file: module.moduleId.replace(`${process.cwd()}/`, ''), ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 12);
    if (slowest.length > 1) {
      process.stdout.write('\nSlowest test files:\n');
      for (const { file, ms } of slowest) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`);
    }
    process.stdout.write(`\nSummary: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
