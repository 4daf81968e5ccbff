import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { DedupSession } from '../../nodes/CampaignAlimtalk/dedup/session';
import { LOCK_ENTRY, STALE_LOCK_MS } from '../../nodes/CampaignAlimtalk/dedup/lock';
import { storedKey } from '../../nodes/CampaignAlimtalk/dedup/options';
import { ProcessedDataStore } from '../support/dedup-store';
import { envelope, startScripted } from '../support/scripted-server';
import { dedupFixture, jsonOf, phone, runSend } from './dedup-support';

const WF = 'test-workflow';
const KEY = { deduplicationKey: '={{ $json.orderId }}' };

const fx = dedupFixture({ accounts: { 'expired-key': 'expired' } });

const good = () => ({ baseUrl: fx.sb.baseUrl, apiKey: fx.sb.apiKey });
const order = (n: number, extra: IDataObject = {}) => ({
	orderId: `order-${n}`,
	campaign: 'WELCOME',
	phone: phone(n),
	name: `Kim ${n}`,
	...extra,
});
const sentPhones = () => fx.sb.state.sent.map((m) => m.phoneNumber).sort();
const send = async (
	input: IDataObject[],
	options: IDataObject = KEY,
	credentials: IDataObject = good(),
) => await runSend({ input, options, credentials });

