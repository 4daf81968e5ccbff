/**
 * Once per jest run, before any test file: clears the hardening counters of earlier runs, so that
 * test-artifacts/hardening-summary.json adds up only the suites of this run.
 */
const fs = require('node:fs');
const path = require('node:path');

module.exports = async function globalSetup() {
	const root = path.resolve(__dirname, '..', '..');
	fs.rmSync(path.join(root, 'test-artifacts', 'hardening'), { recursive: true, force: true });
	fs.rmSync(path.join(root, 'test-artifacts', 'hardening-summary.json'), { force: true });
};
