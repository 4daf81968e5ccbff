/**
 * A local n8n runtime for `npm start` and `npm run test:e2e`, kept outside the repository and
 * outside the published package.
 *
 * n8n 2.41 needs Node 24 while this package is developed on Node 20, and `npx n8n` cannot install
 * here (the registry lacks `cssomnom`, needed by linkedom@0.18.15). So, on first use, this module
 * installs into a cache folder (default `${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-campaign-messaging/
 * n8n-<version>`, override with N8N_RUNTIME_DIR):
 *   - Node 24 from the npm registry (`node-<platform>-<arch>`, a plain binary plus its headers),
 *   - n8n pinned, with `overrides: { linkedom: 0.18.12 }`, installed with `--ignore-scripts`,
 *   - then `npm rebuild sqlite3` against Node 24's headers (the only native module n8n needs here),
 *   - playwright-core, for the browser check of the end-to-end tests.
 * A marker file is written when everything is done; a half-done install (no marker, or a marker
 * for another spec) is wiped and redone. A lock directory keeps two processes from installing at
 * once. Every later run, from any clone on the machine, reuses the folder.
 *
 * It also exposes the helpers both entry points use: a fresh N8N_USER_FOLDER, the packed package
 * installed as a community package, credential and workflow import, `n8n execute`, `n8n start` on
 * 127.0.0.1 with a free port, and Debian's chromium for the browser check.
 *
 * Run it directly to prepare the runtime ahead of time: `node scripts/n8n-runtime.js`
 * (`--chromium` also installs Debian's chromium when it is missing).
 */
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

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

const PACKAGE_NAME = 'n8n-nodes-campaign-messaging';
/** Used for every user folder these scripts create (local demo and tests only). */
const ENCRYPTION_KEY = 'campaign-messaging-local-encryption-key';

const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
const LOCK_STALE_MS = 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// Logging and processes

let quiet = false;
/** Silences the progress lines this module prints to stderr. */
function setQuiet(value) {
	quiet = value;
}

function log(message) {
	if (!quiet) process.stderr.write(`[n8n-runtime] ${message}\n`);
}

function formatDuration(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * The environment for child processes: without the npm_* variables an outer `npm run` sets (the
 * project's ignore-scripts, its local prefix, the machine's nodedir), which would otherwise steer
 * the runtime's own npm, except those that say how to reach the registry.
 */
function cleanEnv(extra = {}) {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		const npmKey = /^npm_/i.test(key);
		if (npmKey && !KEPT_NPM_SETTINGS.has(key.toLowerCase())) continue;
		if (INHERITED_BUT_HARMFUL.has(key)) continue;
		env[key] = value;
	}
	return { ...env, ...extra };
}

const KEPT_NPM_SETTINGS = new Set(
	['registry', 'cache', 'cafile', 'ca', 'proxy', 'https_proxy', 'noproxy', 'strict_ssl', 'userconfig', 'globalconfig'].map(
		(name) => `npm_config_${name}`,
	),
);

/**
 * Set by jest for its workers: NODE_ENV=test makes n8n's CLI silently do nothing (no log, no
 * import, no execution, exit 0), so n8n processes never inherit them.
 */
const INHERITED_BUT_HARMFUL = new Set(['NODE_ENV', 'JEST_WORKER_ID']);

/** Runs a command, streaming nothing, with a heartbeat; resolves with its output, rejects on failure. */
function run(command, args, { cwd, env, label, heartbeatMs = 30000, timeoutMs = 0, input } = {}) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		if (input !== undefined) child.stdin.end(input);
		else child.stdin.end();
		const beat = label
			? setInterval(() => log(`  ... ${label}: ${formatDuration(Date.now() - started)} so far`), heartbeatMs)
			: undefined;
		const killer =
			timeoutMs > 0
				? setTimeout(() => {
						stderr += `\n[timed out after ${formatDuration(timeoutMs)}]`;
						child.kill('SIGKILL');
					}, timeoutMs)
				: undefined;
		child.on('error', (error) => {
			clearInterval(beat);
			clearTimeout(killer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearInterval(beat);
			clearTimeout(killer);
			const result = { code, signal, stdout, stderr, ms: Date.now() - started };
			if (code === 0) resolve(result);
			else {
				const error = new Error(
					`${path.basename(command)} ${args.join(' ')} failed (${signal ?? `exit ${code}`})\n${tail(stderr || stdout, 4000)}`,
				);
				error.result = result;
				reject(error);
			}
		});
	});
}

