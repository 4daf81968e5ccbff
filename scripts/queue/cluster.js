/**
 * n8n in queue mode on one machine, as a deployment would run it: PostgreSQL, Redis, one main
 * (`n8n start`), one webhook process (`n8n webhook`) and N workers (`n8n worker`), each n8n
 * process with its own N8N_USER_FOLDER (as separate containers would have) and the same
 * encryption key. Everything listens on free 127.0.0.1 ports and lives in one temporary folder.
 *
 *   const cluster = await startCluster({ workers: 2, tarball, credentials, workflows });
 *   cluster.main.url; cluster.webhook.url; cluster.workers[0].pid;
 *   await cluster.stop();   // every process stopped, every folder removed
 *
 * The package goes into each process's `<user folder>/.n8n/nodes` with `npm install`, the way
 * the README tells an operator to install it (see installIntoUserFolder), unless a worker is
 * asked to go without it.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../runtime/index.js');
const { ensureServices, startPostgres, startRedis } = require('./services.js');
const { tempDir } = require('./process-groups.js');
const { startN8nProcess, startWorkerOrWebhook } = require('./n8n-process.js');
const { openDatabase } = require('./database.js');
const { clusterApi, fire } = require('./api.js');
const { traceEnv } = require('./trace-settings.js');

/**
 * The community-node install an operator runs in each n8n process's user folder:
 * `cd ~/.n8n/nodes && npm install --omit=peer <package>` (n8n-workflow, the peer dependency, is
 * n8n's own).
 */
async function installIntoUserFolder(userFolder, spec) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const manifest = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(manifest))
		fs.writeFileSync(
			manifest,
			`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`,
		);
	await rt.run(
		'npm',
		[
			'install',
			'--omit=peer',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			spec,
		],
		{
			cwd: nodesDir,
			env: rt.cleanEnv(),
		},
	);
}

/**
 * The settings every process of one installation shares: queue mode, its PostgreSQL and Redis
 * (with the passwords made for this run), and an encryption key made for this installation.
 */
function queueEnv(postgres, redis) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		QUEUE_BULL_REDIS_PASSWORD: redis.password,
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
		// Offline machine: no lookups of n8n's MCP registry.
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_LOG_LEVEL: 'info',
	};
}

/** Normalizes the `workers` option: a count, or one `{ install, env }` entry per worker. */
function workerSpecs(workers) {
	const list = typeof workers === 'number' ? Array.from({ length: workers }, () => ({})) : workers;
	return list.map((spec, i) => ({ install: true, env: {}, ...spec, name: `worker-${i + 1}` }));
}

/**
 * Starts the whole topology. Options:
 *   workers       count (default 2) or `[{ install?: boolean, env?: {} }, ...]`
 *   concurrency   executions per worker at once (default 10)
 *   webhook       start an `n8n webhook` process (default true)
 *   package       what `npm install` gets in every user folder: a tarball path or a registry spec;
 *                 false installs nothing (the caller's env makes n8n install it)
 *   env           extra environment for every n8n process; mainEnv only for main
 *
 * Every installation runs with n8n 3.0's settings (on n8n 2.41 they are set by hand): no install of
 * unverified packages (N8N_UNVERIFIED_PACKAGES_ENABLED=false, from scripts/runtime/paths.js, which
 * the environment-managed install's test overrides where it must) and manual executions on the
 * workers (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true on main: 3.0 removes the setting and always
 * does so).
 *   home          HOME for every n8n process (for an ~/.npmrc)
 *   credentials   `[{ id, name, type, data }]` imported before main starts
 *   workflows     workflow JSON files imported before main starts; publish: their ids to activate
 * @typedef {import('./api').Json} Json
 * @typedef {import('./api').FireResult} FireResult
 * @typedef {{ install?: boolean, env?: Record<string, string> }} WorkerSpec  install: the package into this worker's user folder (default true)
 * @typedef {object} ClusterOptions
 * @property {number | WorkerSpec[]} [workers]
 * @property {number} [concurrency]
 * @property {boolean} [webhook]
 * @property {string | false} [package]
 * @property {Record<string, string>} [env]
 * @property {Record<string, string>} [mainEnv]
 * @property {string} [home]
 * @property {Array<{ id: string, name: string, type: string, data: Record<string, unknown> }>} [credentials]
 * @property {string[]} [workflows]
 * @property {string[]} [publish]
 * @typedef {import('./n8n-process').N8nProcess} N8nProcess
 * @typedef {import('./api').ClusterApi & {
 *   dir: string,
 *   paths: import('../runtime').RuntimePaths,
 *   postgres: import('./services').PostgresHandle,
 *   redis: import('./services').RedisHandle,
 *   env: Record<string, string>,
 *   main: N8nProcess,
 *   webhook?: N8nProcess,
 *   workers: N8nProcess[],
 *   cookie: string,
 *   db: import('./database').Database,
 *   startMs: number,
 *   resources(): { pids: number[], ports: number[] },
 *   cli(args: string[]): Promise<import('../runtime').RunResult>,
 *   stop(): Promise<void>,
 *   addWorker(spec?: WorkerSpec): Promise<N8nProcess>,
 * }} Cluster  cookie: the owner's session for main's REST API; resources(): every process group and port (leak checks after stop()); cli(): an n8n CLI command against the cluster's database
 * @param {ClusterOptions} [options]
 * @returns {Promise<Cluster>}
 */
