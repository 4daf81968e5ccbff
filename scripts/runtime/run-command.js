/**
 * Logging and child processes for the runtime scripts: progress lines on stderr, a clean
 * environment for the runtime's own npm and n8n, `run()` (a command with a heartbeat and a
 * time limit, resolving with its output), and `ownChildren()` for a script that stops its children
 * itself (scripts/start.js, scripts/start-queue.js).
 */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/** The repository root. */
const ROOT = path.resolve(__dirname, '..', '..');

const PACKAGE_NAME = 'n8n-nodes-campaign-messaging';

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
/**
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string>}
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
	[
		'registry',
		'cache',
		'cafile',
		'ca',
		'proxy',
		'https_proxy',
		'noproxy',
		'strict_ssl',
		'userconfig',
		'globalconfig',
	].map((name) => `npm_config_${name}`),
);

/**
 * Set by jest for its workers: NODE_ENV=test makes n8n's CLI silently do nothing (no log, no
 * import, no execution, exit 0), so n8n processes never inherit them.
 */
const INHERITED_BUT_HARMFUL = new Set(['NODE_ENV', 'JEST_WORKER_ID']);

/**
 * The children of a script that took charge of them (ownChildren), each with the signal that
 * stops it, until each exits; undefined in every other script, whose children stay in the
 * terminal's process group (Ctrl-C reaches them).
 * @type {{ children: Map<import('node:child_process').ChildProcess, NodeJS.Signals>, stopping: boolean } | undefined}
 */
let owner;

/**
 * spawn(), as every child of the runtime scripts starts (run(), startN8n, startSandbox, and the
 * queue-mode services and n8n processes: spawnService and runAs in scripts/queue/process-groups.js).
 * Once the script took charge of its children (ownChildren), the child leads a process group of its
 * own and is recorded until it exits, with `options.killSignal` (default SIGTERM) as the signal
 * that stops it; once they are being stopped, none starts any more (this throws).
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} options
 * @returns {import('node:child_process').ChildProcess}
 */
function spawnChild(command, args, options) {
	if (!owner) return spawn(command, args, options);
	if (owner.stopping) throw new Error(`not starting ${path.basename(command)}: stopping`);
	const child = spawn(command, args, { ...options, detached: true });
	if (child.pid !== undefined) {
		const { children } = owner;
		children.set(child, /** @type {NodeJS.Signals} */ (options.killSignal ?? 'SIGTERM'));
		child.once('exit', () => children.delete(child));
	}
	return child;
}

/**
 * Takes charge of this script's children: from now on each one (spawnChild) leads a process group
 * of its own, which the terminal's Ctrl-C no longer reaches; the script stops them on its signals
 * with the returned stop(). stop() sends each group its child's signal (SIGTERM unless spawnChild
 * was given another), then SIGKILL once the child exited (whatever it left in its group, as
 * spawnService in scripts/queue/process-groups.js) or `graceMs` passed; it resolves once every
 * group is gone, or `graceMs` + 5 s after it began. Should the script end without stop() (an
 * uncaught error), the groups get SIGKILL.
 * @param {number} [graceMs]
 * @returns {() => Promise<void>}
 */
function ownChildren(graceMs = 15000) {
	const current = { children: new Map(), stopping: false };
	owner = current;
	/** Sends `signal` to the child's group; false once no process of it is left (a zombie counts). */
	const signalGroup = (child, signal) => {
		try {
			process.kill(-child.pid, signal);
			return true;
		} catch (error) {
			return error.code === 'EPERM';
		}
	};
	process.on('exit', () => {
		for (const child of current.children.keys()) signalGroup(child, 'SIGKILL');
	});
	return async function stop() {
		current.stopping = true;
		const killAt = Date.now() + graceMs;
		await Promise.all(
			[...current.children].map(async ([child, signal]) => {
				signalGroup(child, signal);
				while (signalGroup(child, 0) && Date.now() < killAt + 5000) {
					const exited = child.exitCode !== null || child.signalCode !== null;
					if (exited || Date.now() >= killAt) signalGroup(child, 'SIGKILL');
					await new Promise((resolve) => setTimeout(resolve, 50));
				}
			}),
		);
	};
}

/**
 * @typedef {object} RunResult
 * @property {number | null} code
 * @property {string | null} signal
 * @property {string} stdout
 * @property {string} stderr
 * @property {number} ms
 */

/**
 * Runs a command, streaming nothing, with a heartbeat; resolves with its output, rejects on failure.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string | undefined>, label?: string, heartbeatMs?: number, timeoutMs?: number, input?: string }} [options]
 * @returns {Promise<RunResult>}
 */
function run(command, args, { cwd, env, label, heartbeatMs = 30000, timeoutMs = 0, input } = {}) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawnChild(command, args, {
			cwd,
			env: env ?? process.env,
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		if (input !== undefined) child.stdin.end(input);
		else child.stdin.end();
		const beat = label
			? setInterval(
					() => log(`  ... ${label}: ${formatDuration(Date.now() - started)} so far`),
					heartbeatMs,
				)
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

function readText(file) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

module.exports = {
	ROOT,
	PACKAGE_NAME,
	setQuiet,
	log,
	formatDuration,
	cleanEnv,
	run,
	spawnChild,
	ownChildren,
	tail,
	readText,
};
