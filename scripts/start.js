/**
 * `npm start`: a working n8n editor with this package loaded, talking to the local API sandbox.
 *
 *   1. prepares the local n8n runtime on first use (scripts/runtime/install.js; several minutes, once),
 *   2. at once, in two lanes:
 *      a. builds the package when dist/ is older than the sources (npm run build), installs its `npm pack` tarball into the demo n8n
 *         user folder as a community package, compiles the sandbox (gulp sandbox) and starts it
 *         with demo data on 127.0.0.1;
 *      b. imports a "Campaign Sandbox" credential pointing at the sandbox, and the example
 *         workflows (examples/*.json, restored to their original on every start),
 *   3. starts n8n on 127.0.0.1 with its owner account set from the environment, publishes the
 *      event example so its webhook answers, and prints the editor URL and the login.
 * The owner's password and the webhook's secret are made at random for the demo folder on its
 * first start and kept in it (scripts/runtime/demo-secrets.js): the folder is its owner's only
 * (0700), the file too (0600); n8n keeps its own settings file (.n8n/config) 0600.
 * Ctrl-C, at any step, stops n8n, the sandbox and any setup command still running (stopAll).
 *
 * Options: USAGE below (`npm start -- --help`).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const {
	ROOT,
	httpRequest,
	SANDBOX_CREDENTIAL: CREDENTIAL,
	SANDBOX_DEMO_KEY,
	ensureBuilt,
	buildSandbox,
	ensureRuntime,
	exampleFiles,
	folderSecrets,
	formatDuration,
	freePort,
	importCredentials,
	importWorkflows,
	installPackage,
	log,
	missingDistFiles,
	ownChildren,
	ownerOnlyFolder,
	packPackage,
	setupOwner,
	startN8n,
	webhookBannerLines,
	webhookCredential,
} = require('./runtime');
const { intOption, parseCommandLine, reportFailure } = require('./runtime/command');
const { startSandbox } = require('./runtime/sandbox-process');

const USAGE = `
Usage: npm start [-- options]

A working n8n editor with this package, the local API sandbox with demo data, a "Campaign Sandbox"
credential and the example workflows (the event example published). Ctrl-C stops everything.

Options:
  --fresh               start from an empty n8n user folder (drops workflows you made in the demo)
  --port <n>            editor port (default 5678, or a free one)
  --sandbox-port <n>    sandbox port (default 8787, or a free one)
  --no-build            never build (by default \`npm run build\` runs when a file under
                        nodes/ or credentials/ changed after dist/ was built)
  --no-examples         do not (re-)import the example workflows
  --help                print this and exit

The demo user folder is .n8n-runtime/demo in the repository; N8N_DEMO_USER_FOLDER overrides it.
Its owner password and webhook secret are made on its first start and kept in it (printed when
ready); --fresh makes new ones.
`;
const options = parseCommandLine('npm start', USAGE, {
	fresh: { type: 'boolean' },
	port: { type: 'string' },
	'sandbox-port': { type: 'string' },
	'no-build': { type: 'boolean' },
	'no-examples': { type: 'boolean' },
});
const editorPort = intOption('npm start', 'port', options.port, 1, 65535) ?? 5678;
const sandboxPort =
	intOption('npm start', 'sandbox-port', options['sandbox-port'], 1, 65535) ?? 8787;

const started = Date.now();
/** What to undo once every child is gone (the pid file). */
const stoppers = [];
let stopping = false;
/** main() to its end, failure report included (see stopAll). */
let finished = Promise.resolve();

// Every child process from here on (the setup commands, the sandbox, n8n) leads a process group of
// its own, recorded until it exits (scripts/runtime/run-command.js, ownChildren).
const stopChildren = ownChildren();

/**
 * The one way npm start ends once it began, on Ctrl-C (a signal) or a failure: stops every child
 * still running, whatever step main() is at; lets main() end (its clean-up runs: the import files
 * importCredentials and importWorkflows remove), at most 10 s; runs the stoppers; exits.
 */
