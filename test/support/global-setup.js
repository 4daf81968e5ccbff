/**
 * Once per jest run on dist/ (`npm test`, `npm run test:compat`), before any test file:
 * - stops the run, with one line saying why and what to do, when dist/ is not the current
 *   package (a file under nodes/ or credentials/ changed after the last build): the node tests
 *   load the package from dist/ and would otherwise test the previous build;
 * - clears the hardening counters of earlier runs, so that test-artifacts/hardening-summary.json
 *   adds up only the suites of this run.
 */
const fs = require('node:fs');
const path = require('node:path');
const { distProblem } = require('../../scripts/runtime/package.js');

module.exports = async function globalSetup() {
	const problem = distProblem();
	if (problem !== undefined) {
		throw new Error(
			`${problem}. The node tests load the package from dist/: run "npm run build" first ("npm test" does), or "npm run test:unit" to test the sources without a build.`,
		);
	}
	const root = path.resolve(__dirname, '..', '..');
	fs.rmSync(path.join(root, 'test-artifacts', 'hardening'), { recursive: true, force: true });
	fs.rmSync(path.join(root, 'test-artifacts', 'hardening-summary.json'), { force: true });
};