describe('Alimtalk send with a Deduplication Key', () => {
	it('is off when the key is empty: same items, no store call', async () => {
		const { out, error } = await send([order(1), order(1)], {});
		expect(error).toBeUndefined();
		expect(fx.sb.state.sent).toHaveLength(2);
		expect(fx.store.steps).toBe(0);
		expect(jsonOf(out[0])).toEqual([
			expect.not.objectContaining({ duplicate: expect.anything() }),
			expect.not.objectContaining({ duplicate: expect.anything() }),
		]);
	});

	it('does not send a key seen in an earlier execution; the item goes to Success as a duplicate', async () => {
		await send([order(1), order(2), order(3)]);
		expect(fx.sb.state.sent).toHaveLength(3);
		const { out, error } = await send([order(2), order(4), order(3)]);
		expect(error).toBeUndefined();
		expect(sentPhones()).toEqual([phone(1), phone(2), phone(3), phone(4)]);
		expect(out[1]).toHaveLength(0);
		expect(jsonOf(out[0])).toEqual([
			{
				campaignKey: 'WELCOME',
				phoneNumber: phone(2),
				status: 'skipped',
				duplicate: true,
				deduplicationKey: 'order-2',
			},
			expect.objectContaining({ phoneNumber: phone(4), status: 'sent', code: '0' }),
			expect.objectContaining({ phoneNumber: phone(3), status: 'skipped', duplicate: true }),
		]);
		expect(out[0].map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('sends a key repeated within one execution once, naming the earlier item', async () => {
		const { out } = await send([order(1), order(2), order(1, { name: 'again' })]);
		expect(sentPhones()).toEqual([phone(1), phone(2)]);
		expect(out[0][2].json).toMatchObject({
			duplicate: true,
			duplicateOfItem: 0,
			status: 'skipped',
		});
		expect(fx.store.keys(WF, 'n:node-under-test')).toHaveLength(2);
	});

	it('releases the key of a send the service rejected: after the cause is fixed, it is sent', async () => {
		fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'], templateState: 'blocked' });
		const first = await send([order(1)]);
		expect(fx.sb.state.sent).toHaveLength(0);
		expect(first.out[1][0].json).toMatchObject({
			code: '7007',
			deduplicationKey: 'order-1',
			deduplicationKeyKept: false,
		});
		fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		const second = await send([order(1)]);
		expect(second.out[0][0].json).toMatchObject({ status: 'sent' });
		expect(sentPhones()).toEqual([phone(1)]);
	});

	it('records no key for a row the node rejects itself, nor for an item without a key', async () => {
		const { out } = await send([order(1, { phone: '010' }), order(2, { orderId: '' }), order(3)]);
		expect(sentPhones()).toEqual([phone(3)]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({ code: '7012', phoneNumber: '010' }),
			expect.objectContaining({
				code: 'noDeduplicationKey',
				message: expect.stringMatching(/Deduplication Key is empty/),
			}),
		]);
		const fixed = await send([order(1), order(3)]);
		expect(fixed.out[0].map((i) => i.json.status)).toEqual(['sent', 'skipped']);
		expect(sentPhones()).toEqual([phone(1), phone(3)]);
	});

	it('releases every key when the account fails before the first request, so a later run sends them', async () => {
		const failed = await send([order(1), order(2)], KEY, {
			baseUrl: fx.sb.baseUrl,
			apiKey: 'expired-key',
		});
		expect(failed.error?.message).toMatch(/expired/i);
		expect(fx.store.keys(WF, 'n:node-under-test')).toHaveLength(0);
		await send([order(1), order(2)]);
		expect(sentPhones()).toEqual([phone(1), phone(2)]);
	});

	it('releases the keys of the items the node did not reach when the account failed half-way', async () => {
		const server = await startScripted((_req, index) => ({
			body: index < 2 ? envelope(0) : { processCode: 1405, message: 'expired' },
		}));
		try {
			const creds = { baseUrl: server.baseUrl, apiKey: ['scripted', 'key', '1234'].join('-') };
			const { out } = await send(
				[1, 2, 3, 4, 5].map((n) => order(n)),
				{ ...KEY, concurrency: 1 },
				creds,
			);
			expect(out[0]).toHaveLength(2);
			expect(jsonOf(out[1]).map((j) => [j.deduplicationKey, j.deduplicationKeyKept])).toEqual([
				['order-3', false],
				['order-4', false],
				['order-5', false],
			]);
		} finally {
			await server.close();
		}
		const again = await send([1, 2, 3, 4, 5].map((n) => order(n)));
		expect(again.out[0].map((i) => i.json.status)).toEqual([
			'skipped',
			'skipped',
			'sent',
			'sent',
			'sent',
		]);
		expect(sentPhones()).toEqual([phone(3), phone(4), phone(5)]);
	});

	it('keeps the key of a send whose delivery is unknown: a later run reports it on Failed as unconfirmed, never as sent', async () => {
		fx.sb.configure({ faults: { kinds: ['code7999'], firstN: 1, phase: 'after' } });
		const first = await send([order(1), order(2)], { ...KEY, concurrency: 1 });
		expect(first.out[1][0].json).toMatchObject({
			code: '7999',
			deliveryUnknown: true,
			deduplicationKeyKept: true,
			deduplicationKey: 'order-1',
		});
		fx.sb.configure({ faults: undefined });
		const second = await send([order(1), order(2)]);
		expect(jsonOf(second.out[0])).toEqual([
			expect.objectContaining({ phoneNumber: phone(2), duplicate: true, status: 'skipped' }),
		]);
		expect(jsonOf(second.out[1])).toEqual([
			expect.objectContaining({
				code: 'earlierSendUnconfirmed',
				deliveryUnknown: true,
				deduplicationKey: 'order-1',
				deduplicationKeyKept: true,
				message: expect.stringMatching(
					/started between \d\d:00 and \d\d:00 UTC on \d{4}-\d\d-\d\d, never got the service's answer recorded, so it may or may not have been delivered/,
				),
				earlierSendStartedAt: expect.stringMatching(/T\d\d:00:00\.000Z$/),
				hint: expect.stringMatching(/new Deduplication Key/),
			}),
		]);
		expect(second.out[1][0].pairedItem).toEqual({ item: 0 });
		expect(sentPhones()).toEqual([phone(1), phone(2)]); // the 7999 one arrived once, and was not sent again
	});

	it('scope "This Node" keeps keys per node; "Whole Workflow" shares them between nodes', async () => {
		const input = [order(1)];
		await runSend({ input, options: KEY, more: { Second: KEY }, credentials: good() });
		expect(fx.sb.state.sent).toHaveLength(2);
		fx.sb.reset();
		fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		fx.store.reset();
		const shared = { ...KEY, deduplicationScope: 'workflow' };
		const run = await runSend({
			input,
			options: shared,
			more: { Second: shared },
			credentials: good(),
		});
		expect(fx.sb.state.sent).toHaveLength(1);
		const second = run.outputs('Second');
		const statuses = [run.out[0][0].json.status, second[0][0].json.status].sort();
		expect(statuses).toEqual(['sent', 'skipped']);
		expect(fx.store.keys(WF, '')).toHaveLength(1);
	});

	it('remembers only the latest keys up to the history size', async () => {
		const limit = { ...KEY, deduplicationHistorySize: 1000, concurrency: 50 };
		const many = Array.from({ length: 1100 }, (_, n) => order(n));
		await send(many, limit);
		expect(fx.store.keys(WF, 'n:node-under-test').length).toBeLessThanOrEqual(1100);
		const { out } = await send([order(0), order(1099)], limit);
		expect(out[0].map((i) => i.json.status)).toEqual(['sent', 'skipped']);
		expect(fx.sb.state.sent).toHaveLength(1101);
	});

	it('refuses a History Size under 1,000 (room for the claims of messages in flight), before sending', async () => {
		const { error } = await send([order(1)], { ...KEY, deduplicationHistorySize: 999 });
		expect(error?.message).toMatch(
			/Deduplication History Size" must be a whole number from 1000 to 100000 \(got 999\)/,
		);
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('tells odd and very long keys apart, and knows each of them again', async () => {
		const keys = [
			'x'.repeat(200000),
			`${'x'.repeat(199999)}y`,
			'\uD800',
			'\uD801',
			'a\u0000b',
			'a b',
			'🙂 주문 1',
			' padded ',
			'0',
			'null',
		];
		const input = keys.map((orderId, n) => order(n, { orderId }));
		const first = await send(input);
		expect(first.out[0].map((i) => i.json.status)).toEqual(keys.map(() => 'sent'));
		const again = await send(input);
		expect(again.out[0].map((i) => i.json.status)).toEqual(keys.map(() => 'skipped'));
		expect(again.out[0][0].json.deduplicationKey).toHaveLength(200000);
		expect(fx.sb.state.sent).toHaveLength(keys.length);
	});

	it('takes an object or a number from the expression as its text', async () => {
		await send([order(1, { orderId: { id: 7 } }), order(2, { orderId: 7 })]);
		const { out } = await send([order(1, { orderId: { id: 7 } }), order(2, { orderId: '7' })]);
		expect(out[0].map((i) => i.json.deduplicationKey)).toEqual(['{"id":7}', '7']);
		expect(fx.sb.state.sent).toHaveLength(2);
	});

	it('stops with a clear error when another node keeps workflow-scope data, before sending', async () => {
		await fx.store.checkProcessedAndRecord(
			['someone else'],
			'workflow',
			{ workflow: { id: WF } } as never,
			{ mode: 'entries' },
		);
		const { error } = await send([order(1)]);
		expect(error?.message).toMatch(
			/another node of this workflow keeps deduplication data with scope "Whole Workflow"/,
		);
		expect(fx.sb.state.sent).toHaveLength(0);
		expect(fx.store.entries(WF, '')).toEqual([ProcessedDataStore.hash('someone else')]);
		const { out } = await send([order(1)], { ...KEY, deduplicationScope: 'workflow' });
		expect(out[0][0].json.status).toBe('sent');
	});

	it('takes over the node row as its lock when the scope changes from node to workflow', async () => {
		await send([order(1)]);
		const { out } = await send([order(1)], { ...KEY, deduplicationScope: 'workflow' });
		expect(out[0][0].json.status).toBe('sent');
		expect(fx.store.entries(WF, 'n:node-under-test')).toBeUndefined();
		expect(fx.store.keys(WF, '')).toEqual([ProcessedDataStore.hash(storedKey('order-1'))]);
	});

	it(
		'takes a lock left by a process that died holding it as abandoned after STALE_LOCK_MS, then sends',
		async () => {
			await fx.store.checkProcessedAndRecord(
				[LOCK_ENTRY],
				'workflow',
				{ workflow: { id: WF } } as never,
				{ mode: 'entries' },
			);
			const { out, error } = await send([order(1)]);
			expect(error).toBeUndefined();
			expect(out[0][0].json.status).toBe('sent');
			expect(await fx.store.lockReleased(WF)).toBe(true);
		},
		STALE_LOCK_MS + 20000,
	);

	it('leaves no lock row behind', async () => {
		await send([order(1), order(2)]);
		expect(await fx.store.lockReleased(WF)).toBe(true);
	});
});

describe('Deduplication Key on an n8n without the deduplication helpers', () => {
	it('stops with an error naming the minimum n8n version', () => {
		const ctx = {
			getNode: () => ({
				id: 'n',
				name: 'Campaign',
				parameters: { options: { deduplicationKey: '={{ $json.id }}' } },
			}),
			getWorkflow: () => ({ id: 'w' }),
			getNodeParameter: () => 'k',
			helpers: { httpRequestWithAuthentication: async () => ({}) },
		} as unknown as IExecuteFunctions;
		expect(() =>
			DedupSession.open(
				ctx,
				{},
				{ maxRetries: 0, retryDelayMs: 0, timeoutMs: 1000 },
				1,
				() => true,
				() => undefined,
			),
		).toThrow(/needs n8n 1\.64\.0 or later/);
	});
});
