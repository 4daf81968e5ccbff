/**
 * Process plumbing for the queue-mode services and n8n processes: each long-running process in
 * its own process group (so a stop or a kill reaches its children too), waits on ports, and the
 * checks that nothing is left behind. Every child starts through spawnChild
 * (scripts/runtime/run-command.js): in a script that took charge of its children (ownChildren,
 * scripts/start-queue.js), its stop() reaches these too, whatever step the script is at.
 */
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { formatDuration, spawnChild } = require('../runtime/index.js');

function isRoot() {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Runs a command (as `uid`/`gid` when given) and resolves with its output; rejects on failure. */
function runAs(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		const child = spawnChild(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0
				? resolve(out)
				: reject(
						new Error(
							`${path.basename(command)} ${args.join(' ')} failed (exit ${code})\n${out.slice(-2000)}`,
						),
					),
		);
	});
}

/** Resolves once a TCP connection to host:port succeeds (and `probe`, when given, says yes). */
async function waitForPort(port, { timeoutMs = 60000, probe, child, name } = {}) {
	const started = Date.now();
	for (;;) {
		if (child && (child.exitCode !== null || child.signalCode !== null))
			throw new Error(`${name} exited before it answered`);
		const ok = await new Promise((resolve) => {
			const socket = net.connect(port, '127.0.0.1');
			socket.once('connect', () => {
				socket.destroy();
				resolve(true);
			});
			socket.once('error', () => resolve(false));
		});
		if (ok && (!probe || (await probe().catch(() => false)))) return;
		if (Date.now() - started > timeoutMs)
			throw new Error(
				`${name} did not answer on 127.0.0.1:${port} within ${formatDuration(timeoutMs)}`,
			);
		await new Promise((r) => setTimeout(r, 200));
	}
}

/**
 * Spawns a long-running service in its own process group. Returns `{ child, stop }`: stop() sends
 * `signal`, waits up to `graceMs`, then SIGKILLs the group. The service also goes when this
 * process exits without calling stop(). `signal` is also what stops it when the script stops all
 * its children at once (ownChildren in scripts/runtime/run-command.js).
 */
function spawnService(command, args, { signal = 'SIGTERM', graceMs = 10000, logFile, ...options }) {
	const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
	let child;
	try {
		child = spawnChild(command, args, {
			...options,
			detached: true,
			killSignal: signal,
			stdio: ['ignore', out, out],
		});
	} finally {
		if (typeof out === 'number') fs.closeSync(out);
	}
	const killGroup = (sig) => {
		try {
			process.kill(-child.pid, sig);
		} catch {
			// already gone
		}
	};
	const onExit = () => killGroup('SIGKILL');
	process.on('exit', onExit);
	const exited = new Promise((resolve) => child.once('exit', resolve));
	exited.then(() => process.off('exit', onExit));
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			killGroup(signal);
			const timer = setTimeout(() => killGroup('SIGKILL'), graceMs);
			await exited;
			clearTimeout(timer);
		}
		killGroup('SIGKILL'); // anything the service left in its group
	};
	return { child, stop, exited };
}

/** A temporary folder (removed by the returned remove()). */
function tempDir(prefix) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** True when nothing listens on 127.0.0.1:port any more. */
function portIsFree(port) {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(false);
		});
		socket.once('error', () => resolve(true));
	});
}

/** True when no process of the group `pgid` is alive. */
function groupIsGone(pgid) {
	try {
		process.kill(-pgid, 0);
		return false;
	} catch (error) {
		return error.code === 'ESRCH';
	}
}

module.exports = { isRoot, runAs, waitForPort, spawnService, tempDir, portIsFree, groupIsGone };
