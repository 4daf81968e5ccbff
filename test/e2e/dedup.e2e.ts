/**
 * End-to-end: the send's Deduplication Key against n8n's REAL deduplication store. `n8n execute`
 * (the n8n version scripts/runtime/paths.js pins) sets that store up on its SQLite database, so
 * running one workflow several times from the command line checks what a key remembers across
 * executions, and two `n8n execute` processes at once check the lock across processes.
 *
 * Run with `npm run test:e2e`; the set-up is in support/, artifacts go to test-artifacts/e2e/dedup.
 */
import * as rt from '../../scripts/runtime';
import { fs, path } from '../support/node';
import {
	ARTIFACTS,
	importWorkflows,
	sendItems,
	startBarrier,
	sb,
	setupN8n,
	userFolder,
	type Json,
} from './support';

setupN8n('dedup', { demo: false }); // no demo data: the campaigns are the ones added here

const WORKFLOW_ID = 'cmDedupCliCheck';
const PARALLEL_ID = 'cmDedupParallel';
const UNCONFIRMED_ID = 'cmDedupUnconfirmed';
const TRIGGER_PATH = '/messages/alimtalk/trigger';

const phone = (n: number) => `8210${String(20000000 + n).slice(-8)}`;
const event = (n: number, campaign = 'WELCOME', orderId = `order-${n}`) => ({
	orderId,
	campaign,
	phone: phone(n),
	name: `Kim ${n}`,
});

/**
 * Manual Trigger -> the events -> one item each -> Campaign Alimtalk with a key. The events are
 * either given (a Set node, raw JSON) or fetched from a barrier's URL (an HTTP Request node, see
 * startBarrier); fetched events carry `run`, which is sent along as a template variable.
 */
