/**
 * End-to-end: a doubt keeps its key, whatever the retries say (docs/deduplication.md,
 * "The transitions"), in real n8n (`n8n execute`, SQLite). A keyed send with Retry When Delivery
 * Is Unknown: attempt 1 reaches the service and its connection drops (the message went out, the
 * node cannot know), then every retry is answered with a refusal (7002, sender profile blocked)
 * or an internal error (7999). A second execution of the same key, the service healthy again,
 * sends nothing: one message in all.
 *
 * Run with `npx jest -c jest.e2e.config.js test/e2e/dedup-doubt.e2e.ts`; artifacts go to
 * test-artifacts/e2e/dedup-doubt.
 */
import * as rt from '../../scripts/runtime';
import { fs } from '../support/node';
import { importWorkflows, sendItems, sb, setupN8n, userFolder, type Json } from './support';

setupN8n('dedup-doubt', { demo: false });

const TRIGGER_PATH = '/messages/alimtalk/trigger';
const phone = (n: number) => `8210${String(30000000 + n).slice(-8)}`;

/** Manual Trigger -> one order -> Campaign Alimtalk keyed by its order id, retrying unknown deliveries. */
function workflow(id: string, order: Json): Json {
	const node = (n: number, name: string, type: string, typeVersion: number, parameters: Json) => ({
		id: `dd000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
		name,
		type,
		typeVersion,
		position: [n * 220, 0],
		parameters,
	});
	const send = {
		...node(2, 'Send', `${rt.PACKAGE_NAME}.campaignAlimtalk`, 1, {
			operation: 'send',
			campaignKey: '={{ $json.campaign }}',
			phoneNumber: '={{ $json.phone }}',
			properties: { property: [{ key: 'name', value: '={{ $json.name }}' }] },
			options: {
				deduplicationKey: '={{ $json.orderId }}',
				retryUnknownDelivery: true,
				maxRetries: 2,
				retryDelayMs: 0,
			},
		}),
		credentials: {
			campaignApi: { id: rt.SANDBOX_CREDENTIAL.id, name: rt.SANDBOX_CREDENTIAL.name },
		},
	};
	return {
		id,
		name: `Doubt check ${id}`,
		active: false,
		nodes: [
			node(0, 'Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			node(1, 'Order', 'n8n-nodes-base.set', 3.4, {
				mode: 'raw',
				jsonOutput: JSON.stringify(order),
				options: {},
			}),
			send,
		],
		connections: {
			Start: { main: [[{ node: 'Order', type: 'main', index: 0 }]] },
			Order: { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * The trigger's first request goes through and its connection is then dropped; from the second
 * on, the campaign's sender profile is blocked (the service answers 7002, nothing sent), and with
 * `retries: '7999'` that answer is replaced by an internal error (7999).
 */
function dropThenRefuse(retries: '7002' | '7999'): void {
	let triggers = 0;
	const kinds: Array<'drop' | 'code7999'> = ['drop'];
	sb.configure({
		latencyMs: 0,
		faults: {
			kinds,
			phase: 'after',
			match: (r) => {
				if (r.path !== TRIGGER_PATH) return false;
				triggers++;
				if (triggers === 1) return true;
				sb.addCampaign('WELCOME', { requiredVariables: ['name'], profileState: 'blocked' });
				kinds[0] = 'code7999';
				return retries === '7999';
			},
		},
	});
}

const triggerAnswers = () =>
	sb.requests.filter((r) => r.path === TRIGGER_PATH).map((r) => [r.faulted ?? null, r.status]);

afterAll(() => {
	if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
});

describe('a doubt keeps its key in real n8n (n8n execute, SQLite)', () => {
	test.each([
		['7002', 'a refusal (7002, sender profile blocked)', 400],
		['7999', 'an internal error (7999)', 500],
	] as const)(
		'attempt 1 went out and its connection dropped, every retry answered %s: the next execution sends nothing, 1 message in all',
		async (code, _what, status) => {
			sb.reset();
			sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
			const id = `cmDoubt${code}`;
			const order = {
				orderId: `doubt-${code}`,
				campaign: 'WELCOME',
				phone: phone(Number(code)),
				name: 'Kim',
			};
			await importWorkflows([workflow(id, order)]);

			dropThenRefuse(code);
			const first = await sendItems(id, `doubt-${code}-1`);
			// The fault fired as described: one request processed and dropped, then the retries, each
			// refused (a refusal ends the retries; an internal error is retried up to Max Retries).
			const retry = [code === '7999' ? 'code7999' : null, status];
			expect(triggerAnswers()).toEqual([
				['drop', 0],
				...(code === '7999' ? [retry, retry] : [retry]),
			]);
			// The service healthy again: the same key is not sent a second time.
			sb.configure({ faults: undefined });
			sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
			const second = await sendItems(id, `doubt-${code}-2`);
			// One message in all (the first attempt's), whatever the retries said.
			expect(sb.state.sent.map((m) => m.phoneNumber)).toEqual([order.phone]);
			expect(first.success).toEqual([]);
			expect(first.failed).toEqual([
				expect.objectContaining({
					phoneNumber: order.phone,
					deliveryUnknown: true,
					deduplicationKey: order.orderId,
					deduplicationKeyKept: true,
				}),
			]);

			expect(second.success).toEqual([]);
			expect(second.failed).toEqual([
				expect.objectContaining({
					phoneNumber: order.phone,
					code: 'earlierSendUnconfirmed',
					deliveryUnknown: true,
					deduplicationKeyKept: true,
				}),
			]);
		},
		15 * 60000, // four `n8n execute` runs on a busy machine
	);
});
