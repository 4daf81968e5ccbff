/**
 * Runtime preparation: a local n8n for `npm start`, `npm run test:e2e` and the benchmarks, kept
 * outside the repository and outside the published package.
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
 * Run it directly to prepare the runtime ahead of time: `node scripts/runtime/install.js`
 * (`--chromium` also installs Debian's chromium when it is missing).
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { PACKAGE_NAME, cleanEnv, formatDuration, log, run } = require('./run-command');
const {
	N8N_VERSION,
	NODE_PACKAGE,
	NODE_VERSION,
	OVERRIDES,
	PLAYWRIGHT_CORE_VERSION,
	n8nEnv,
	runtimePaths,
} = require('./paths');

const LOCK_STALE_MS = 60 * 60 * 1000;

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

function readMarker(paths) {
	try {
		return JSON.parse(fs.readFileSync(paths.marker, 'utf8'));
	} catch {
		return undefined;
	}
}

function isReady(paths, hash) {
	const marker = readMarker(paths);
	return Boolean(
		marker && marker.hash === hash && fs.existsSync(paths.node) && fs.existsSync(paths.n8n),
	);
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
			fs.writeFileSync(
				path.join(lockDir, 'owner.json'),
				JSON.stringify({ pid: process.pid, at: Date.now(), host: os.hostname() }),
			);
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
		if (Date.now() - started > LOCK_STALE_MS)
			throw new Error(`timed out waiting for the lock ${lockDir}`);
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
	fs.writeFileSync(
		path.join(paths.dir, '.npmrc'),
		'fund=false\naudit=false\nupdate-notifier=false\n',
	);

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
	if (!fs.existsSync(paths.node))
		throw new Error(`Node 24 binary missing after install: ${paths.node}`);

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
	await run(paths.node, ['-e', "require('sqlite3'); process.stdout.write(process.version)"], {
		cwd: paths.dir,
		env,
	});
	const version = (
		await run(paths.node, [paths.n8n, '--version'], { cwd: paths.dir, env: n8nEnv(os.tmpdir()) })
	).stdout.trim();
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

module.exports = { ensureRuntime };

if (require.main === module) {
	const { parseCommandLine, reportFailure } = require('./command');
	const { ensureChromium } = require('./browser');
	const name = 'node scripts/runtime/install.js';
	const options = parseCommandLine(
		name,
		`Usage: ${name} [--chromium]\n\nPrepares the local n8n runtime (Node 24, n8n ${N8N_VERSION}, playwright-core) in\n${runtimePaths().dir}\nahead of time; npm start and the end-to-end tests reuse it.\n\n  --chromium   also install Debian's chromium for the browser check\n  --help       print this and exit`,
		{ chromium: { type: 'boolean' } },
	);
	const t = Date.now();
	ensureRuntime()
		.then(async (paths) => {
			if (options.chromium) await ensureChromium();
			log(`ready: ${paths.dir} (${formatDuration(Date.now() - t)})`);
		})
		.catch((error) => {
			reportFailure(name, error);
			process.exit(1);
		});
}
