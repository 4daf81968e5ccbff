/**
 * The Send Limit's places in store rounds that are cut short and asked with different limits in one
 * round (docs/deduplication.md, "The Send Limit" and window 4), replayed on a fake clock with the race harness (support.ts): a failed remove call,
 * a process that dies after its record call, two limits in one round.
 */
import { REMOVE_TRIES } from '../../../nodes/CampaignAlimtalk/store/queue';
import type { StoreLimit } from '../../../nodes/CampaignAlimtalk/limit/limit';
import { periodOf } from '../../../nodes/CampaignAlimtalk/limit/limit';
import { slotName } from '../../../nodes/CampaignAlimtalk/limit/places';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay } from '../../support/node';
import {
	failRemoves,
	KEYS_ROW_ID,
	keysRow,
	processCopy,
	race,
	raceFixture,
	settle,
} from './support';

raceFixture();

const perDay = (limit: number): StoreLimit => ({ limit, period: 'day', zone: 'UTC' });

type Copy = ReturnType<typeof processCopy>;

/** How many of today's places (of a limit up to 50) the row of keys holds. */
function placesTaken(): number {
	const { startMs } = periodOf(Date.now(), 'day', 'UTC');
	const row = new Set(keysRow());
	return Array.from({ length: 50 }, (_, i) => slotName('day', startMs, i + 1)).filter((slot) =>
		row.has(ProcessedDataStore.hash(slot)),
	).length;
}

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

describe('a Send Limit in rounds cut short', () => {
	it('a round whose remove calls all failed: its claim and every place it wrote stay taken for the period, never given twice', async () => {
		const a = processCopy('A');
		const fired = failRemoves(a, REMOVE_TRIES);
		expect(await verdictOf(a, 'order-1', perDay(5))).toBe('error');
		expect(fired.count).toBe(REMOVE_TRIES); // the fault fired, on every try
		// Nothing is written after the lock: the claim stays (in flight, not sent), and so do the
		// places the round found free (its remove may have landed: they may be another's by now).
		expect(await verdictOf(a, 'order-1', perDay(5))).not.toBe('send');
		const held = placesTaken();
		expect(held).toBeGreaterThan(1);
		expect(await sends(a, 6, perDay(5))).toBe(5 - held);
	});

	it('a remove call that fails once is tried again within the round: nothing is lost', async () => {
		const a = processCopy('A');
		const fired = failRemoves(a, REMOVE_TRIES - 1);
		expect(await verdictOf(a, 'order-1', perDay(5))).toBe('send');
		expect(fired.count).toBe(REMOVE_TRIES - 1);
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
	it('a record call answered after the round gave up on it: the places it took stay taken, the lock kept until it landed', async () => {
		const [a, b] = [processCopy('A'), processCopy('B')];
		await settle(a.ask('order-0')); // the row of keys exists (a later write is an update)
		const slowed = { landed: false };
		race.store.beforeWrite = async (id) => {
			if (id !== KEYS_ROW_ID || slowed.landed) return;
			await delay(20000); // far beyond the 8 s bound of one store call, within the 60 s kept for it
			slowed.landed = true;
		};
		expect(await verdictOf(a, 'order-1', perDay(5))).toBe('error');
		await settle(delay(60000));
		expect(slowed.landed).toBe(true);
		const held = placesTaken();
		expect(held).toBeGreaterThan(0);
		expect(await sends(b, 5, perDay(5))).toBe(5 - held);
	});
});

describe('the same key asked twice in one round while the limit is used up', () => {
	it('both asks are limited: the key stays free, and neither says an earlier send is unconfirmed', async () => {
		const a = processCopy('A');
		expect(await verdictOf(a, 'order-0', perDay(1))).toBe('send'); // the one place of the day
		const both = await settle(
			Promise.all([a.ask('order-1', 60000, perDay(1)), a.ask('order-1', 60000, perDay(1))]),
		);
		expect(both.status).toBe('fulfilled');
		const verdicts = (both as PromiseFulfilledResult<Array<{ answer?: { verdict: string } }>>)
			.value;
		expect(verdicts.map((asked) => asked.answer?.verdict)).toEqual(['limited', 'limited']);
		// The key is free: with a larger limit it is sent.
		expect(await verdictOf(a, 'order-1', perDay(2))).toBe('send');
	});
});
