// A Vitest reporter for `npm test` (scripts/test.mjs). Vitest's JSON report counts a test whose
// beforeAll threw as skipped, leaves out unhandled errors and says nothing of retries; this one writes
// the counts `npm test` must be honest about to the file named by STN_TEST_REPORT.
import fs from 'node:fs';

/** @param {{ state(): string } | undefined} entity */
function failedEntity(entity) {
  return entity !== undefined && entity.state() === 'failed';
}

/** The first ancestor (suite or module) that failed by itself, e.g. in a hook; undefined when none did. */
function failedAncestor(test) {
  let parent = test.parent;
  while (parent) {
    if (failedEntity(parent) && parent.errors().length > 0) return parent;
    parent = parent.type === 'module' ? undefined : parent.parent;
  }
  return undefined;
}

function firstLine(error) {
  return String(error?.message ?? error ?? 'unknown error').split('\n')[0];
}

export default class HonestReporter {
  onTestRunEnd(testModules, unhandledErrors, reason) {
    const report = { passed: 0, failed: 0, skipped: 0, failures: [], retried: [], unhandled: [], reason };
    for (const mod of testModules) {
      const blamed = new Set();
      let tests = 0;
      for (const test of mod.children.allTests()) {
        tests += 1;
        const state = test.result().state;
        const diagnostic = test.diagnostic();
        if (diagnostic && diagnostic.retryCount > 0) {
          report.retried.push({
            name: `${mod.relativeModuleId} > ${test.fullName}`,
            retries: diagnostic.retryCount,
            state,
          });
        }
        if (state === 'passed') report.passed += 1;
        else if (state === 'failed') {
          report.failed += 1;
          report.failures.push(`${mod.relativeModuleId} > ${test.fullName}`);
        } else {
          // A test that never ran because its suite's setup threw did not pass: it failed.
          const culprit = failedAncestor(test);
          if (culprit) {
            blamed.add(culprit);
            report.failed += 1;
            report.failures.push(
              `${mod.relativeModuleId} > ${test.fullName} (setup failed: ${firstLine(culprit.errors()[0])})`,
            );
          } else report.skipped += 1;
        }
      }
      // Errors no test accounts for: a file that failed to load, or a throwing afterAll.
      for (const entity of [mod, ...mod.children.allSuites()]) {
        if (entity.errors().length > 0 && !blamed.has(entity)) {
          const what = entity.type === 'module' && tests === 0 ? 'failed to load' : 'hook failed';
          report.failed += 1;
          report.failures.push(
            `${mod.relativeModuleId}${entity.type === 'suite' ? ` > ${entity.fullName}` : ''} (${what}: ${firstLine(entity.errors()[0])})`,
          );
        }
      }
    }
    for (const error of unhandledErrors) {
      report.failed += 1;
      report.unhandled.push(firstLine(error));
      report.failures.push(`unhandled error: ${firstLine(error)}`);
    }
    const file = process.env.STN_TEST_REPORT;
    if (file) fs.writeFileSync(file, JSON.stringify(report, null, 2));
  }
}