async function stopAll(code) {
	if (stopping) return;
	stopping = true;
	const say = (error) => process.stderr.write(`while stopping: ${error.message}\n`);
	await stopChildren().catch(say);
	let giveUp;
	await Promise.race([finished, new Promise((resolve) => (giveUp = setTimeout(resolve, 10000)))]);
	clearTimeout(giveUp);
	for (const stop of stoppers.reverse()) await stop().catch(say);
	process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		process.stdout.write(`\n${signal}: stopping n8n and the sandbox...\n`);
		void stopAll(0);
	});
}

/** Marks a folder as npm start's own: it may import, overwrite and delete there. */
const DEMO_MARKER = '.campaign-demo';

/**
 * Refuses a folder given in N8N_DEMO_USER_FOLDER that holds something and is not a demo folder
 * (a real n8n's ~/.n8n, say): npm start imports and overwrites workflows and credentials there,
 * and --fresh deletes it. The repository's own default folder is always the demo's.
 */
function checkDemoFolder(userFolder, isDefault) {
	if (isDefault || !fs.existsSync(userFolder)) return;
	if (!fs.statSync(userFolder).isDirectory())
		throw new Error(`N8N_DEMO_USER_FOLDER ${userFolder} is not a folder`);
	const entries = fs.readdirSync(userFolder);
	if (entries.length > 0 && !entries.includes(DEMO_MARKER)) {
		throw new Error(
			`N8N_DEMO_USER_FOLDER ${userFolder} holds files and is not a demo folder of npm start (no ${DEMO_MARKER} in it); give an empty or new folder`,
		);
	}
}

/** Refuses to run twice on one user folder (two n8n processes on one SQLite database). */
function claimUserFolder(userFolder) {
	const pidFile = path.join(userFolder, 'npm-start.pid');
	try {
		const pid = Number(fs.readFileSync(pidFile, 'utf8'));
		if (pid && pid !== process.pid) {
			process.kill(pid, 0);
			throw new Error(
				`npm start is already running (pid ${pid}) with ${userFolder}; stop it first`,
			);
		}
	} catch (error) {
		if (error.code !== 'ENOENT' && error.code !== 'ESRCH') throw error;
	}
	fs.writeFileSync(pidFile, String(process.pid));
	stoppers.unshift(async () => fs.rmSync(pidFile, { force: true }));
}

/** Publishes the event example so that its webhook answers while the demo runs. */
async function publishEventExample(url, cookie) {
	const id = 'cmExampleEventMsg';
	const current = await httpRequest('GET', `${url}/rest/workflows/${id}`, { headers: { cookie } });
	if (current.status !== 200) return undefined;
	const { versionId } = JSON.parse(current.body).data;
	const res = await httpRequest('POST', `${url}/rest/workflows/${id}/activate`, {
		headers: { cookie },
		body: { versionId },
	});
	return res.status === 200 ? `${url}/webhook/campaign-event` : undefined;
}