async function startCluster(options = {}) {
	const {
		concurrency = 10,
		webhook = true,
		env = {},
		mainEnv = {},
		home,
		credentials = [],
		workflows = [],
		publish = [],
	} = options;
	const specs = workerSpecs(options.workers ?? 2);
	const t0 = Date.now();
	await ensureServices();
	const paths = await rt.ensureRuntime();
	const root = tempDir('campaign-queue-');
	const stoppers = [];
	const stop = async () => {
		for (const fn of stoppers.splice(0).reverse())
			await fn().catch((e) => rt.log(`while stopping: ${e.message}`));
		root.remove();
	};
	try {
		// Neither left starting, nor one started and forgotten, when the other fails.
		const [postgres, redis] = await settled([startPostgres(), startRedis()], (service) =>
			stoppers.push(service.stop),
		);
		// The n8n processes stop all at once (each is given its grace time), before Redis and
		// PostgreSQL (one after the other, their grace times add up).
		const n8nProcesses = [];
		stoppers.push(async () => {
			const results = await Promise.allSettled(n8nProcesses.splice(0).map((p) => p.stop()));
			const failed = results.find((r) => r.status === 'rejected');
			if (failed) throw failed.reason;
		});
		const shared = {
			...queueEnv(postgres, redis),
			...traceEnv(),
			// The n8n user's home, and its .npmrc even under an outer `npm run` or `npx` (which
			// point npm_config_userconfig elsewhere).
			...(home ? { HOME: home, npm_config_userconfig: path.join(home, '.npmrc') } : {}),
			...env,
		};
		// The owner's password and the webhook secret, made for this cluster (its data is fresh
		// on every start); every folder its owner's only.
		const secrets = rt.folderSecrets(root.dir);
		const folder = (name) => rt.ownerOnlyFolder(path.join(root.dir, name));
		const roles = [
			{ name: 'main', install: true },
			...(webhook ? [{ name: 'webhook', install: true }] : []),
			...specs,
		].map((role) => ({ ...role, userFolder: folder(role.name) }));
		const spec = options.package === undefined ? await defaultTarball(root.dir) : options.package;
		await settled(
			roles.filter((r) => r.install && spec).map((r) => installIntoUserFolder(r.userFolder, spec)),
		);

		// Before main starts: the schema (the first CLI call migrates it), credentials, workflows.
		const mainFolder = roles[0].userFolder;
		const cli = (args) => rt.n8nCli(paths, mainFolder, args, { env: shared });
		// With the examples' webhook Header Auth credential (its secret made for this cluster).
		const imported = [...credentials, rt.webhookCredential(secrets.webhookSecret)];
		await rt.importCredentials(paths, mainFolder, imported, { env: shared });
		if (workflows.length > 0)
			await rt.importWorkflows(paths, mainFolder, workflows, { env: shared });
		for (const id of publish) await cli(['publish:workflow', `--id=${id}`]);

		const port = async () => String(await rt.freePort());
		const mainPort = await port();
		const mainUrl = `http://127.0.0.1:${mainPort}`;
		const main = await startN8nProcess(paths, {
			name: 'main',
			args: ['start'],
			userFolder: mainFolder,
			url: mainUrl,
			readyUrl: `${mainUrl}/healthz/readiness`,
			env: {
				...shared,
				N8N_PORT: mainPort,
				N8N_LISTEN_ADDRESS: '127.0.0.1',
				N8N_HOST: '127.0.0.1',
				N8N_PROTOCOL: 'http',
				N8N_EDITOR_BASE_URL: `${mainUrl}/`,
				N8N_SECURE_COOKIE: 'false',
				N8N_RUNNERS_BROKER_PORT: await port(),
				...rt.ownerEnv(paths, secrets.ownerPassword),
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				...mainEnv,
			},
		});
		n8nProcesses.push(main);

		const startRole = (role) =>
			startWorkerOrWebhook(paths, { role, shared, concurrency }).then((proc) => {
				n8nProcesses.push(proc);
				return proc;
			});
		const others = await Promise.all(
			roles.slice(1).map((role) => startRole(role).catch((error) => ({ error }))),
		);
		const failed = others.find((p) => p.error);
		if (failed) throw failed.error;
		const owner = await rt.setupOwner(main.url, secrets.ownerPassword);
		const db = await openDatabase(paths, postgres);
		stoppers.push(db.close);
		const webhookProc = webhook ? others[0] : undefined;
		const workersList = others
			.slice(webhook ? 1 : 0)
			.map((p, index) => Object.assign(p, { index }));
		const processes = () => [main, ...(webhookProc ? [webhookProc] : []), ...workersList];
		return {
			dir: root.dir,
			paths,
			postgres,
			redis,
			env: shared,
			main,
			webhook: webhookProc,
			workers: workersList,
			cookie: owner.cookie,
			ownerPassword: secrets.ownerPassword,
			webhookSecret: secrets.webhookSecret,
			db,
			startMs: Date.now() - t0,
			/** Every process group and port this cluster used (for leak checks after stop()). */
			resources: () => ({
				pids: [postgres.pid, redis.pid, ...processes().map((p) => p.pid)],
				ports: [postgres.port, redis.port, ...processes().map((p) => Number(new URL(p.url).port))],
			}),
			cli,
			stop,
			/** Starts one more worker, named `worker-<n>`, with its own user folder (a WorkerSpec). */
			addWorker: async ({ install = true, env: workerEnv = {} } = {}) => {
				const name = `worker-${workersList.length + 1}`;
				const userFolder = folder(name);
				if (install && spec) await installIntoUserFolder(userFolder, spec);
				const proc = await startRole({ name, userFolder, env: workerEnv });
				workersList.push(Object.assign(proc, { index: workersList.length }));
				return proc;
			},
			...clusterApi({ main, webhook: webhookProc, workers: workersList, cookie: owner.cookie }),
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/**
 * Promise.all that rejects (with the first failure) only once every promise settled, `started`
 * called with each value there is: nothing is still at work in the folder a failure removes.
 */
async function settled(promises, started = () => undefined) {
	const results = await Promise.allSettled(promises);
	for (const result of results) if (result.status === 'fulfilled') started(result.value);
	const failed = results.find((result) => result.status === 'rejected');
	if (failed) throw failed.reason;
	return results.map((result) => result.value);
}

/** Packs the repository (built dist/) once into `dir`. */
async function defaultTarball(dir) {
	const missing = rt.missingDistFiles();
	if (missing.length > 0)
		throw new Error(`build the package first (npm run build): missing ${missing.join(', ')}`);
	return rt.packPackage(path.join(dir, 'pack'));
}

module.exports = { startCluster, installIntoUserFolder, queueEnv, fire };
