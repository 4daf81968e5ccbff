/**
 * Once per end-to-end run (jest.e2e.config.js), before any file: a folder for the run's n8n user
 * folder templates (E2E_TEMPLATE_DIR; test/e2e/support/n8n.ts makes each template on first use and
 * every file copies it) and the port every file's sandbox listens on (E2E_SANDBOX_PORT), so that
 * the template's credential fits them all. The files run one at a time (maxWorkers 1), in this
 * process. test/e2e/support/global-teardown.js removes the folder.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('../../../scripts/runtime/net.js');

module.exports = async function globalSetup() {
	process.env.E2E_TEMPLATE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-e2e-templates-'));
	process.env.E2E_SANDBOX_PORT = String(await freePort());
};
