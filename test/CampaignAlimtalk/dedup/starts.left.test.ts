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

/**
 * Makes the first store call of a start lookup fail: its remove call before it lands, or its
 * record call after it wrote. Returns how many calls failed and a function that puts the store back.
 */
function failFirstLookup(call: 'remove' | 'record'): {
	failures: () => number;
	restore: () => void;
} {
	let failures = 0;
	const fail = () => {
		failures++;
		throw new Error('Connection terminated unexpectedly');
	};
	const isLookup = (args: unknown[]) =>
		args[1] === 'node' && failures === 0 && lookup(args[0] as string[]);
	if (call === 'remove') {
		const real = fx.store.removeProcessed.bind(fx.store);
		fx.store.removeProcessed = async (...args) => (isLookup(args) ? fail() : await real(...args));
		return { failures: () => failures, restore: () => (fx.store.removeProcessed = real) };
	}
	const real = fx.store.checkProcessedAndRecord.bind(fx.store);
	fx.store.checkProcessedAndRecord = async (...args) => {
		const result = await real(...args);
		return isLookup(args) ? fail() : result;
	};
	return { failures: () => failures, restore: () => (fx.store.checkProcessedAndRecord = real) };
}

describe('a start lookup whose store call failed', () => {
	it.each([
		['its remove call failed: the minute probes it left are taken back', 'remove'],
		['its record call wrote, then failed: the probes are taken back', 'record'],
	] as const)('%s, and the claim reads unconfirmed', async (_title, call) => {
		await oldClaim('order-1');
		const fault = failFirstLookup(call);
		try {
			const first = await send([order(1)]);
			expect(jsonOf(first.out[1])).toEqual([
				// A record call that failed is taken as in flight and asked again: its probes are gone by then.
				expect.objectContaining({ code: 'earlierSendUnconfirmed' }),
			]);
		} finally {
			fault.restore();
		}
		expect(fault.failures()).toBe(1);
		const { out } = await send([order(1)]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({ code: 'earlierSendUnconfirmed', deliveryUnknown: true }),
		]);
		expect(fx.sb.state.sent).toHaveLength(0);
	});
});