function tail(text, max) {
	return text.length > max ? `...${text.slice(-max)}` : text;
}

// ---------------------------------------------------------------------------------------------
// The runtime folder

function cacheRoot() {
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, PACKAGE_NAME);
}

function runtimeDir() {
	return process.env.N8N_RUNTIME_DIR ? path.resolve(process.env.N8N_RUNTIME_DIR) : path.join(cacheRoot(), `n8n-${N8N_VERSION}`);
}

function runtimeSpec() {
	return {
		name: 'campaign-messaging-n8n-runtime',
		private: true,
		description: `Local n8n ${N8N_VERSION} on Node ${NODE_VERSION} for ${PACKAGE_NAME}'s npm start and e2e tests (generated; safe to delete)`,
		dependencies: {
			n8n: N8N_VERSION,
			[NODE_PACKAGE]: NODE_VERSION,
			'playwright-core': PLAYWRIGHT_CORE_VERSION,
		},
		overrides: OVERRIDES,
	};
}

function specHash(spec) {
	return crypto.createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16);
}

/** Paths inside a runtime folder. */
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

function readMarker(paths) {
	try {
		return JSON.parse(fs.readFileSync(paths.marker, 'utf8'));
	} catch {
		return undefined;
	}
}

function isReady(paths, hash) {
	const marker = readMarker(paths);
	return Boolean(marker && marker.hash === hash && fs.existsSync(paths.node) && fs.existsSync(paths.n8n));
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/** A lock directory next to the runtime folder; a lock whose owner is gone (or very old) is taken over. */
async function acquireLock(lockDir) {
	const started = Date.now();
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'owner.json'), JSON.stringify({ pid: process.pid, at: Date.now(), host: os.hostname() }));
			return () => fs.rmSync(lockDir, { recursive: true, force: true });
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
		}
		let owner;
		try {
			owner = JSON.parse(fs.readFileSync(path.join(lockDir, 'owner.json'), 'utf8'));
		} catch {
			owner = undefined;
		}
		const stat = fs.statSync(lockDir, { throwIfNoEntry: false });
		const age = stat ? Date.now() - stat.mtimeMs : 0;
		const stale = owner ? owner.host === os.hostname() && !pidAlive(owner.pid) : age > 10000;
		if (stale || age > LOCK_STALE_MS) {
			log(`removing a stale lock (${lockDir})`);
			fs.rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (!announced) {
			log(`another process (pid ${owner?.pid ?? '?'}) is preparing the runtime; waiting for it`);
			announced = true;
		}
		if (Date.now() - started > LOCK_STALE_MS) throw new Error(`timed out waiting for the lock ${lockDir}`);
		await new Promise((r) => setTimeout(r, 2000));
	}
}

/**
 * Makes sure the runtime is installed and complete; installs it when it is not. Returns its paths.
 * Prints progress to stderr. Idempotent and safe to call from several processes at once.
 */
async function ensureRuntime() {
	const spec = runtimeSpec();
	const hash = specHash(spec);
	const paths = runtimePaths();
	if (isReady(paths, hash)) return paths;

	fs.mkdirSync(path.dirname(paths.dir), { recursive: true });
	const release = await acquireLock(`${paths.dir}.lock`);
	try {
		if (isReady(paths, hash)) return paths;
		await install(paths, spec, hash);
		return paths;
	} finally {
		release();
	}
}

