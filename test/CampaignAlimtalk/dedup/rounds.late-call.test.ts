/**
 * A store call the node gave up on may still land (docs/deduplication.md,
 * "The engine", `LATE_CALL_MS`): the lock is kept, with its heartbeat, until that call settled, so that its late whole-row
 * write cannot erase what the next holder recorded. Replayed on a fake clock with a store whose
 * call is slowed between its read and its write (support.ts, dedup-store.ts `beforeWrite`).
 */
import { markersOf } from '../../../nodes/CampaignAlimtalk/key/markers';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay } from '../../support/node';
import { KEYS_ROW_ID, keysRow, processCopy, race, raceFixture, settle } from './support';

raceFixture();

/** Slows the next write of the row of keys by `ms` (after its read); resolves `reached` when it waits. */
function slowNextKeysWrite(ms: number) {
	const slowed = { reached: false, landed: false };
	race.store.beforeWrite = async (id) => {
		if (id !== KEYS_ROW_ID || slowed.reached) return;
		slowed.reached = true;
		await delay(ms);
		slowed.landed = true;
	};
	return slowed;
}

const claimOf = (key: string) => ProcessedDataStore.hash(markersOf(key, Date.now()).claim);

describe('a store call given up on that lands late', () => {
	it('a record call slowed past its bound: the next holder’s claim survives it, and a redelivery is not sent', async () => {
		const [a, b] = [processCopy('A'), processCopy('B')];
		await settle(a.ask('order-0')); // the row of keys exists (a later write is an update)
		const slowed = slowNextKeysWrite(20000); // far beyond the 8 s bound of one store call
		const first = a.ask('order-1');
		for (let ms = 0; ms < 5000 && !slowed.reached; ms += 10)
			await jest.advanceTimersByTimeAsync(10);
		expect(slowed.reached).toBe(true); // A's record call read the row and waits to write it
		expect(await settle(first)).toMatchObject({
			status: 'fulfilled',
			value: { error: expect.anything() },
		});
		const second = await settle(b.ask('order-2')); // B claims order-2
		expect(second).toMatchObject({ status: 'fulfilled', value: { answer: { verdict: 'send' } } });
		await settle(delay(30000)); // everything that may land has landed
		expect(slowed.landed).toBe(true); // the fault fired: A's late write landed
		expect(keysRow()).toContain(claimOf('order-2'));
		const again = await settle(b.ask('order-2'));
		expect(again).toMatchObject({ status: 'fulfilled' });
		expect((again as { value: { answer: { verdict: string } } }).value.answer.verdict).not.toBe(
			'send',
		);
	});

	it('a remove call slowed past its bound: the next holder’s claim survives it', async () => {
		const [a, b] = [processCopy('A'), processCopy('B')];
		await settle(a.ask('order-0'));
		// A's round: its record call lands, its remove call (taking back order-0's probes) is slow.
		let writes = 0;
		const slowed = { landed: false };
		race.store.beforeWrite = async (id) => {
			if (id !== KEYS_ROW_ID || ++writes !== 2) return;
			await delay(20000);
			slowed.landed = true;
		};
		// Tried again within the round (the lock held: the try that gave up may still land).
		expect(await settle(a.ask('order-0'))).toMatchObject({ status: 'fulfilled' });
		const second = await settle(b.ask('order-2'));
		expect(second).toMatchObject({ value: { answer: { verdict: 'send' } } });
		await settle(delay(30000));
		expect(slowed.landed).toBe(true);
		expect(keysRow()).toContain(claimOf('order-2'));
	});
});
