/**
 * When a process runs its next lock round (rounds.ts), replayed on a fake clock: at once while
 * its work keeps coming (a streak), after the fairness pause once a round took longer than that
 * pause. Before streaks, every round was followed by the pause, which one execution's own sends
 * paid for (docs/performance.md: 19 ms an item at concurrency 5).
 */
import { reacquireGapMs } from '../../../nodes/CampaignAlimtalk/dedup/rounds';
import { processCopy, race, raceFixture, settle } from './support';

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
});
