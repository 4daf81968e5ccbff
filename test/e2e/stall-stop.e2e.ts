/**
 * End-to-end on the real n8n (scripts/runtime/paths.js pins it): no request outlives its Timeout,
 * and a stopped execution stops its send. `n8n execute` runs a send and a member read against a
 * service that sends the headers and then stalls or drips its body (sandbox faults stallBody and
 * dripBody); `n8n start` runs a keyed send from a webhook, the execution is stopped through n8n's
 * REST API while the send waits for the service, and the same event is delivered again.
 */
import * as rt from '../../scripts/runtime';
import type { FaultKind } from '../../sandbox/types';
import { delay, fs, path } from '../support/node';
import {
	ARTIFACTS,
	execute,
	importWorkflows,
	paths,
	publishWorkflow,
	resetSandbox,
	sb,
	setupN8n,
	startN8n,
	type Json,
} from './support';

setupN8n('stall-stop');

const STALL_ID = 'cmStallCheck';
const STOP_ID = 'cmStopCheck';
const HOOK_PATH = 'campaign-stop-check';
const CREDENTIALS = {
	campaignApi: { id: rt.SANDBOX_CREDENTIAL.id, name: rt.SANDBOX_CREDENTIAL.name },
};
const FAST_FAIL = { timeoutMs: 2000, maxRetries: 0, retryDelayMs: 0 };
/**
 * The sends below may retry (Max Retries 2): a send whose delivery is unknown after a stall or a
 * stop must still not be sent again, so a regression that retried it fails the test.
 */
const MAY_RETRY = { ...FAST_FAIL, maxRetries: 2 };
const MINUTE = 60 * 1000;

