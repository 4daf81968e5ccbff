/**
 * The shared set-up of the end-to-end suites (every test/e2e file): the packed
 * package inside a real n8n (the version scripts/runtime/paths.js pins, on Node 24), in a fresh
 * n8n user folder, against the API sandbox started here on 127.0.0.1. `setupN8n(suite)` builds and
 * packs the package, installs it as a community package (unpacked `npm pack` tarball under
 * <user>/.n8n/nodes/node_modules), imports the sandbox credential, the example workflows
 * (examples/*.json) and one scratch workflow per node, once per file; artifacts go to
 * test-artifacts/e2e/<suite>.
 *
 * Run with `npm run test:e2e`. The first run prepares the n8n runtime (several minutes).
 */
import * as rt from '../../../scripts/runtime';
import { seedDemoData } from '../../../sandbox/demo';
import { startSandbox } from '../../../sandbox/server';
import type { Sandbox } from '../../../sandbox/server';
import { AGENT_EXAMPLE } from '../../support/agent-example';
import { env, fs, http, path, ROOT, timer } from '../../support/node';

/** This file's artifacts: test-artifacts/e2e/<suite> (set by setupN8n). */
export let ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e');
export let SCREENSHOTS = path.join(ARTIFACTS, 'screenshots');
export const TYPE_PREFIX = `${rt.PACKAGE_NAME}.`;

/** The nodes of the package (as saved workflows name them) and their display names. */
export const NODES: Array<{ name: string; displayName: string }> = [
	{ name: 'campaignCustomData', displayName: 'Campaign Custom Data' },
	{ name: 'campaignLegacyData', displayName: 'Campaign Legacy Data' },
	{ name: 'campaignMembers', displayName: 'Campaign Members' },
	{ name: 'campaignAlimtalk', displayName: 'Campaign Alimtalk' },
];

export const EXAMPLES = {
	crmSync: { file: 'crm-sync.json', id: 'cmExampleCrmSync' },
	consent: { file: 'member-consent-sync.json', id: 'cmExampleConsent' },
	event: { file: 'event-to-message.json', id: 'cmExampleEventMsg' },
	fullRead: { file: 'full-read.json', id: 'cmExampleFullRead' },
	agent: AGENT_EXAMPLE,
};

// Run data and REST answers are untyped JSON; the assertions are the type checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export let paths: rt.RuntimePaths;
export let sb: Sandbox;
export let userFolder: string;
export let installedFolder: string;
const timings: Record<string, string> = {};

export function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
	const started = Date.now();
	return fn().finally(() => {
		timings[label] = rt.formatDuration(Date.now() - started);
	});
}

