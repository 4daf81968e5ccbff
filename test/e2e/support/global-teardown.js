/** After an end-to-end run: removes the run's user folder templates (test/e2e/support/global-setup.js). */
const fs = require('node:fs');

module.exports = async function globalTeardown() {
	const dir = process.env.E2E_TEMPLATE_DIR;
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
};
