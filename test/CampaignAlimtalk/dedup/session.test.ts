/**
 * The send with a Deduplication Key through the in-process engine and the faithful store: what
 * is a duplicate, the scope and the history size, the keys' text, and the store's rows (the
 * lock). Which keys are released or kept when a send fails: dedup-release.test.ts.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { DedupSession } from '../../../nodes/CampaignAlimtalk/session/session';
import { storedKey } from '../../../nodes/CampaignAlimtalk/key/key-options';
import { ProcessedDataStore } from '../../support/dedup-store';
import { KEYED, WF, dedupFixture, jsonOf, order, phone, runSend, sendsOf } from './support';

const fx = dedupFixture({ accounts: { 'expired-key': 'expired' } });
const { good, send, sentPhones } = sendsOf(fx, KEYED);

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

	it('scope "This Node" keeps keys per node; "Whole Workflow" with a second keyed send is refused before sending', async () => {
		const input = [order(1)];
		await runSend({ input, options: KEYED, more: { Second: KEYED }, credentials: good() });
		expect(fx.sb.state.sent).toHaveLength(2);
		fx.sb.reset();
		fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		fx.store.reset();
		// Each node would take a lock of its own on the one shared record (docs/deduplication.md).
		const shared = { ...KEYED, deduplicationScope: 'workflow' };
		const run = await runSend({
			input,
			options: shared,
			more: { Second: shared },
			credentials: good(),
		});
		expect(run.error?.message).toMatch(
			/the node "(Second|Campaign)" also has a Deduplication Key; with Deduplication Scope "Whole Workflow" this node must be the only keyed send/,
		);
		expect(fx.sb.state.sent).toHaveLength(0);
		expect(fx.store.keys(WF, '')).toHaveLength(0);
	});

	it('remembers only the latest keys up to the history size', async () => {
		const limit = { ...KEYED, deduplicationHistorySize: 1000, concurrency: 50 };
		const many = Array.from({ length: 1100 }, (_, n) => order(n));
		await send(many, limit);
		expect(fx.store.keys(WF, 'n:node-under-test').length).toBeLessThanOrEqual(1100);
		const { out } = await send([order(0), order(1099)], limit);
		expect(out[0].map((i) => i.json.status)).toEqual(['sent', 'skipped']);
		expect(fx.sb.state.sent).toHaveLength(1101);
	});

	it('refuses a History Size under 1,000 (room for the claims of messages in flight), before sending', async () => {
		const { error } = await send([order(1)], { ...KEYED, deduplicationHistorySize: 999 });
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
		const { out } = await send([order(1)], { ...KEYED, deduplicationScope: 'workflow' });
		expect(out[0][0].json.status).toBe('sent');
	});

	it('takes over the node row as its lock when the scope changes from node to workflow', async () => {
		await send([order(1)]);
		const { out } = await send([order(1)], { ...KEYED, deduplicationScope: 'workflow' });
		expect(out[0][0].json.status).toBe('sent');
		expect(fx.store.entries(WF, 'n:node-under-test')).toBeUndefined();
		expect(fx.store.keys(WF, '')).toEqual([ProcessedDataStore.hash(storedKey('order-1'))]);
	});

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
				{ scope: 'node', historySize: 10000, perRecipient: false },
				{ maxRetries: 0, retryDelayMs: 0, timeoutMs: 1000 },
				{ settings: undefined, store: { scope: 'node', historySize: 10000, perRecipient: false } },
			),
		).toThrow(/needs n8n 1\.64\.0 or later/);
	});
});