async function main() {
	const fresh = options.fresh === true;
	const defaultFolder = path.join(ROOT, '.n8n-runtime', 'demo');
	const userFolder = path.resolve(process.env.N8N_DEMO_USER_FOLDER || defaultFolder);
	checkDemoFolder(userFolder, userFolder === defaultFolder);

	// First use: installs n8n and Node 24 into the cache folder (several minutes, once).
	const paths = await ensureRuntime();

	ownerOnlyFolder(userFolder);
	// Claimed first: --fresh must not empty a folder another npm start is running on.
	claimUserFolder(userFolder);
	if (fresh) {
		log(`--fresh: emptying ${userFolder}`);
		for (const entry of fs.readdirSync(userFolder)) {
			if (entry !== 'npm-start.pid')
				fs.rmSync(path.join(userFolder, entry), { recursive: true, force: true });
		}
	}
	fs.writeFileSync(
		path.join(userFolder, DEMO_MARKER),
		'A demo user folder of `npm start` (n8n-nodes-campaign-messaging).\n',
	);
	const secrets = folderSecrets(userFolder);

	const sandboxUrl = `http://127.0.0.1:${await freePort(sandboxPort)}`;
	const examples = options['no-examples'] ? [] : exampleFiles();

	// Two lanes at once: (a) build, package, sandbox; (b) n8n's imports (each boots n8n's CLI).
	const [laneA, laneB] = await Promise.allSettled([
		(async () => {
			if (!options['no-build']) await ensureBuilt();
			const missing = missingDistFiles();
			if (missing.length > 0) log(`warning: not built, so missing from n8n: ${missing.join(', ')}`);
			const t = Date.now();
			const tarball = await packPackage(path.join(userFolder, 'pack'));
			await installPackage(userFolder, tarball);
			log(`package installed as a community package (${formatDuration(Date.now() - t)})`);
			const sandboxDir = await buildSandbox();
			const sandbox = await startSandbox(sandboxDir, Number(new URL(sandboxUrl).port));
			sandbox.process.on('exit', (code, signal) => {
				if (!stopping) {
					process.stderr.write(
						`the sandbox stopped unexpectedly (${signal ?? code}); stopping n8n\n`,
					);
					void stopAll(1);
				}
			});
			log(`sandbox listening on ${sandbox.url}`);
			return sandbox;
		})(),
		(async () => {
			let t = Date.now();
			await importCredentials(paths, userFolder, [
				{
					...CREDENTIAL,
					data: { baseUrl: sandboxUrl, apiKey: SANDBOX_DEMO_KEY, memberApiVersion: 'any' },
				},
				webhookCredential(secrets.webhookSecret),
			]);
			log(
				`credential "${CREDENTIAL.name}" points at ${sandboxUrl} (${formatDuration(Date.now() - t)})`,
			);
			if (examples.length > 0) {
				t = Date.now();
				await importWorkflows(paths, userFolder, examples);
				log(`imported ${examples.length} example workflows (${formatDuration(Date.now() - t)})`);
			}
		})(),
	]);
	if (laneA.status === 'rejected') throw laneA.reason;
	if (laneB.status === 'rejected') throw laneB.reason;
	const sandbox = laneA.value;
	if (sandbox.apiKey !== SANDBOX_DEMO_KEY || sandbox.url !== sandboxUrl) {
		await importCredentials(paths, userFolder, [
			{
				...CREDENTIAL,
				data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, memberApiVersion: 'any' },
			},
		]);
	}

	const t = Date.now();
	log('starting n8n');
	const port = await freePort(editorPort);
	const n8n = await startN8n(paths, userFolder, { port });
	n8n.process.on('exit', (code, signal) => {
		if (!stopping) {
			process.stderr.write(`n8n stopped unexpectedly (${signal ?? code}); see ${n8n.logFile}\n`);
			void stopAll(1);
		}
	});
	const owner = await setupOwner(n8n.url, n8n.ownerPassword);
	const webhook =
		examples.length > 0
			? await publishEventExample(n8n.url, owner.cookie).catch(() => undefined)
			: undefined;
	log(`n8n ready (${formatDuration(Date.now() - t)})`);

	const lines = [
		'',
		`  n8n editor      ${n8n.url}/`,
		`  login           ${owner.email} / ${owner.password}  (made for this folder; ${path.relative(ROOT, secrets.file)})`,
		`  sandbox         ${sandbox.url}  (API key ${sandbox.apiKey}; credential "${CREDENTIAL.name}")`,
		...sandbox.banner
			.filter((line) => !/listening on|API key/.test(line))
			.map((line) => `                  ${line}`),
		`  examples        ${examples.length > 0 ? examples.map((f) => path.basename(f)).join(', ') : '(not imported)'}`,
		...(webhook
			? webhookBannerLines(webhook, secrets.webhookSecret, '(the event example is published)')
			: []),
		`  user folder     ${userFolder}  (n8n log: ${path.relative(ROOT, n8n.logFile)})`,
		'',
		`  ready in ${formatDuration(Date.now() - started)}. Press Ctrl+C to stop n8n and the sandbox.`,
		'',
	];
	process.stdout.write(`${lines.join('\n')}\n`);
}

finished = main().catch((error) => {
	// Stopping ends the setup commands, and main() with them: that is no failure to report.
	if (stopping) return;
	reportFailure('npm start', error);
	void stopAll(1);
});
