/**
 * Where the local n8n runtime lives (the versions it pins, its folder and the paths inside it) and
 * the environment every n8n process of these scripts runs with.
 */
'use strict';
const os = require('node:os');
const path = require('node:path');
const { PACKAGE_NAME, cleanEnv } = require('./run-command');

/**
 * The n8n release the package is tested with. 2.41.3 is newer but does not install from this
 * machine's registry (it lacks @n8n/agents@0.26.2); 2.41.1 is the newest 2.41.x that does.
 */
const N8N_VERSION = process.env.N8N_RUNTIME_VERSION || '2.41.1';
/** Node for n8n (2.41 requires >= 24). */
const NODE_VERSION = '24.21.0';
const PLAYWRIGHT_CORE_VERSION = '1.65.1';
/** linkedom 0.18.15 needs `cssomnom`, which this registry does not serve. */
const OVERRIDES = { linkedom: '0.18.12' };

const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

function cacheRoot() {
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, PACKAGE_NAME);
}

function runtimeDir() {
	return process.env.N8N_RUNTIME_DIR
		? path.resolve(process.env.N8N_RUNTIME_DIR)
		: path.join(cacheRoot(), `n8n-${N8N_VERSION}`);
}

/**
 * @typedef {object} RuntimePaths
 * @property {string} dir
 * @property {string} nodeDir
 * @property {string} node
 * @property {string} n8n
 * @property {string} playwrightCore
 * @property {string} marker
 */

/**
 * Paths inside a runtime folder.
 * @param {string} [dir]
 * @returns {RuntimePaths}
 */
function runtimePaths(dir = runtimeDir()) {
	const nodeDir = path.join(dir, 'node_modules', NODE_PACKAGE);
	return {
		dir,
		nodeDir,
		node: path.join(nodeDir, 'bin', 'node'),
		n8n: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		playwrightCore: path.join(dir, 'node_modules', 'playwright-core'),
		marker: path.join(dir, '.runtime-ready.json'),
	};
}

/**
 * The environment for every n8n process: a quiet, offline, local instance. Node 24 comes first on
 * PATH because n8n starts its task runner as plain `node`. No N8N_ENCRYPTION_KEY: n8n makes a
 * random one for each user folder on first use and keeps it there (.n8n/config), so every demo
 * and test folder has its own; queue mode sets one per installation (scripts/queue/cluster.js).
 * @param {string} userFolder
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string>}
 */
function n8nEnv(userFolder, extra = {}) {
	const nodeBinDir = path.dirname(runtimePaths().node);
	return cleanEnv({
		PATH: `${nodeBinDir}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		// No installs of unverified packages through the editor (a signed-in owner could otherwise
		// run any npm package's code as this user); n8n 2.41 still loads the package installed
		// into the user folder (.n8n/nodes), which is how these instances get it. n8n's own check
		// of its settings file (.n8n/config, with the encryption key) stays on: 0600.
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
		N8N_LOG_LEVEL: 'warn',
		N8N_NO_COLOR: 'true',
		NO_COLOR: '1',
		...extra,
	});
}

module.exports = {
	N8N_VERSION,
	NODE_VERSION,
	PLAYWRIGHT_CORE_VERSION,
	OVERRIDES,
	NODE_PACKAGE,
	cacheRoot,
	runtimeDir,
	runtimePaths,
	n8nEnv,
};
