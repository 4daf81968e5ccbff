/**
 * `npm run start:queue`: `npm start`, but n8n in queue mode, the way it is deployed at scale:
 * PostgreSQL and Redis (Debian's packages, installed on first use), one main (`n8n start`, the
 * editor), one webhook process (`n8n webhook`) and two workers (`n8n worker`), each with its own
 * user folder and the package installed into it; the sandbox with demo data, the credential
 * "Campaign Sandbox" and the example workflows in place, the event example published.
 * Everything runs on free 127.0.0.1 ports in temporary folders; one Ctrl-C stops it all and
 * removes the data (the demo is fresh on every start), at any step, the setup included (shutdown).
 *
 * Options: USAGE below (`npm run start:queue -- --help`). Manual runs from the editor go to the
 * workers (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true).
 */
'use strict';
const path = require('node:path');
const rt = require('./runtime');
const { startCluster } = require('./queue/cluster');
const { spawnService, waitForPort } = require('./queue/process-groups');
const { intOption, parseCommandLine, reportFailure } = require('./runtime/command');

const NAME = 'npm run start:queue';
const USAGE = `
Usage: npm run start:queue [-- options]

n8n in queue mode on this machine: PostgreSQL and Redis (Debian's packages, installed on first
use), one main (the editor), one webhook process and workers, with the package, the local API
sandbox, a "Campaign Sandbox" credential and the example workflows (the event example published).
Everything runs on free 127.0.0.1 ports in temporary folders; Ctrl-C stops it all and removes the
data.

Options:
  --workers <n>   number of workers (default 2)
  --no-build      never build (by default \`npm run build\` runs when a file under nodes/
                  or credentials/ changed after dist/ was built)
  --help          print this and exit
`;
const options = parseCommandLine(NAME, USAGE, {
	workers: { type: 'string' },
	'no-build': { type: 'boolean' },
});
const workersArg = intOption(NAME, 'workers', options.workers, 1, 16) ?? 2;
const EVENT_EXAMPLE = 'cmExampleEventMsg';

const started = Date.now();
/** The whole n8n installation, once startCluster returned it. */
const running = { cluster: undefined };
let stopping = false;
/** main() to its end, failure report included (see shutdown). */
let finished = Promise.resolve();

// Every child process from here on (the build and pack, apt-get, the sandbox, PostgreSQL and Redis
// and their commands, npm install, the n8n CLI imports, the n8n processes) leads a process group of
// its own, recorded until it exits (scripts/runtime/run-command.js, ownChildren).
const stopChildren = rt.ownChildren();

/**
 * The one way it ends once it began, on Ctrl-C (a signal) or a failure, whatever step main() is
 * at: a started cluster stops in its order (n8n, then Redis and PostgreSQL) and removes its data;
 * then every child still running stops (the sandbox; during the setup, its commands and what of
 * the cluster already runs), each group waited for; main() ends (a cluster that was starting
 * removes its folders as it fails, startCluster), at most 10 s; a cluster that got ready meanwhile
 * is stopped too; exits.
 */
async function shutdown(code) {
	if (stopping) return;
	stopping = true;
	const say = (e) => process.stderr.write(`while stopping: ${e.message}\n`);
	await running.cluster?.stop().catch(say);
	await stopChildren().catch(say);
	let giveUp;
	await Promise.race([finished, new Promise((resolve) => (giveUp = setTimeout(resolve, 10000)))]);
	clearTimeout(giveUp);
	await running.cluster?.stop().catch(say);
	process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		process.stdout.write(
			`\n${signal}: stopping n8n (main, webhook, workers), PostgreSQL, Redis and the sandbox...\n`,
		);
		void shutdown(0);
	});
}

async function main() {
	if (!options['no-build']) await rt.ensureBuilt();
	const sandboxDir = await rt.buildSandbox();
	const sandboxPort = await rt.freePort(8787);
	const sandbox = spawnService(
		process.execPath,
		[path.join(sandboxDir, 'cli.js'), '--port', String(sandboxPort)],
		{
			cwd: rt.ROOT,
		},
	);
	await waitForPort(sandboxPort, { child: sandbox.child, name: 'the sandbox' });
	const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
	rt.log(`sandbox listening on ${sandboxUrl}`);

	const examples = rt.exampleFiles();
	rt.log(`starting PostgreSQL, Redis and n8n in queue mode (main, webhook, ${workersArg} workers)`);
	const cluster = await startCluster({
		workers: workersArg,
		credentials: [
			{
				...rt.SANDBOX_CREDENTIAL,
				data: { baseUrl: sandboxUrl, apiKey: rt.SANDBOX_DEMO_KEY, memberApiVersion: 'any' },
			},
		],
		workflows: examples,
		publish: [EVENT_EXAMPLE],
		mainEnv: { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' },
	});
	running.cluster = cluster;
	// Ready while it was being stopped: shutdown() stops it.
	if (stopping) return;
	for (const proc of [cluster.main, cluster.webhook, ...cluster.workers]) {
		proc.exited.then(() => {
			if (!stopping) {
				process.stderr.write(`n8n ${proc.name} stopped unexpectedly; see ${proc.logFile}\n`);
				void shutdown(1);
			}
		});
	}
	const webhook = `${cluster.webhook.url}/webhook/campaign-event`;
	const lines = [
		'',
		`  n8n editor      ${cluster.main.url}/  (main: n8n start, queue mode)`,
		`  login           ${rt.OWNER.email} / ${cluster.ownerPassword}  (made for this start)`,
		...rt.webhookBannerLines(
			webhook,
			cluster.webhookSecret,
			'(n8n webhook; the event example is published)',
		),
		...cluster.workers.map(
			(w) =>
				`  ${w.name.padEnd(16)}pid ${w.pid}, health ${w.url}/healthz/readiness, log ${w.logFile}`,
		),
		`  PostgreSQL      127.0.0.1:${cluster.postgres.port} (database ${cluster.postgres.database}, user ${cluster.postgres.user})`,
		`  Redis           127.0.0.1:${cluster.redis.port}`,
		`  sandbox         ${sandboxUrl}  (API key ${rt.SANDBOX_DEMO_KEY}; credential "${rt.SANDBOX_CREDENTIAL.name}")`,
		`  examples        ${examples.map((f) => path.basename(f)).join(', ')}`,
		`  data            ${cluster.dir}  (removed on stop)`,
		'',
		`  ready in ${rt.formatDuration(Date.now() - started)}. Press Ctrl+C to stop everything.`,
		'',
	];
	process.stdout.write(`${lines.join('\n')}\n`);
}

finished = main().catch((error) => {
	// Stopping ends the setup commands, and main() with them: that is no failure to report.
	if (stopping) return;
	reportFailure(NAME, error);
	void shutdown(1);
});
