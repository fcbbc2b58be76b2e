// A Vitest reporter that writes the number of passed, failed and skipped tests per project to a JSON file
// (GREENSEN_COUNTS_FILE), so that `npm test` can print one summary across all suites — with each failed test's
// file, name and first error line, since a CI log is often read from its end only.
import { writeFileSync } from 'node:fs';

export default class CountsReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const projects = {};
    let moduleErrors = 0;
    const failures = [];
    for (const mod of testModules) {
      const name = mod.project.name || 'default';
      projects[name] ??= { passed: 0, failed: 0, skipped: 0 };
      const p = projects[name];
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) {
        moduleErrors++;
        failures.push({
          file: mod.moduleId,
          test: '(the file failed to load)',
          error: firstLine(mod.errors()),
        });
      }
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') p.passed++;
        else if (state === 'failed') {
          p.failed++;
          failures.push({ file: mod.moduleId, test: test.fullName, error: firstLine(test.result().errors) });
        } else p.skipped++;
      }
    }
    const file = process.env.GREENSEN_COUNTS_FILE;
    if (file)
      writeFileSync(
        file,
        JSON.stringify({ projects, moduleErrors, unhandledErrors: unhandledErrors.length, failures }),
      );
  }
}

/** The first line of the first error, short enough for a summary. */
function firstLine(errors) {
  const e = errors?.[0];
  if (!e) return '';
  return String(e.message ?? e)
    .split('\n')[0]
    .slice(0, 300);
}
