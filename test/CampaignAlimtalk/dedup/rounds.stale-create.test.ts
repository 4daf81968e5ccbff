/**
 * Issue 57, finding 3, as traced in real queue mode (bench/dedup-copies.mjs, /work/helpers/traces):
 * a waiter's create that read the lock row of one round writes it back whole after the holder
 * released it and made it again for its next round (n8n's record call finds the row, then updates
 * it with what it read). No fault: only a slow record call.
 */
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/lock';
import { CONTEXT, lockRow, processCopy, race, raceFixture, settle } from './support';

raceFixture();

describe('a lock round after a stale create write', () => {
	it("another process's create that read the last round's lock and lands on the next round's: that round is answered and its lock is not left behind", async () => {
		const worker = processCopy('worker');
		let land: () => void = () => undefined;
		const mayLand = new Promise<void>((resolve) => (land = resolve));
		let stale: Promise<unknown> | undefined;
		const first = await settle(
			worker.hold(10, async () => {
				race.store.beforeWrite = async () => {
					race.store.beforeWrite = undefined;
					await mayLand;
				};
				const copies = Array.from({ length: 3 }, () => LOCK_ENTRY);
				stale = race.store.checkProcessedAndRecord(copies, 'workflow', CONTEXT, {
					mode: 'entries',
				});
			}),
		);
		expect(first.status).toBe('fulfilled');
		expect(lockRow()).toBeUndefined(); // released: the stale write still waits
		const second = await settle(
			worker.hold(10, async () => {
				land();
				await stale;
			}),
		);
		expect(second.status === 'rejected' ? String(second.reason) : 'fulfilled').toBe('fulfilled');
		expect(race.overlaps).toEqual([]);
		expect(lockRow()).toBeUndefined();
	});
});
