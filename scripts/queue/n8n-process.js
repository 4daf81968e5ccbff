/**
 * One n8n process of a queue-mode installation (`n8n start`, `n8n webhook` or `n8n worker`), in
 * its own process group and, as root, its own hostname, waited for until it is ready.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../runtime/index.js');
const { isRoot, spawnService } = require('./process-groups.js');

/**
 * n8n derives its host id from the host: two workers on one machine (in a container) would
 * share one. As root, each process gets its own UTS namespace and hostname (`unshare --uts`),
 * as each container would have.
 */
function withHostname(paths, args, hostname) {
	if (!canSetHostname()) return [paths.node, [paths.n8n, ...args]];
	const script = `hostname "$1" && shift && exec "$@"`;
	return ['unshare', ['--uts', 'sh', '-c', script, 'sh', hostname, paths.node, paths.n8n, ...args]];
}

let hostnameCheck;
/** Whether `unshare --uts` with a new hostname works here (root, and allowed by the container). */
function canSetHostname() {
	if (hostnameCheck === undefined) {
		hostnameCheck =
			isRoot() &&
			spawnSync('unshare', ['--uts', 'sh', '-c', 'hostname campaign-check'], { stdio: 'ignore' })
				.status === 0;
	}
	return hostnameCheck;
}

/**
 * Starts one n8n process (`start`, `webhook` or `worker`) in its own process group and waits
 * until `readyUrl` answers 200.
 * @typedef {object} N8nProcess
 * @property {string} name
 * @property {number} pid
 * @property {string} url
 * @property {string} logFile
 * @property {string} userFolder
 * @property {number} startMs
 * @property {number} [index]  a worker's place in the cluster's list
 * @property {Promise<unknown>} exited
 * @property {() => boolean} alive
 * @property {() => Promise<void>} stop
 * @property {(signal?: NodeJS.Signals) => Promise<void>} kill  signals the whole process group (n8n and its task runner); resolves once n8n exited
 * @property {() => string} log
 * @returns {Promise<N8nProcess>}
 */
async function startN8nProcess(
	paths,
	{ name, args, userFolder, env, readyUrl, url, timeoutMs = 240000 },
) {
	const logFile = path.join(userFolder, `${name}.log`);
	const [command, argv] = withHostname(paths, args, `campaign-${name}`);
	const service = spawnService(command, argv, {
		cwd: userFolder,
		// The tracer's file name (dedup-trace.js), when it is loaded.
		env: rt.n8nEnv(userFolder, { ...env, DEDUP_TRACE_NAME: name }),
		logFile,
		graceMs: 20000,
	});
	let exitInfo;
	service.child.once('exit', (code, signal) => (exitInfo = { code, signal }));
	const proc = {
		name,
		pid: service.child.pid,
		url,
		logFile,
		userFolder,
		exited: service.exited,
		alive: () => exitInfo === undefined,
		stop: service.stop,
		/** Sends `signal` to the whole process group (n8n and its task runner), as a dying container would. */
		kill: async (signal = 'SIGKILL') => {
			try {
				process.kill(-service.child.pid, signal);
			} catch {
				// already gone
			}
			await service.exited;
		},
		log: () => readText(logFile),
	};
	const started = Date.now();
	for (;;) {
		if (exitInfo)
			throw new Error(
				`n8n ${args[0]} (${name}) exited (${exitInfo.signal ?? exitInfo.code}) before it was ready:\n${tail(readText(logFile))}`,
			);
		if (Date.now() - started > timeoutMs) {
			await service.stop();
			throw new Error(
				`n8n ${args[0]} (${name}) was not ready within ${rt.formatDuration(timeoutMs)}:\n${tail(readText(logFile))}`,
			);
		}
		const res = await rt.httpGet(readyUrl, { timeoutMs: 2000 }).catch(() => undefined);
		if (res?.status === 200) break;
		await new Promise((r) => setTimeout(r, 500));
	}
	proc.startMs = Date.now() - started;
	return proc;
}

function readText(file) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

function tail(text, max = 4000) {
	return text.length > max ? `...${text.slice(-max)}` : text;
}

/**
 * Starts one webhook process or worker of a cluster (`role.name` webhook or worker-<n>) on free
 * ports, with the cluster's shared settings and the role's own.
 */
async function startWorkerOrWebhook(paths, { role, shared, concurrency }) {
	const listen = String(await rt.freePort());
	const isWorker = role.name.startsWith('worker');
	const url = `http://127.0.0.1:${listen}`;
	return startN8nProcess(paths, {
		name: role.name,
		args: isWorker ? ['worker', `--concurrency=${concurrency}`] : ['webhook'],
		userFolder: role.userFolder,
		url,
		readyUrl: isWorker ? `${url}/healthz/readiness` : `${url}/healthz`,
		env: {
			...shared,
			N8N_RUNNERS_BROKER_PORT: String(await rt.freePort()),
			...(isWorker
				? {
						QUEUE_HEALTH_CHECK_ACTIVE: 'true',
						QUEUE_HEALTH_CHECK_PORT: listen,
						N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
					}
				: { N8N_PORT: listen, N8N_LISTEN_ADDRESS: '127.0.0.1' }),
			...(role.env ?? {}),
		},
	});
}

module.exports = { startN8nProcess, startWorkerOrWebhook };
