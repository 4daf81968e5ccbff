/**
 * When a process runs its next lock round (rounds.ts), replayed on a fake clock: at once while
 * its work keeps coming (a streak), after the fairness pause once a round took longer than that
 * pause. Before streaks, every round was followed by the pause, which one execution's own sends
 * paid for (docs/performance.md: 19 ms an item at concurrency 5).
 */
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/lock';
import { reacquireGapMs } from '../../../nodes/CampaignAlimtalk/store/queue';
import {
	CONTEXT,
	LOCK_ROW_ID,
	lockRow,
	processCopy,
	race,
	raceFixture,
	settle,
	staleCreate,
} from './support';

raceFixture();

/** One process holds the lock for `firstMs`, then, as soon as that work is done, for 10 ms more. */
async function twoRoundsInARow(firstMs: number): Promise<{ gapMs: number }> {
	const worker = processCopy('worker');
	const entered: number[] = [];
	const mark = async () => {
		entered.push(Date.now());
	};
	const result = await settle(
		(async () => {
			await worker.hold(firstMs, mark);
			await worker.hold(10, mark);
		})(),
	);
	expect(result.status).toBe('fulfilled');
	expect(race.entries).toEqual(['worker', 'worker']);
	expect(race.overlaps).toEqual([]);
	return { gapMs: entered[1] - (entered[0] + firstMs) };
}

describe('lock rounds of one process', () => {
	it('work queued right after a short round runs in the next round at once, not after the pause', async () => {
		const { gapMs } = await twoRoundsInARow(10);
		// The release and the next acquire (a few store calls of 1 ms each), never the pause.
		expect(gapMs).toBeLessThan(reacquireGapMs(0));
	});

	it('after a round longer than the pause, the next round waits for the pause (a waiter gets its turn)', async () => {
		const { gapMs } = await twoRoundsInARow(reacquireGapMs(0) + 100);
		expect(gapMs).toBeGreaterThanOrEqual(reacquireGapMs(0));
	});

	it("keeps the lock through a streak: another process's create that read the row in one round and writes it back late leaves the next round exclusive", async () => {
		// Window 8 of docs/deduplication.md: a waiter's create that finds the row rewrites it whole
		// with what it read. Before, a streak let go and took the lock again between rounds, so
		// such a write landed on a new lock of another size: the next round failed ("landed late")
		// or left the row behind.
		const worker = processCopy('worker');
		let inSecond: () => void = () => undefined;
		const secondEntered = new Promise<void>((resolve) => (inSecond = resolve));
		let stale: Promise<unknown> | undefined;
		let second: Promise<unknown> | undefined;
		const held: string[] = [];
		const first = worker.hold(10, async () => {
			race.store.beforeWrite = async (id) => {
				race.store.beforeWrite = undefined;
				held.push(id);
				await secondEntered;
			};
			const copies = Array.from({ length: 3 }, () => LOCK_ENTRY);
			stale = race.store.checkProcessedAndRecord(copies, 'workflow', CONTEXT, { mode: 'entries' });
			// Queued while the first round runs: the next round of the streak.
			second = worker.hold(50, async () => inSecond());
		});
		const result = await settle(
			(async () => {
				await first;
				await second;
				await stale;
			})(),
		);
		// The other process's write on the lock's row was held between its read and its write.
		expect(held).toEqual([LOCK_ROW_ID]);
		expect(result.status).toBe('fulfilled');
		expect(race.entries).toEqual(['worker', 'worker']);
		expect(race.overlaps).toEqual([]);
		expect(lockRow()).toBeUndefined();
	});

	// Window 5 with no fault (traced in real queue mode, docs/performance.md): a waiter's create that read the
	// row while this holder had it writes it back whole after the holder let go and, its streak
	// going on, made the lock again. The release that finds it rewritten cleans and deletes it
	// (lock.rewritten.test.ts has the same from two processes); before, it was left to a takeover
	// 30 s later. The simulation's queue shape meets it too (sim-suite.ts, QUEUE_SEEDS).
	it('a create that lost the race and writes the row back after its holder let go and took the lock again at once (no fault): the next round succeeds and releases the lock', async () => {
		const worker = processCopy('worker');
		let landNow: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (landNow = resolve));
		let stale: Promise<unknown> | undefined;
		const first = worker.hold(10, async () => {
			// Another process's create that read the row now (the lock is this holder's): it finds
			// the row, so n8n writes back what it read, once its slow statement goes through.
			stale = staleCreate(gate);
		});
		// Work queued just after the release: the streak takes the lock again at once.
		const second = first.then(async () => {
			await worker.hold(50, async () => {
				landNow();
				await stale;
			});
		});
		const result = await settle(second);
		expect(result.status).toBe('fulfilled');
		expect(race.entries).toEqual(['worker', 'worker']);
		expect(lockRow()).toBeUndefined();
	});

	it('does not keep a lock whose row changed during the round: that round fails, the next one takes the lock afresh', async () => {
		// Work is waiting, so the streak would keep the lock; but another process's copies landed
		// in its row (as in lock.races.test.ts): the count is not the holder's, so the round is
		// judged as a release judges it.
		const worker = processCopy('worker');
		let second: Promise<unknown> | undefined;
		const first = worker.hold(10, async () => {
			const row = ['workflow', CONTEXT] as const;
			await race.store.clearAllProcessedItems(...row);
			const copies = Array.from({ length: 30 }, () => LOCK_ENTRY);
			await race.store.checkProcessedAndRecord(copies, ...row, { mode: 'entries' });
			second = worker.hold(10);
		});
		const firstResult = await settle(first);
		const secondResult = await settle((async () => await second)());
		expect(firstResult).toMatchObject({
			status: 'rejected',
			reason: { message: expect.stringMatching(/landed late/) },
		});
		expect(secondResult.status).toBe('fulfilled');
		expect(race.entries).toEqual(['worker', 'worker']);
		expect(race.overlaps).toEqual([]);
		expect(lockRow()).toBeUndefined();
	});
});