async function install(paths, spec, hash) {
	const total = Date.now();
	log(`preparing a local n8n ${N8N_VERSION} (Node ${NODE_VERSION}) in ${paths.dir}`);
	log('first use only: this takes several minutes and about 3 GB of disk; later runs reuse it');
	if (fs.existsSync(paths.dir)) {
		log('removing an incomplete or outdated runtime first');
		fs.rmSync(paths.dir, { recursive: true, force: true });
	}
	fs.mkdirSync(paths.dir, { recursive: true });
	fs.writeFileSync(path.join(paths.dir, 'package.json'), `${JSON.stringify(spec, null, '\t')}\n`);
	fs.writeFileSync(path.join(paths.dir, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');

	const env = cleanEnv();
	let t = Date.now();
	log('step 1/3: npm install --ignore-scripts (n8n, Node 24, playwright-core)');
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: paths.dir,
		env,
		label: 'npm install',
	});
	const installMs = Date.now() - t;
	log(`  done in ${formatDuration(installMs)}`);
	if (!fs.existsSync(paths.node)) throw new Error(`Node 24 binary missing after install: ${paths.node}`);

	t = Date.now();
	log('step 2/3: npm rebuild sqlite3 (compiles against Node 24 headers)');
	const binDir = path.join(paths.dir, 'node_modules', '.bin');
	await run('npm', ['rebuild', 'sqlite3', '--foreground-scripts=false', '--loglevel=error'], {
		cwd: paths.dir,
		env: cleanEnv({
			PATH: `${path.dirname(paths.node)}${path.delimiter}${binDir}${path.delimiter}${process.env.PATH}`,
			npm_config_nodedir: paths.nodeDir,
			npm_config_build_from_source: 'true',
		}),
		label: 'npm rebuild sqlite3',
	});
	const rebuildMs = Date.now() - t;
	log(`  done in ${formatDuration(rebuildMs)}`);

	t = Date.now();
	log('step 3/3: checking the runtime');
	await run(paths.node, ['-e', "require('sqlite3'); process.stdout.write(process.version)"], { cwd: paths.dir, env });
	const version = (await run(paths.node, [paths.n8n, '--version'], { cwd: paths.dir, env: n8nEnv(os.tmpdir()) })).stdout.trim();
	log(`  n8n ${version} answers (${formatDuration(Date.now() - t)})`);

	const marker = {
		hash,
		n8n: N8N_VERSION,
		node: NODE_VERSION,
		completedAt: new Date().toISOString(),
		timings: { installMs, rebuildMs, totalMs: Date.now() - total },
	};
	fs.writeFileSync(paths.marker, `${JSON.stringify(marker, null, '\t')}\n`);
	log(`runtime ready in ${formatDuration(Date.now() - total)}`);
}

// ---------------------------------------------------------------------------------------------
// Chromium (for the browser check)

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Installs Debian's chromium with apt-get when it is missing (needs root). Returns its path. */
async function ensureChromium() {
	if (fs.existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
	if (!isRoot || !hasApt) {
		throw new Error(
			`${CHROMIUM_PATH} not found. Install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH.`,
		);
	}
	const t = Date.now();
	log('installing Debian chromium (apt-get update && apt-get install chromium)');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await run('apt-get', ['update'], { env, label: 'apt-get update' });
	await run('apt-get', ['install', '-y', 'chromium'], { env, label: 'apt-get install chromium' });
	if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is missing`);
	log(`  chromium installed in ${formatDuration(Date.now() - t)}`);
	return CHROMIUM_PATH;
}

/**
 * Launch arguments that work on these machines (closed network, root, no GPU). Without a
 * `userDataDir` (what Playwright's launch() wants: it makes a fresh profile itself) the
 * --user-data-dir argument is left out.
 */
function chromiumArgs(userDataDir) {
	return [
		'--headless',
		'--no-sandbox',
		'--disable-gpu',
		'--disable-quic',
		'--no-first-run',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		'--disable-dev-shm-usage',
		...(userDataDir ? [`--user-data-dir=${userDataDir}`] : []),
	];
}

// ---------------------------------------------------------------------------------------------
// The package

/** `npm run build` in the repository. */
async function buildPackage() {
	const t = Date.now();
	log('building the package (npm run build)');
	await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, label: 'npm run build' });
	log(`  built in ${formatDuration(Date.now() - t)}`);
}

/** Compiles the sandbox (npx gulp sandbox) and returns the folder that holds server.js and cli.js. */
async function buildSandbox() {
	await run(process.execPath, [path.join(ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'sandbox'], { cwd: ROOT });
	const dir = findSandboxBuild();
	if (!dir) throw new Error('gulp sandbox ran but no compiled sandbox (cli.js) was found under build/');
	return dir;
}

/** Where `gulp sandbox` put its output (build/test/sandbox, or build/sandbox in older layouts). */
function findSandboxBuild() {
	for (const candidate of ['build/test/sandbox', 'build/sandbox']) {
		const dir = path.join(ROOT, candidate);
		if (fs.existsSync(path.join(dir, 'cli.js')) && fs.existsSync(path.join(dir, 'server.js'))) return dir;
	}
	return undefined;
}

/** `npm pack` of the repository into `dest`; returns the tarball's path. Build first. */
async function packPackage(dest) {
	fs.mkdirSync(dest, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest, '--loglevel=error'], { cwd: ROOT });
	const info = JSON.parse(stdout.slice(stdout.indexOf('[')));
	return path.join(dest, info[0].filename);
}

/** The files listed in the package's `n8n` section that are missing from dist/ (nodes not built yet). */
function missingDistFiles() {
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	return [...pkg.n8n.nodes, ...pkg.n8n.credentials].filter((file) => !fs.existsSync(path.join(ROOT, file)));
}

// ---------------------------------------------------------------------------------------------
// User folders

/** A new, empty N8N_USER_FOLDER under `parent` (default: the OS temp folder). */
function createUserFolder(parent = os.tmpdir(), prefix = 'n8n-campaign-') {
	fs.mkdirSync(parent, { recursive: true });
	return fs.mkdtempSync(path.join(parent, prefix));
}

/**
 * Installs the packed package as a community package: unpacked into
 * `<user>/.n8n/nodes/node_modules/n8n-nodes-campaign-messaging`, listed in `<user>/.n8n/nodes/package.json`.
 * An older copy is replaced.
 */
async function installPackage(userFolder, tarball) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
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

// ---------------------------------------------------------------------------------------------
// n8n

/**
 * The environment for every n8n process: a quiet, offline, local instance. Node 24 comes first on
 * PATH because n8n starts its task runner as plain `node`.
 */
function n8nEnv(userFolder, extra = {}) {
	const nodeBinDir = path.dirname(runtimePaths().node);
	return cleanEnv({
		PATH: `${nodeBinDir}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_LEVEL: 'warn',
		N8N_NO_COLOR: 'true',
		NO_COLOR: '1',
		...extra,
	});
}