function workflow(id: string, source: Json[] | string, options: Json): Json {
	const node = (
		n: number,
		name: string,
		type: string,
		typeVersion: number,
		parameters: Json,
		extra: Json = {},
	) => ({
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
			typeof source === 'string'
				? node(1, 'Events', 'n8n-nodes-base.httpRequest', 4.2, { url: source, options: {} })
				: node(1, 'Events', 'n8n-nodes-base.set', 3.4, {
						mode: 'raw',
						jsonOutput: JSON.stringify({ events: source }),
						options: {},
					}),
			node(2, 'One item per event', 'n8n-nodes-base.splitOut', 1, {
				fieldToSplitOut: 'events',
				options: {},
			}),
			node(
				3,
				'Send',
				`${rt.PACKAGE_NAME}.campaignAlimtalk`,
				1,
				{
					operation: 'send',
					campaignKey: '={{ $json.campaign }}',
					phoneNumber: '={{ $json.phone }}',
					properties: {
						property: [
							{ key: 'name', value: '={{ $json.name }}' },
							...(typeof source === 'string' ? [{ key: 'run', value: '={{ $json.run }}' }] : []),
						],
					},
					options: { deduplicationKey: '={{ $json.orderId }}', retryDelayMs: 0, ...options },
				},
				{
					credentials: {
						campaignApi: { id: rt.SANDBOX_CREDENTIAL.id, name: rt.SANDBOX_CREDENTIAL.name },
					},
				},
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

const sendsPerPhone = () => {
	const counts: Record<string, number> = {};
	for (const m of sb.state.sent) counts[m.phoneNumber] = (counts[m.phoneNumber] ?? 0) + 1;
	return counts;
};

beforeAll(() => {
	sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
	sb.addCampaign('LATER', { requiredVariables: ['name'], templateState: 'blocked' });
});

afterAll(() => {
	if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
});

describe("Deduplication Key on n8n's real store (n8n execute, SQLite)", () => {
	test('across executions: duplicates skipped, a rejected send sent once fixed, delivery unknown never resent', async () => {
		const events = [
			event(0),
			event(1),
			event(2, 'LATER'),
			event(3, 'WELCOME', 'order-1'),
			event(4),
		];
		await importWorkflows([workflow(WORKFLOW_ID, events, { concurrency: 1 })]);

		// Run 1: the first request gets a server error after the message went out (delivery unknown).
		sb.configure({ faults: { kinds: ['code7999'], firstN: 1, phase: 'after' } });
		const first = await sendItems(WORKFLOW_ID, 'run-1');
		expect(
			first.failed.map((j) => [
				j.phoneNumber,
				j.code,
				j.deliveryUnknown ?? false,
				j.deduplicationKeyKept,
			]),
		).toEqual([
			[phone(0), '7999', true, true],
			[phone(2), '7007', false, false],
		]);
		expect(first.success.map((j) => [j.phoneNumber, j.status])).toEqual([
			[phone(1), 'sent'],
			[phone(3), 'skipped'],
			[phone(4), 'sent'],
		]);
		expect(first.success[1]).toMatchObject({
			duplicate: true,
			duplicateOfItem: 1,
			deduplicationKey: 'order-1',
		});

		// Run 2: the fault is gone and the blocked campaign is fixed: only the rejected one goes out;
		// the one whose answer was lost is not resent, and not reported as sent either.
		sb.configure({ faults: undefined });
		sb.addCampaign('LATER', { requiredVariables: ['name'] });
		const unconfirmed = [[phone(0), 'earlierSendUnconfirmed', true, true]];
		const failedOf = (run: { failed: Json[] }) =>
			run.failed.map((j) => [j.phoneNumber, j.code, j.deliveryUnknown, j.deduplicationKeyKept]);
		const second = await sendItems(WORKFLOW_ID, 'run-2');
		expect(failedOf(second)).toEqual(unconfirmed);
		expect(second.success.map((j) => [j.phoneNumber, j.status])).toEqual([
			[phone(1), 'skipped'],
			[phone(2), 'sent'],
			[phone(3), 'skipped'],
			[phone(4), 'skipped'],
		]);

		// Run 3: nothing left to send.
		const third = await sendItems(WORKFLOW_ID, 'run-3');
		expect(failedOf(third)).toEqual(unconfirmed);
		expect(third.success.map((j) => j.status)).toEqual([
			'skipped',
			'skipped',
			'skipped',
			'skipped',
		]);
		expect(sendsPerPhone()).toEqual({ [phone(0)]: 1, [phone(1)]: 1, [phone(2)]: 1, [phone(4)]: 1 });
	});

	test('a send dropped unanswered is never reported as sent: the next execution says its delivery is unknown', async () => {
		sb.reset();
		sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		const orders = [event(200, 'WELCOME', 'u0'), event(201, 'WELCOME', 'u1')];
		await importWorkflows([workflow(UNCONFIRMED_ID, orders, { concurrency: 1 })]);

		// Execution 1: u0's request is dropped without an answer before the sandbox processes it.
		sb.configure({
			latencyMs: 0,
			faults: {
				kinds: ['drop'],
				firstN: 1,
				phase: 'before',
				match: (r) => r.path === TRIGGER_PATH,
			},
		});
		const first = await sendItems(UNCONFIRMED_ID, 'unconfirmed-1');
		expect(first).toEqual({
			failed: [
				expect.objectContaining({
					phoneNumber: phone(200),
					deliveryUnknown: true,
					deduplicationKey: 'u0',
					deduplicationKeyKept: true,
				}),
			],
			success: [expect.objectContaining({ phoneNumber: phone(201), status: 'sent' })],
		});
		expect(
			sb.requests.filter((r) => r.path === TRIGGER_PATH).map((r) => [r.faulted ?? null, r.status]),
		).toEqual([
			['drop', 0],
			[null, 200],
		]);

		// Execution 2, the fault gone: u0 stays unsent and is reported as unknown, u1 is a duplicate.
		sb.configure({ faults: undefined });
		const second = await sendItems(UNCONFIRMED_ID, 'unconfirmed-2');
		expect(second).toEqual({
			failed: [
				expect.objectContaining({
					phoneNumber: phone(200),
					code: 'earlierSendUnconfirmed',
					deliveryUnknown: true,
					deduplicationKey: 'u0',
					deduplicationKeyKept: true,
					message: expect.stringContaining('may or may not have been delivered'),
					hint: expect.any(String),
				}),
			],
			success: [
				expect.objectContaining({
					phoneNumber: phone(201),
					status: 'skipped',
					duplicate: true,
					deduplicationKey: 'u1',
				}),
			],
		});
		expect(sendsPerPhone()).toEqual({ [phone(201)]: 1 });
	});

	test('two n8n processes at once with overlapping keys send each key once', async () => {
		sb.reset();
		sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		sb.configure({ latencyMs: 400, faults: undefined });
		// Both processes get every key, in opposite orders, and start together: both send, and meet.
		const events = Array.from({ length: 40 }, (_, n) => event(100 + n));
		const barrier = await startBarrier([events, [...events].reverse()]);
		try {
			await importWorkflows([workflow(PARALLEL_ID, barrier.url, { concurrency: 5 })]);
			const runs = await Promise.all([
				sendItems(PARALLEL_ID, 'parallel-a'),
				sendItems(PARALLEL_ID, 'parallel-b'),
			]);
			const counts = sendsPerPhone();
			expect(Object.keys(counts)).toHaveLength(40);
			expect(Object.values(counts).filter((c) => c > 1)).toEqual([]);
			const sent = runs.flatMap((r) => r.success.filter((j) => j.status === 'sent'));
			const skipped = runs.flatMap((r) => r.success.filter((j) => j.duplicate === true));
			expect([sent.length, skipped.length, runs.flatMap((r) => r.failed).length]).toEqual([
				40, 40, 0,
			]);
		} finally {
			await barrier.close();
			const sends = sb.state.sent.map((m) => `${m.at} ${m.properties.run} ${m.phoneNumber}`);
			fs.writeFileSync(
				path.join(ARTIFACTS, 'parallel-sends.json'),
				JSON.stringify({ arrivals: barrier.arrivals, sends }, null, 1),
			);
		}
		// The two processes' sends interleave in time: each one sent while the other was sending.
		const at = (run: string) =>
			sb.state.sent.filter((m) => m.properties.run === run).map((m) => m.at);
		const [a, b] = [at('a'), at('b')];
		expect([a.length > 0, b.length > 0, a.length + b.length]).toEqual([true, true, 40]);
		const inside = (x: number[], span: number[]) =>
			x.some((t) => t > Math.min(...span) && t < Math.max(...span));
		expect([inside(b, a), inside(a, b)]).toEqual([true, true]);
	});
});
