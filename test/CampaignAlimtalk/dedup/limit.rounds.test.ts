/**
 * The Send Limit's places in store rounds that are cut short (issue "Deduplication, round four",
 * finding 3) and asked with different limits in one round (issue "Tool-mode guard rails",
 * finding 7), replayed on a fake clock with the race harness (support.ts): a failed remove call,
 * a process that dies after its record call, two limits in one round.
 */
import type { StoreLimit } from '../../../nodes/CampaignAlimtalk/dedup/limit';
import { delay } from '../../support/node';
import { KEYS_ROW_ID, processCopy, race, raceFixture, settle } from './support';

raceFixture();

const perDay = (limit: number): StoreLimit => ({ limit, period: 'day', zone: 'UTC' });

type Copy = ReturnType<typeof processCopy>;

/** The verdict of one ask, on the fake clock. */
async function verdictOf(copy: Copy, key: string, limit?: StoreLimit): Promise<string> {
	const outcome = await settle(copy.ask(key, 60000, limit));
	if (outcome.status !== 'fulfilled') throw new Error('an ask never rejects');
	const asked = outcome.value;
	return 'answer' in asked ? asked.answer.verdict : 'error';
}

/** Asks `count` new keys one after another; how many may send. */
async function sends(copy: Copy, count: number, limit: StoreLimit, from = 100): Promise<number> {
	let sent = 0;
	for (let n = 0; n < count; n++)
		if ((await verdictOf(copy, `order-${from + n}`, limit)) === 'send') sent++;
	return sent;
}

/** Makes the first `times` remove calls of `copy` on the row of keys fail, as a database error would. */
function failRemoves(copy: Copy, times = Infinity) {
	const real = copy.ctx.helpers.removeProcessed;
	const fired = { count: 0 };
	Object.assign(copy.ctx.helpers, {
		removeProcessed: async (...args: Parameters<typeof real>) => {
			if (args[1] === 'node' && fired.count < times) {
				fired.count++;
				throw new Error('Connection terminated unexpectedly');
			}
			return await real(...args);
		},
	});
	return fired;
}

describe('a Send Limit in rounds cut short', () => {
	it('a round whose remove call failed takes its claim and its places back in the next round', async () => {
		const a = processCopy('A');
		const fired = failRemoves(a, 1);
		expect(await verdictOf(a, 'order-1', perDay(5))).toBe('error');
		expect(fired.count).toBe(1); // the fault fired
		// Its claim was taken back (the key is free, not unconfirmed) and so were its places.
		expect(await verdictOf(a, 'order-1', perDay(5))).toBe('send');
		expect(await sends(a, 6, perDay(5))).toBe(4);
	});

	it('a process that dies after its record call costs a few places, not the period', async () => {
		const dead = processCopy('dead');
		failRemoves(dead); // every remove fails: nothing it recorded is ever taken back
		expect(await verdictOf(dead, 'order-1', perDay(50))).toBe('error');
		const alive = processCopy('alive');
		const sent = await sends(alive, 60, perDay(50));
		expect(sent).toBeLessThan(50);
		expect(sent).toBeGreaterThanOrEqual(42);
	});

	it('two sends with different limits in one round never take the same place', async () => {
		const a = processCopy('A');
		const both = await settle(
			Promise.all([a.ask('order-1', 60000, perDay(3)), a.ask('order-2', 60000, perDay(5))]),
		);
		expect(both).toMatchObject({
			status: 'fulfilled',
			value: [{ answer: { verdict: 'send' } }, { answer: { verdict: 'send' } }],
		});
		// Two places of the period are used: three more at the limit of 5.
		expect(await sends(a, 5, perDay(5))).toBe(3);
	});
	it('a record call answered after the round gave up on it: the places it took are taken back', async () => {
		const [a, b] = [processCopy('A'), processCopy('B')];
		await settle(a.ask('order-0')); // the row of keys exists (a later write is an update)
		const slowed = { landed: false };
		race.store.beforeWrite = async (id) => {
			if (id !== KEYS_ROW_ID || slowed.landed) return;
			await delay(20000); // far beyond the 8 s bound of one store call, within the 60 s kept for it
			slowed.landed = true;
		};
		expect(await verdictOf(a, 'order-1', perDay(5))).toBe('error');
		await settle(delay(60000)); // the late answer came; A's next round took back what it said
		expect(slowed.landed).toBe(true);
		expect(await sends(b, 5, perDay(5))).toBe(5);
	});
});
