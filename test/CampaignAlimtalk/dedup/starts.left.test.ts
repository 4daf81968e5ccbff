/**
 * A start lookup (docs/deduplication.md, "A key found claimed") whose store call failed may leave
 * its minute probes in the row of keys; a minute probe makes any claim of that key read "in
 * flight". The next round of the process takes them back, so a crashed claim reads unconfirmed
 * once its window is over, not for the longest send after the failed lookup.
 */
import { longestSendMs, markersOf } from '../../../nodes/CampaignAlimtalk/dedup/markers';
import { KEYED, WF, dedupFixture, jsonOf, order, sendsOf } from './support';

const NODE_ROW = { workflow: { id: WF }, node: { id: 'node-under-test' } } as never;
const FAST_KEYED = { ...KEYED, timeoutMs: 1000, maxRetries: 0 };
const SETTINGS = { maxRetries: 0, retryDelayMs: 0, timeoutMs: 1000 };

const fx = dedupFixture();
const { send } = sendsOf(fx, FAST_KEYED);

/** A claim whose execution died long ago: its hour and claim, its minute gone out of the window. */
async function oldClaim(key: string): Promise<void> {
	const markers = markersOf(key, Date.now() - longestSendMs(SETTINGS) - 180000);
	const values = [markers.hour, markers.claim];
	await fx.store.checkProcessedAndRecord(values, 'node', NODE_ROW, { mode: 'entries' });
}

/** The lookup's call: the minute probes and most of the hours of the last 48 (a round's own call has one hour per key). */
const lookup = (items: string[]) =>
	items.some((item) => /^claim:.*:m\d+$/.test(item)) &&
	items.filter((item) => /^claim:.*:h\d+$/.test(item)).length >= 40;

describe('a start lookup whose store call failed', () => {
	it('its remove call failed: the minute probes it left are taken back, the claim reads unconfirmed again', async () => {
		await oldClaim('order-1');
		const real = fx.store.removeProcessed.bind(fx.store);
		let failures = 0;
		fx.store.removeProcessed = async (...args) => {
			if (args[1] !== 'node' || failures > 0 || !lookup(args[0] as string[]))
				return await real(...args);
			failures++;
			throw new Error('Connection terminated unexpectedly');
		};
		try {
			const first = await send([order(1)]);
			expect(jsonOf(first.out[1])).toEqual([
				expect.objectContaining({ code: 'earlierSendUnconfirmed' }),
			]);
		} finally {
			fx.store.removeProcessed = real;
		}
		expect(failures).toBe(1);
		const { out } = await send([order(1)]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({ code: 'earlierSendUnconfirmed', deliveryUnknown: true }),
		]);
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('its record call wrote, then failed: the probes are taken back, the claim reads unconfirmed', async () => {
		await oldClaim('order-1');
		const real = fx.store.checkProcessedAndRecord.bind(fx.store);
		let failures = 0;
		fx.store.checkProcessedAndRecord = async (...args) => {
			const result = await real(...args);
			if (args[1] !== 'node' || failures > 0 || !lookup(args[0] as string[])) return result;
			failures++;
			throw new Error('Connection terminated unexpectedly');
		};
		try {
			const first = await send([order(1)]);
			expect(jsonOf(first.out[1])).toEqual([
				// Taken as in flight and asked again: by then its probes are gone.
				expect.objectContaining({ code: 'earlierSendUnconfirmed' }),
			]);
		} finally {
			fx.store.checkProcessedAndRecord = real;
		}
		expect(failures).toBeGreaterThan(0);
		const { out } = await send([order(1)]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({ code: 'earlierSendUnconfirmed', deliveryUnknown: true }),
		]);
		expect(fx.sb.state.sent).toHaveLength(0);
	});
});
