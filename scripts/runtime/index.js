/**
 * The local n8n runtime's public API (typed by the JSDoc of each module), one module per job:
 * - install.js: prepares the runtime (Node 24, n8n, playwright-core) once per machine; run it
 *   directly to do that ahead of time: `node scripts/runtime/install.js [--chromium]`,
 * - paths.js: the pinned versions, the runtime folder and the environment of every n8n process,
 * - package.js: this repository's build, sandbox build and `npm pack`,
 * - n8n-user-folder.js: n8n user folders, the package installed as a community package, import,
 *   `n8n execute`,
 * - n8n-server.js: `n8n start` (started, waited for, stopped) and its owner account,
 * - browser.js: Debian's chromium and playwright-core for the browser check,
 * - run-command.js: progress lines, and commands run to their end (heartbeat, time limit, output),
 * - net.js: free ports, a small HTTP client.
 */
'use strict';

/**
 * @typedef {import('./paths').RuntimePaths} RuntimePaths
 * @typedef {import('./run-command').RunResult} RunResult
 * @typedef {import('./net').HttpResponse} HttpResponse
 * @typedef {import('./n8n-server').StartedN8n} StartedN8n
 * @typedef {import('./n8n-server').OwnerLogin} OwnerLogin
 * @typedef {import('./browser').Browser} Browser
 * @typedef {import('./browser').BrowserContext} BrowserContext
 * @typedef {import('./browser').Page} Page
 */

// Every name each module exports, under one roof.
module.exports = {
	...require('./run-command'),
	...require('./paths'),
	...require('./install'),
	...require('./browser'),
	...require('./package'),
	...require('./n8n-user-folder'),
	...require('./n8n-server'),
	...require('./demo-secrets'),
	...require('./net'),
};