const node = (n: number, name: string, type: string, typeVersion: number, parameters: Json) => ({
	id: `5c000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
	name,
	type,
	typeVersion,
	position: [n * 220, 0],
	parameters,
});

const send = (n: number, options: Json, source: string) => ({
	...node(n, 'Send', `${rt.PACKAGE_NAME}.campaignAlimtalk`, 1, {
		operation: 'send',
		campaignKey: 'DEMO-WELCOME',
		phoneNumber: `={{ ${source}.phone }}`,
		properties: {
			property: [
				{ key: 'name', value: 'Kim' },
				{ key: 'coupon', value: 'STOP5' },
			],
		},
		options,
	}),
	credentials: CREDENTIALS,
});

/** Manual Trigger -> one event -> Send, and Manual Trigger -> Members get (On Error: Continue). */
const stallWorkflow = {
	id: STALL_ID,
	name: 'e2e: a body that stalls or drips',
	active: false,
	nodes: [
		node(0, 'Start', 'n8n-nodes-base.manualTrigger', 1, {}),
		node(1, 'Event', 'n8n-nodes-base.set', 3.4, {
			mode: 'raw',
			jsonOutput: JSON.stringify({ phone: '821099990077' }),
			options: {},
		}),
		send(2, MAY_RETRY, '$json'),
		{
			...node(3, 'Member', `${rt.PACKAGE_NAME}.campaignMembers`, 1, {
				apiVersion: 'v2',
				operation: 'get',
				memberId: 'demo-0001',
				options: FAST_FAIL,
			}),
			credentials: CREDENTIALS,
			onError: 'continueRegularOutput',
		},
	],
	connections: {
		Start: {
			main: [
				[
					{ node: 'Event', type: 'main', index: 0 },
					{ node: 'Member', type: 'main', index: 0 },
				],
			],
		},
		Event: { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
	pinData: {},
};

/** Webhook (answers at once) -> Send with the event's order id as its Deduplication Key. */
const stopWorkflow = {
	id: STOP_ID,
	name: 'e2e: a stopped execution with a keyed send',
	active: false,
	nodes: [
		{
			...node(0, 'Webhook', 'n8n-nodes-base.webhook', 2, {
				httpMethod: 'POST',
				path: HOOK_PATH,
				options: {},
			}),
			webhookId: '5c000000-0000-4000-8000-0000000000aa',
		},
		send(
			1,
			{ deduplicationKey: '={{ $json.body.orderId }}', timeoutMs: 600000, maxRetries: 2 },
			'$json.body',
		),
	],
	connections: { Webhook: { main: [[{ node: 'Send', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
	pinData: {},
};

beforeAll(async () => {
	await importWorkflows([stallWorkflow, stopWorkflow]);
}, 5 * MINUTE);

describe('n8n execute: the Timeout covers the whole answer', () => {
	it.each(['stallBody', 'dripBody'] as FaultKind[])(
		'%s: the execution ends on its own, the send Failed with deliveryUnknown, the member read an error item',
		async (kind) => {
			resetSandbox({ faults: { kinds: [kind], phase: 'after' } });
			const result = await execute(STALL_ID, kind, { timeoutMs: MINUTE });
			expect(result.code).toBe(0);
			const runData = (result.data as Json).data.resultData.runData as Json;
			const items = (name: string, output: number) =>
				((runData[name][0].data.main[output] ?? []) as Json[]).map((i) => i.json as Json);
			expect(items('Send', 0)).toEqual([]);
			expect(items('Send', 1)).toEqual([
				expect.objectContaining({
					code: 'ETIMEDOUT',
					deliveryUnknown: true,
					phoneNumber: '821099990077',
				}),
			]);
			expect(items('Member', 0)).toEqual([
				expect.objectContaining({ error: expect.stringContaining('the request timed out') }),
			]);
			// The send reached the service once; nothing was sent again.
			expect(sb.state.sent.map((m) => m.phoneNumber)).toEqual(['821099990077']);
		},
		2 * MINUTE,
	);
});

describe('n8n start: an execution stopped through the REST API', () => {
	let n8n: rt.StartedN8n;
	let cookie: string;

	beforeAll(async () => {
		n8n = await startN8n({});
		cookie = (await rt.setupOwner(n8n.url, n8n.ownerPassword)).cookie;
		expect(await publishWorkflow(n8n.url, cookie, STOP_ID)).toBe(200);
	}, 10 * MINUTE);

	afterAll(async () => await n8n?.stop());

	const rest = async (method: string, url: string, body?: object) => {
		const res = await rt.httpRequest(method, `${n8n.url}/rest${url}`, {
			headers: { cookie },
			body,
		});
		return { status: res.status, data: JSON.parse(res.body || '{}').data as Json };
	};

	/** POSTs the event to the webhook (asking again while n8n still registers it). */
	const deliver = async (event: Json) => {
		for (let i = 0; i < 60; i++) {
			const hook = await rt.httpRequest('POST', `${n8n.url}/webhook/${HOOK_PATH}`, {
				body: event,
			});
			if (hook.status !== 404) return hook.status;
			await delay(500);
		}
		return 404;
	};

	const executions = async (): Promise<Json[]> => {
		const filter = encodeURIComponent(JSON.stringify({ workflowId: STOP_ID }));
		return (await rest('GET', `/executions?filter=${filter}`)).data.results as Json[];
	};

	const finished = async (id: string): Promise<Json> => {
		for (;;) {
			const { data } = await rest('GET', `/executions/${id}`);
			if (!['new', 'running', 'waiting'].includes(String(data.status))) return data;
			await delay(200);
		}
	};

	test(
		'the stop ends the execution within seconds; a redelivery of the same key does not send again',
		async () => {
			resetSandbox({ faults: { kinds: ['hang'], phase: 'after', firstN: 1 } });
			const event = { orderId: 'stop-order-1', phone: '821099990088' };
			expect(await deliver(event)).toBe(200);
			while (sb.state.sent.length === 0) await delay(100);
			let running: Json | undefined;
			while (!running) {
				running = (await executions()).find((e) => e.status === 'running');
				if (!running) await delay(200);
			}
			const stoppedAt = Date.now();
			const stop = await rest('POST', `/executions/${running.id}/stop`);
			expect(stop.status).toBe(200);
			const first = await finished(String(running.id));
			const stopMs = Date.now() - stoppedAt;
			fs.writeFileSync(
				path.join(ARTIFACTS, 'stop.json'),
				`${JSON.stringify({ stopMs, status: first.status }, null, 2)}\n`,
			);
			expect(first.status).toBe('canceled');

			// The same event again: the key was kept, so nothing is sent a second time.
			expect(await deliver(event)).toBe(200);
			let second: Json | undefined;
			while (!second) {
				const done = (await executions()).filter((e) => e.id !== running?.id);
				if (done.length > 0 && !['new', 'running'].includes(String(done[0].status)))
					second = await finished(String(done[0].id));
				else await delay(200);
			}
			const runData = rt.parseRunData(paths, second.data).resultData.runData as Json;
			const failed = (runData.Send[0].data.main[1] ?? []).map((i: Json) => i.json as Json);
			expect(failed).toEqual([
				expect.objectContaining({
					code: expect.stringMatching(/^earlierSend(Unconfirmed|InProgress)$/),
					deliveryUnknown: true,
				}),
			]);
			expect(sb.state.sent.map((m) => m.phoneNumber)).toEqual(['821099990088']);
		},
		2 * MINUTE,
	);
});
