// A Vitest reporter that writes the number of passed, failed and skipped tests per project to a JSON file
// (GREENSEN_COUNTS_FILE), so that `npm test` can print one summary across all suites.
import { writeFileSync } from 'node:fs';

export default class CountsReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const projects = {};
    let moduleErrors = 0;
    for (const mod of testModules) {
      const name = mod.project.name || 'default';
      projects[name] ??= { passed: 0, failed: 0, skipped: 0 };
      const p = projects[name];
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) moduleErrors++;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') p.passed++;
        else if (state === 'failed') p.failed++;
        else p.skipped++;
      }
    }
    const file = process.env.GREENSEN_COUNTS_FILE;
    if (file)
      writeFileSync(
        file,
        JSON.stringify({ projects, moduleErrors, unhandledErrors: unhandledErrors.length }),
      );
  }
}
