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

const {
	ROOT,
	PACKAGE_NAME,
	setQuiet,
	log,
	formatDuration,
	run,
	cleanEnv,
} = require('./run-command');
const {
	N8N_VERSION,
	NODE_VERSION,
	PLAYWRIGHT_CORE_VERSION,
	cacheRoot,
	runtimeDir,
	runtimePaths,
	n8nEnv,
} = require('./paths');
const { ensureRuntime } = require('./install');
const { CHROMIUM_PATH, ensureChromium, chromiumArgs, loadPlaywright } = require('./browser');
const {
	buildPackage,
	buildSandbox,
	findSandboxBuild,
	packPackage,
	missingDistFiles,
	distProblem,
} = require('./package');
const cli = require('./n8n-user-folder');
const { OWNER, login, ownerEnv, setupOwner, startN8n } = require('./n8n-server');
const secrets = require('./demo-secrets');
const { freePort, httpGet, httpRequest } = require('./net');

module.exports = {
	ROOT,
	N8N_VERSION,
	NODE_VERSION,
	PLAYWRIGHT_CORE_VERSION,
	PACKAGE_NAME,
	setQuiet,
	log,
	formatDuration,
	run,
	cacheRoot,
	runtimeDir,
	runtimePaths,
	ensureRuntime,
	CHROMIUM_PATH,
	ensureChromium,
	chromiumArgs,
	buildPackage,
	buildSandbox,
	findSandboxBuild,
	packPackage,
	missingDistFiles,
	distProblem,
	createUserFolder: cli.createUserFolder,
	installPackage: cli.installPackage,
	n8nEnv,
	n8nCli: cli.n8nCli,
	importCredentials: cli.importCredentials,
	importWorkflows: cli.importWorkflows,
	parseRawOutput: cli.parseRawOutput,
	executeWorkflow: cli.executeWorkflow,
	freePort,
	httpGet,
	SANDBOX_CREDENTIAL: cli.SANDBOX_CREDENTIAL,
	SANDBOX_DEMO_KEY: cli.SANDBOX_DEMO_KEY,
	exampleFiles: cli.exampleFiles,
	parseRunData: cli.parseRunData,
	OWNER,
	startN8n,
	httpRequest,
	setupOwner,
	login,
	loadPlaywright,
	cleanEnv,
	ownerEnv,
	SECRETS_FILE: secrets.SECRETS_FILE,
	WEBHOOK_CREDENTIAL: secrets.WEBHOOK_CREDENTIAL,
	WEBHOOK_HEADER: secrets.WEBHOOK_HEADER,
	folderSecrets: secrets.folderSecrets,
	ownerOnlyFolder: secrets.ownerOnlyFolder,
	webhookCredential: secrets.webhookCredential,
	webhookBannerLines: secrets.webhookBannerLines,
};