/** Runs an n8n CLI command in a user folder. */
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
 * N8N_ENCRYPTION_KEY. An existing credential with the same id is replaced.
 */
async function importCredentials(paths, userFolder, credentials) {
	const file = path.join(userFolder, 'import-credentials.json');
	fs.writeFileSync(file, JSON.stringify(credentials, null, 2));
	try {
		return await n8nCli(paths, userFolder, ['import:credentials', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/** Imports workflow files (paths to JSON files, each one workflow with an `id`). */
async function importWorkflows(paths, userFolder, files) {
	const dir = fs.mkdtempSync(path.join(userFolder, 'import-workflows-'));
	try {
		for (const file of files) fs.copyFileSync(file, path.join(dir, path.basename(file)));
		return await n8nCli(paths, userFolder, ['import:workflow', '--separate', `--input=${dir}`]);
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

/** A free TCP port on 127.0.0.1 (the preferred one when it is free). */
async function freePort(preferred = 0) {
	const tryPort = (port) =>
		new Promise((resolve) => {
			const server = net.createServer();
			server.once('error', () => resolve(undefined));
			server.listen(port, '127.0.0.1', () => {
				const actual = server.address().port;
				server.close(() => resolve(actual));
			});
		});
	if (preferred) {
		const port = await tryPort(preferred);
		if (port) return port;
	}
	return tryPort(0);
}

function httpGet(url, { timeoutMs = 5000 } = {}) {
	return httpRequest('GET', url, { timeoutMs });
}

/** A small HTTP client for n8n's REST API and the webhook (JSON bodies). */
function httpRequest(method, url, { body, headers = {}, timeoutMs = 10000 } = {}) {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			url,
			{
				method,
				timeout: timeoutMs,
				headers: {
					...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
					...headers,
				},
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (d) => (text += d));
				res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
			},
		);
		req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
		req.on('error', reject);
		req.end(payload);
	});
}

/** The credential the examples use (`credentials.campaignApi` in examples/*.json). */
const SANDBOX_CREDENTIAL = { id: 'campaignSandbox1', name: 'Campaign Sandbox', type: 'campaignApi' };

/** n8n's owner account for local instances (see setupOwner). */
const OWNER = {
	email: 'owner@campaign-messaging.local',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'CampaignDemo1',
};

/**
 * n8n 2.41 can own its owner account through the environment: with N8N_INSTANCE_OWNER_MANAGED_BY_ENV
 * `n8n start` creates (or overwrites) the owner from N8N_INSTANCE_OWNER_EMAIL, _FIRST_NAME,
 * _LAST_NAME and _PASSWORD_HASH (a bcrypt hash), so the editor opens on the sign-in page instead
 * of the owner setup form. The hash is made with the runtime's own bcryptjs.
 */
function ownerEnv(paths) {
	const bcrypt = require(path.join(paths.dir, 'node_modules', 'bcryptjs'));
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
		N8N_INSTANCE_OWNER_FIRST_NAME: OWNER.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: OWNER.lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(OWNER.password, 10),
	};
}

/**
 * Makes sure the started n8n has an owner (the env above normally did it; otherwise the REST owner
 * setup endpoint does) and signs in. Returns the login and the session cookie.
 */
async function setupOwner(url) {
	let created = false;
	const settings = JSON.parse((await httpGet(`${url}/rest/settings`)).body).data;
	if (settings?.userManagement?.showSetupOnFirstLoad) {
		const res = await httpRequest('POST', `${url}/rest/owner/setup`, {
			body: { email: OWNER.email, firstName: OWNER.firstName, lastName: OWNER.lastName, password: OWNER.password },
		});
		if (res.status !== 200) throw new Error(`owner setup failed: HTTP ${res.status} ${res.body}`);
		created = true;
	}
	const login = await httpRequest('POST', `${url}/rest/login`, {
		body: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
	});
	if (login.status !== 200) throw new Error(`login as ${OWNER.email} failed: HTTP ${login.status} ${login.body}`);
	const setCookie = [].concat(login.headers['set-cookie'] ?? []);
	const cookie = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('login answered 200 without an n8n-auth cookie');
	return { email: OWNER.email, password: OWNER.password, created, cookie };
}

/** playwright-core, from the runtime folder (so that the package needs no extra dev dependency). */
function loadPlaywright(paths) {
	return require(paths.playwrightCore);
}

/**
 * Starts `n8n start` on 127.0.0.1 and resolves once /healthz answers 200 and the REST API is up.
 * Returns `{ url, port, process, logFile, stop() }`. stop() ends n8n (SIGTERM, then SIGKILL).
 */
async function startN8n(paths, userFolder, { port, env = {}, timeoutMs = 180000, logFile } = {}) {
	const actualPort = port ?? (await freePort(5678));
	const brokerPort = await freePort(actualPort + 1);
	const url = `http://127.0.0.1:${actualPort}`;
	const file = logFile ?? path.join(userFolder, 'n8n-start.log');
	const out = fs.openSync(file, 'w');
	const child = spawn(paths.node, [paths.n8n, 'start'], {
		cwd: userFolder,
		env: n8nEnv(userFolder, {
			N8N_PORT: String(actualPort),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: `${url}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_LOG_LEVEL: 'info',
			...ownerEnv(paths),
			...env,
		}),
		stdio: ['ignore', out, out],
		detached: false,
	});
	fs.closeSync(out);
	let exited;
	// If this process ends without stopping n8n (an uncaught error, process.exit), n8n goes too.
	const onParentExit = () => child.kill('SIGTERM');
	process.on('exit', onParentExit);
	const exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			process.off('exit', onParentExit);
			resolve((exited = { code, signal }));
		}),
	);

	const stop = async () => {
		if (exited) return;
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
		await exitPromise;
		clearTimeout(timer);
	};

	const started = Date.now();
	for (;;) {
		if (exited) {
			throw new Error(`n8n start exited (${exited.signal ?? exited.code}) before it was ready; log ${file}:\n${tail(readText(file), 4000)}`);
		}
		if (Date.now() - started > timeoutMs) {
			await stop();
			throw new Error(`n8n did not answer ${url}/healthz within ${formatDuration(timeoutMs)}; log ${file}:\n${tail(readText(file), 4000)}`);
		}
		try {
			const res = await httpGet(`${url}/healthz/readiness`, { timeoutMs: 2000 });
			if (res.status === 200) {
				const settings = await httpGet(`${url}/rest/settings`, { timeoutMs: 5000 });
				if (settings.status === 200) break;
			}
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 500));
	}
	return { url, port: actualPort, process: child, logFile: file, stop, startMs: Date.now() - started };
}

function readText(file) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

// ---------------------------------------------------------------------------------------------

module.exports = {
	ROOT,
	N8N_VERSION,
	NODE_VERSION,
	PLAYWRIGHT_CORE_VERSION,
	PACKAGE_NAME,
	ENCRYPTION_KEY,
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
	createUserFolder,
	installPackage,
	n8nEnv,
	n8nCli,
	importCredentials,
	importWorkflows,
	parseRawOutput,
	executeWorkflow,
	freePort,
	httpGet,
	SANDBOX_CREDENTIAL,
	OWNER,
	startN8n,
	httpRequest,
	setupOwner,
	loadPlaywright,
	cleanEnv,
	ownerEnv,
};

if (require.main === module) {
	const t = Date.now();
	ensureRuntime()
		.then(async (paths) => {
			if (process.argv.includes('--chromium')) await ensureChromium();
			log(`ready: ${paths.dir} (${formatDuration(Date.now() - t)})`);
		})
		.catch((error) => {
			process.stderr.write(`${error.stack ?? error}\n`);
			process.exit(1);
		});
}
