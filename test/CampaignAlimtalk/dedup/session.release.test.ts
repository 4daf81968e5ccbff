/**
 * Which keys of the Deduplication Key a failed send releases (so that a later run sends them)
 * and which it keeps: a refusal by the service or by the node, an account failure before or
 * during the run, and a delivery that is unknown.
 */
import { envelope, startScripted } from '../../support/scripted-server';
import { KEYED, WF, dedupFixture, jsonOf, order, phone, sendsOf } from './support';

const fx = dedupFixture({ accounts: { 'expired-key': 'expired' } });
const { send, sentPhones } = sendsOf(fx, KEYED);

describe('Alimtalk send with a Deduplication Key', () => {
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
		const failed = await send([order(1), order(2)], KEYED, {
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
				{ ...KEYED, concurrency: 1 },
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
		const first = await send([order(1), order(2)], { ...KEYED, concurrency: 1 });
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
					/claimed this Deduplication Key between \d\d:00 and \d\d:00 UTC on \d{4}-\d\d-\d\d and did not confirm it \(the service did not answer, or n8n stopped during that send\), so it may or may not have been delivered/,
				),
				earlierSendStartedAt: expect.stringMatching(/T\d\d:00:00\.000Z$/),
				hint: expect.stringMatching(/new Deduplication Key/),
			}),
		]);
		expect(second.out[1][0].pairedItem).toEqual({ item: 0 });
		expect(sentPhones()).toEqual([phone(1), phone(2)]); // the 7999 one arrived once, and was not sent again
	});
});
