/**
 * n8n's command line in a user folder of its own: a fresh folder, the packed package installed as
 * a community package, credential and workflow import, and `n8n execute`.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { PACKAGE_NAME, ROOT, run, tail } = require('./run-command');
const { freePort } = require('./net');
const { n8nEnv } = require('./paths');

/** The credential the examples use (`credentials.campaignApi` in examples/*.json). */
const SANDBOX_CREDENTIAL = {
	id: 'campaignSandbox1',
	name: 'Campaign Sandbox',
	type: 'campaignApi',
};

/** The API key the sandbox CLI (`npm run sandbox`, sandbox/cli.ts) accepts by default. */
const SANDBOX_DEMO_KEY = 'sandbox-demo-key';

/** The example workflows (examples/*.json), in name order. */
function exampleFiles() {
	const dir = path.join(ROOT, 'examples');
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => path.join(dir, f));
}

/**
 * Decodes an execution's stored run data (n8n keeps it `flatted`-encoded), with the runtime's own
 * `flatted`.
 * @param {import('./paths').RuntimePaths} paths
 * @param {string} text
 * @returns {any}
 */
function parseRunData(paths, text) {
	return require(path.join(paths.dir, 'node_modules', 'flatted')).parse(text);
}

/** A new, empty N8N_USER_FOLDER under `parent` (default: the OS temp folder). */
function createUserFolder(parent = os.tmpdir(), prefix = 'n8n-campaign-') {
	fs.mkdirSync(parent, { recursive: true });
	return fs.mkdtempSync(path.join(parent, prefix)); // 0700
}

/** Where the package is installed as a community package in an n8n user folder. */
function installedPackageFolder(userFolder) {
	return path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
}

/**
 * Installs the packed package as a community package: unpacked into
 * `<user>/.n8n/nodes/node_modules/n8n-nodes-campaign-messaging`, listed in `<user>/.n8n/nodes/package.json`.
 * An older copy is replaced.
 */
async function installPackage(userFolder, tarball) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = installedPackageFolder(userFolder);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	const version = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8')).version;
	const manifestPath = path.join(nodesDir, 'package.json');
	let manifest = { name: 'installed-nodes', private: true, dependencies: {} };
	try {
		manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
	} catch {
		// first install
	}
	manifest.dependencies = { ...(manifest.dependencies ?? {}), [PACKAGE_NAME]: version };
	fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
	return target;
}

/**
 * Runs an n8n CLI command in a user folder.
 * @param {import('./paths').RuntimePaths} paths
 * @param {string} userFolder
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, timeoutMs?: number }} [options]
 * @returns {Promise<import('./run-command').RunResult>}
 */
async function n8nCli(paths, userFolder, args, { env, timeoutMs = 300000 } = {}) {
	// Commands that run workflows start a task broker: give it a free port, not the fixed 5679,
	// so that they work beside a running n8n.
	const brokerPort = String(await freePort());
	return run(paths.node, [paths.n8n, ...args], {
		cwd: userFolder,
		env: n8nEnv(userFolder, { N8N_RUNNERS_BROKER_PORT: brokerPort, ...env }),
		timeoutMs,
	});
}

/**
 * Imports credentials. Each is `{ id, name, type, data }` with plain `data`: n8n encrypts it with
 * the folder's encryption key. An existing credential with the same id is replaced.
 */
/**
 * @param {import('./paths').RuntimePaths} paths
 * @param {string} userFolder
 * @param {Array<{ id: string, name: string, type: string, data: Record<string, unknown> }>} credentials
 * @param {{ env?: Record<string, string> }} [options] passed to n8nCli (a queue cluster's database)
 * @returns {Promise<import('./run-command').RunResult>}
 */
async function importCredentials(paths, userFolder, credentials, options = {}) {
	const file = path.join(userFolder, 'import-credentials.json');
	// It holds keys and secrets in clear for a moment: its owner's only.
	fs.rmSync(file, { force: true });
	fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
	try {
		return await n8nCli(paths, userFolder, ['import:credentials', `--input=${file}`], options);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/** Imports workflow files (paths to JSON files, each one workflow with an `id`). */
/**
 * @param {import('./paths').RuntimePaths} paths
 * @param {string} userFolder
 * @param {string[]} files
 * @param {{ env?: Record<string, string> }} [options] passed to n8nCli (a queue cluster's database)
 * @returns {Promise<import('./run-command').RunResult>}
 */
async function importWorkflows(paths, userFolder, files, options = {}) {
	const dir = fs.mkdtempSync(path.join(userFolder, 'import-workflows-'));
	try {
		for (const file of files) fs.copyFileSync(file, path.join(dir, path.basename(file)));
		const args = ['import:workflow', '--separate', `--input=${dir}`];
		return await n8nCli(paths, userFolder, args, options);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Finds the run data in what `n8n execute --rawOutput` printed: n8n 2.41 prints it through its
 * logger (at level info) as `JSON.stringify(run, null, 2)`, among other log lines. The result is
 * the first top-level `{ ... }` block (a line "{" up to a line "}") that parses.
 */
function parseRawOutput(stdout) {
	const lines = stdout.split(/\r?\n/);
	for (let start = 0; start < lines.length; start++) {
		if (lines[start] !== '{') continue;
		for (let end = start + 1; end < lines.length; end++) {
			if (lines[end] !== '}') continue;
			try {
				return JSON.parse(lines.slice(start, end + 1).join('\n'));
			} catch {
				// not the end of this object yet
			}
		}
	}
	throw new Error(`no run data in n8n execute output:\n${tail(stdout, 2000)}`);
}

/**
 * `n8n execute --id <id> --rawOutput`. Resolves with `{ data, stdout, stderr, code }` whatever the
 * exit code (a failed execution still prints its run data); `data` is undefined when nothing parsed.
 * @param {import('./paths').RuntimePaths} paths
 * @param {string} userFolder
 * @param {string} id
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<{ data: unknown, stdout: string, stderr: string, code: number | null, ms: number }>}
 */
async function executeWorkflow(paths, userFolder, id, { timeoutMs = 300000 } = {}) {
	let result;
	try {
		result = await n8nCli(paths, userFolder, ['execute', `--id=${id}`, '--rawOutput'], {
			timeoutMs,
			env: { N8N_LOG_LEVEL: 'info' },
		});
	} catch (error) {
		if (!error.result) throw error;
		result = error.result;
	}
	let data;
	try {
		data = parseRawOutput(result.stdout);
	} catch {
		data = undefined;
	}
	return { data, stdout: result.stdout, stderr: result.stderr, code: result.code, ms: result.ms };
}

module.exports = {
	SANDBOX_CREDENTIAL,
	SANDBOX_DEMO_KEY,
	exampleFiles,
	parseRunData,
	createUserFolder,
	installPackage,
	installedPackageFolder,
	n8nCli,
	importCredentials,
	importWorkflows,
	parseRawOutput,
	executeWorkflow,
};
