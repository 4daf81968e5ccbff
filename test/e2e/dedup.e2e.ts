/**
 * End-to-end: the send's Deduplication Key against n8n's REAL deduplication store. `n8n execute`
 * (the n8n version scripts/runtime/paths.js pins) sets that store up on its SQLite database, so
 * running one workflow several times from the command line checks what a key remembers across
 * executions, and two `n8n execute` processes at once check the lock across processes.
 *
 * Run with `npm run test:e2e` (the first run prepares the n8n runtime).
 */
import * as rt from '../../scripts/runtime';
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { fs, path, ROOT } from '../support/node';

const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e-dedup');
const WORKFLOW_ID = 'cmDedupCliCheck';
const PARALLEL_ID = 'cmDedupParallel';

// Run data is untyped JSON; the assertions are the type checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

let paths: rt.RuntimePaths;
let sb: Sandbox;
let userFolder: string;

const phone = (n: number) => `8210${String(20000000 + n).slice(-8)}`;
const event = (n: number, campaign = 'WELCOME', orderId = `order-${n}`) => ({ orderId, campaign, phone: phone(n), name: `Kim ${n}` });

/** Manual Trigger -> the events (Set, raw JSON) -> one item each -> Campaign Alimtalk with a key. */
function workflow(id: string, events: Json[], options: Json): Json {
	const node = (n: number, name: string, type: string, typeVersion: number, parameters: Json, extra: Json = {}) => ({
		id: `dd000000-0000-4000-8000-${id.length}${String(n).padStart(11, '0')}`,
		name,
		type,
		typeVersion,
		position: [n * 220, 0],
		parameters,
		...extra,
	});
	return {
		id,
		name: `Deduplication check ${id}`,
		active: false,
		nodes: [
			node(0, 'Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			node(1, 'Events', 'n8n-nodes-base.set', 3.4, { mode: 'raw', jsonOutput: JSON.stringify({ events }), options: {} }),
			node(2, 'One item per event', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'events', options: {} }),
			node(
				3,
				'Send',
				`${rt.PACKAGE_NAME}.campaignAlimtalk`,
				1,
				{
					operation: 'send',
					campaignKey: '={{ $json.campaign }}',
					phoneNumber: '={{ $json.phone }}',
					properties: { property: [{ key: 'name', value: '={{ $json.name }}' }] },
					options: { deduplicationKey: '={{ $json.orderId }}', retryDelayMs: 0, ...options },
				},
				{ credentials: { campaignApi: { id: rt.SANDBOX_CREDENTIAL.id, name: rt.SANDBOX_CREDENTIAL.name } } },
			),
		],
		connections: {
			Start: { main: [[{ node: 'Events', type: 'main', index: 0 }]] },
			Events: { main: [[{ node: 'One item per event', type: 'main', index: 0 }]] },
			'One item per event': { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

async function importWorkflow(wf: Json): Promise<void> {
	const file = path.join(ARTIFACTS, `${wf.id}.json`);
	fs.writeFileSync(file, JSON.stringify(wf, null, 2));
	await rt.importWorkflows(paths, userFolder, [file]);
}

/** Runs the workflow with `n8n execute`; returns the Send node's Success and Failed items. */
async function execute(id: string, label: string): Promise<{ success: Json[]; failed: Json[] }> {
	const result = await rt.executeWorkflow(paths, userFolder, id);
	fs.writeFileSync(path.join(ARTIFACTS, `${label}.execute.log`), `${result.stdout}\n--- stderr ---\n${result.stderr}`);
	if (result.code !== 0 || !result.data) {
		throw new Error(`n8n execute --id ${id} failed (exit ${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`);
	}
	const task = (result.data as Json).data.resultData.runData.Send?.[0];
	if (!task || task.error) throw new Error(`Send did not run: ${JSON.stringify(task?.error ?? null).slice(0, 1000)}`);
	const items = (output: number) => ((task.data?.main?.[output] ?? []) as Json[]).map((item) => item.json as Json);
	return { success: items(0), failed: items(1) };
}

const sendsPerPhone = () => {
	const counts: Record<string, number> = {};
	for (const m of sb.state.sent) counts[m.phoneNumber] = (counts[m.phoneNumber] ?? 0) + 1;
	return counts;
};

beforeAll(async () => {
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	await rt.buildPackage();
	paths = await rt.ensureRuntime();
	sb = await startSandbox({});
	sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
	sb.addCampaign('LATER', { requiredVariables: ['name'], templateState: 'blocked' });
	userFolder = rt.createUserFolder(ARTIFACTS, 'n8n-user-');
	await rt.installPackage(userFolder, await rt.packPackage(path.join(ARTIFACTS, 'pack')));
	await rt.importCredentials(paths, userFolder, [
		{ ...rt.SANDBOX_CREDENTIAL, data: { baseUrl: sb.baseUrl, apiKey: sb.apiKey, memberApiVersion: 'any' } },
	]);
}, 60 * 60 * 1000);

afterAll(async () => {
	await sb?.close();
	if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
});

describe('Deduplication Key on n8n\'s real store (n8n execute, SQLite)', () => {
	test('across executions: duplicates skipped, a rejected send sent once fixed, delivery unknown never resent', async () => {
		const events = [event(0), event(1), event(2, 'LATER'), event(3, 'WELCOME', 'order-1'), event(4)];
		await importWorkflow(workflow(WORKFLOW_ID, events, { concurrency: 1 }));

		// Run 1: the first request gets a server error after the message went out (delivery unknown).
		sb.configure({ faults: { kinds: ['code7999'], firstN: 1, phase: 'after' } });
		const first = await execute(WORKFLOW_ID, 'run-1');
		expect(first.failed.map((j) => [j.phoneNumber, j.code, j.deliveryUnknown ?? false, j.deduplicationKeyKept])).toEqual([
			[phone(0), '7999', true, true],
			[phone(2), '7007', false, false],
		]);
		expect(first.success.map((j) => [j.phoneNumber, j.status])).toEqual([
			[phone(1), 'sent'],
			[phone(3), 'skipped'],
			[phone(4), 'sent'],
		]);
		expect(first.success[1]).toMatchObject({ duplicate: true, duplicateOfItem: 1, deduplicationKey: 'order-1' });

		// Run 2: the fault is gone and the blocked campaign is fixed: only the rejected one goes out.
		sb.configure({ faults: undefined });
		sb.addCampaign('LATER', { requiredVariables: ['name'] });
		const second = await execute(WORKFLOW_ID, 'run-2');
		expect(second.failed).toEqual([]);
		expect(second.success.map((j) => j.status)).toEqual(['skipped', 'skipped', 'sent', 'skipped', 'skipped']);

		// Run 3: nothing left to send.
		const third = await execute(WORKFLOW_ID, 'run-3');
		expect(third.success.map((j) => j.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
		expect(sendsPerPhone()).toEqual({ [phone(0)]: 1, [phone(1)]: 1, [phone(2)]: 1, [phone(4)]: 1 });
	});

	test('two n8n processes at once with overlapping keys send each key once', async () => {
		sb.reset();
		sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		sb.configure({ latencyMs: 20 });
		const events = Array.from({ length: 30 }, (_, n) => event(100 + n));
		await importWorkflow(workflow(PARALLEL_ID, events, { concurrency: 5 }));
		const runs = await Promise.all([execute(PARALLEL_ID, 'parallel-a'), execute(PARALLEL_ID, 'parallel-b')]);
		const counts = sendsPerPhone();
		expect(Object.keys(counts)).toHaveLength(30);
		expect(Object.values(counts).filter((c) => c > 1)).toEqual([]);
		const sent = runs.flatMap((r) => r.success.filter((j) => j.status === 'sent'));
		const skipped = runs.flatMap((r) => r.success.filter((j) => j.duplicate === true));
		expect([sent.length, skipped.length, runs.flatMap((r) => r.failed).length]).toEqual([30, 30, 0]);
	});
});