/** One scratch workflow per node for the browser check (n8n 2.x autosaves what the browser adds). */
export function scratchWorkflow(node: { name: string; displayName: string }): Json {
	return {
		id: `e2eBrowser${node.name.slice('campaign'.length)}`,
		name: `e2e browser check: ${node.displayName}`,
		active: false,
		nodes: [
			{
				parameters: {},
				id: `e2e00000-0000-4000-8000-${String(NODES.indexOf(node)).padStart(12, '0')}`,
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

export function resetSandbox(options: Parameters<Sandbox['configure']>[0] = {}): void {
	sb.configure({ pageSize: 1000, ...options });
	sb.reset();
	seedDemoData(sb);
}

/** Writes each workflow to `<artifacts>[/<folder>]/<id>.json` and imports them all into the user folder. */
export async function importWorkflows(workflows: Json[], folder = ''): Promise<void> {
	const dir = path.join(ARTIFACTS, folder);
	fs.mkdirSync(dir, { recursive: true });
	const files = workflows.map((workflow) => {
		const file = path.join(dir, `${workflow.id}.json`);
		fs.writeFileSync(file, JSON.stringify(workflow, null, 2));
		return file;
	});
	await time(`import ${workflows.map((w) => w.id).join(', ')}`, () =>
		rt.importWorkflows(paths, userFolder, files),
	);
}

/** Imports credentials (their `data` a plain object) into the user folder. */
export async function importCredentials(
	credentials: Parameters<typeof rt.importCredentials>[2],
): Promise<void> {
	await rt.importCredentials(paths, userFolder, credentials);
}

/** `n8n start` in the user folder, its log in `<artifacts>/n8n-start.log`. */
export function startN8n(options: Json = {}): Promise<rt.StartedN8n> {
	return time('n8n start', () =>
		rt.startN8n(paths, userFolder, { logFile: path.join(ARTIFACTS, 'n8n-start.log'), ...options }),
	);
}

/** `n8n execute --id <id>`, its output kept in `<artifacts>/<label>.execute.log`. */
export async function execute(id: string, label = id, options: { timeoutMs?: number } = {}) {
	const result = await time(`n8n execute ${label}`, () =>
		rt.executeWorkflow(paths, userFolder, id, options),
	);
	fs.writeFileSync(
		path.join(ARTIFACTS, `${label}.execute.log`),
		`${result.stdout}\n--- stderr ---\n${result.stderr}`,
	);
	return result;
}

/** Runs a workflow with the n8n CLI (it must end without an error); returns a reader of its run data. */
export async function runExample(id: string, label = id) {
	const result = await execute(id, label);
	if (result.code !== 0 || !result.data) {
		throw new Error(
			`n8n execute --id ${id} failed (exit ${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`,
		);
	}
	const run = result.data as Json;
	const runData = run.data.resultData.runData as Json;
	expect(run.data.resultData.error).toBeUndefined();
	return {
		nodes: Object.keys(runData),
		/** The items' json of one output of a node (undefined when the node did not run). */
		out(node: string, output = 0): Json[] {
			const task = runData[node]?.[0];
			if (!task)
				throw new Error(`node "${node}" did not run; ran: ${Object.keys(runData).join(', ')}`);
			if (task.error)
				throw new Error(`node "${node}" failed: ${JSON.stringify(task.error).slice(0, 1000)}`);
			return ((task.data?.main?.[output] ?? []) as Json[]).map((item) => item.json as Json);
		},
		/** The pairedItem links of one output. */
		paired(node: string, output = 0): unknown[] {
			return ((runData[node]?.[0]?.data?.main?.[output] ?? []) as Json[]).map(
				(item) => item.pairedItem,
			);
		},
	};
}

/** Runs a workflow with `n8n execute`; returns its Send node's Success and Failed items, kept as an artifact. */
export async function sendItems(
	id: string,
	label: string,
): Promise<{ success: Json[]; failed: Json[] }> {
	const run = await runExample(id, label);
	const items = { success: run.out('Send', 0), failed: run.out('Send', 1) };
	fs.writeFileSync(
		path.join(ARTIFACTS, `${label}.items.json`),
		`${JSON.stringify(items, null, 2)}\n`,
	);
	return items;
}

/**
 * The sandbox of one file: on the run's sandbox port (E2E_SANDBOX_PORT, chosen by
 * test/e2e/support/global-setup.js) so that the run's user folder template, whose credential points
 * there, fits every file; on any free port when that one is taken.
 */
async function fileSandbox(): Promise<Sandbox> {
	const wanted = Number(env.E2E_SANDBOX_PORT ?? 0);
	// Taken (a sandbox of an earlier file left open): any free port, and a template of its own.
	const port = wanted > 0 && (await rt.freePort(wanted)) === wanted ? wanted : 0;
	return startSandbox({ accounts: { 'e2e-expired-key': 'expired' }, port });
}

/**
 * An n8n user folder ready to copy: the packed package installed, the database migrated, the
 * sandbox credential (pointing at `baseUrl`) and the webhook credential imported, and with `demo`
 * the examples and the scratch workflows. Made once per run and kind in E2E_TEMPLATE_DIR (removed
 * by test/e2e/support/global-teardown.js), or in the file's artifacts when a run has none.
 */
async function userFolderTemplate(demo: boolean, baseUrl: string): Promise<string> {
	const root = env.E2E_TEMPLATE_DIR ?? path.join(ARTIFACTS, 'template');
	const dir = path.join(root, `${demo ? 'demo' : 'plain'}-${new URL(baseUrl).port}`);
	const ready = path.join(dir, '.ready');
	if (fs.existsSync(ready)) return dir;
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	const tarball = await rt.packPackage(path.join(dir, '.pack'));
	await rt.installPackage(dir, tarball);
	await time('import credential', () =>
		rt.importCredentials(paths, dir, [
			{
				...rt.SANDBOX_CREDENTIAL,
				data: { baseUrl, apiKey: sb.apiKey, memberApiVersion: 'any' },
			},
			// The event example's webhook Header Auth, with the folder's own secret.
			rt.webhookCredential(rt.folderSecrets(dir).webhookSecret),
		]),
	);
	if (demo) {
		const scratchDir = path.join(dir, '.scratch-workflows');
		fs.mkdirSync(scratchDir, { recursive: true });
		const scratch = NODES.map((node) => {
			const file = path.join(scratchDir, `${node.name}.json`);
			fs.writeFileSync(file, JSON.stringify(scratchWorkflow(node), null, 2));
			return file;
		});
		const examples = Object.values(EXAMPLES).map((e) => path.join(ROOT, 'examples', e.file));
		await time('import workflows', () => rt.importWorkflows(paths, dir, [...examples, ...scratch]));
	}
	fs.writeFileSync(ready, '');
	return dir;
}

/**
 * Registers the file's beforeAll (runtime, sandbox, user folder, package, credentials; with `demo`,
 * the default, the sandbox's demo data, the examples and the scratch workflows) and afterAll
 * (timings). The user folder is a copy of the run's template (userFolderTemplate): the package,
 * the migrated database and the imports are made once per run, not once per file.
 */
export function setupN8n(suite: string, { demo = true } = {}): void {
	beforeAll(
		async () => {
			ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e', suite);
			SCREENSHOTS = path.join(ARTIFACTS, 'screenshots');
			fs.rmSync(ARTIFACTS, { recursive: true, force: true });
			fs.mkdirSync(SCREENSHOTS, { recursive: true });

			// Built once per run: dist/ is rebuilt only when a source changed after it (ensureBuilt).
			await time('build', () => rt.ensureBuilt());
			paths = await time('runtime (prepared on first use)', () => rt.ensureRuntime());

			sb = await fileSandbox();
			if (demo) seedDemoData(sb);

			// The first file makes both kinds at once (each is mostly one core: n8n's CLI boots and
			// migrates); the later files find them ready.
			const [template] = await Promise.all([
				userFolderTemplate(demo, sb.baseUrl),
				userFolderTemplate(!demo, sb.baseUrl),
			]);
			userFolder = rt.createUserFolder(ARTIFACTS, 'n8n-user-');
			fs.cpSync(template, userFolder, {
				recursive: true,
				filter: (source) =>
					!['.ready', '.pack', '.scratch-workflows'].includes(path.basename(source)),
			});
			installedFolder = rt.installedPackageFolder(userFolder);
		},
		60 * 60 * 1000,
	);

	afterAll(async () => {
		await sb?.close();
		fs.mkdirSync(ARTIFACTS, { recursive: true });
		fs.writeFileSync(path.join(ARTIFACTS, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
		rt.log(`e2e timings: ${JSON.stringify(timings)}`);
	});
}

/**
 * A start line for n8n processes: holds every GET until `runs.length` have arrived, then answers
 * the n-th arrival `{ events: runs[n] }`, each event marked `run: 'a' | 'b' | ...`, so that the
 * processes start sending at the same moment whatever their boot took. After 2 minutes it answers
 * those that came (the overlap assertions then fail).
 */
export async function startBarrier(
	runs: Json[][],
): Promise<{ url: string; arrivals: number[]; close: () => Promise<void> }> {
	const waiting: Array<() => void> = [];
	const arrivals: number[] = [];
	let arrived = 0;
	let open = false;
	const release = () => {
		open = true;
		waiting.splice(0).forEach((answer) => answer());
	};
	const fallback = timer(120000, release);
	const server = http.createServer((_req, res) => {
		const n = arrived++;
		arrivals.push(Date.now());
		const run = String.fromCharCode(97 + n);
		const events = (runs[n] ?? []).map((e) => ({ ...e, run }));
		waiting.push(() =>
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ events })),
		);
		if (open || arrived >= runs.length) release();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}/events`,
		arrivals,
		close: () => {
			fallback.cancel();
			return new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
