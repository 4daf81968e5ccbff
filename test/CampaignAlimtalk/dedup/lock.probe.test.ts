/**
 * A waiter's probe (one write that tells a lock from other data once a count stood still) that
 * runs just after the holder deleted the row (docs/deduplication.md, "The states of the lock"): it
 * must leave no empty lock row and raise no conflict. Replayed on a fake clock (support.ts).
 */
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/lock';
import { CONTEXT, lockRow, processCopy, race, raceFixture, settle } from './support';

raceFixture();

describe("a waiter's probe racing the holder's release", () => {
	it('the row deleted just before the probe: no empty row is left, no conflict, the waiter takes the lock', async () => {
		// A lock whose holder beats no more (a slow holder): its count stands still.
		await settle(
			race.store.checkProcessedAndRecord(
				[LOCK_ENTRY, LOCK_ENTRY, LOCK_ENTRY],
				'workflow',
				CONTEXT,
				{
					mode: 'entries',
				},
			),
		);
		const waiter = processCopy('waiter');
		const real = waiter.ctx.helpers.checkProcessedAndRecord;
		const seen = { probed: false, emptyRow: false };
		Object.assign(waiter.ctx.helpers, {
			checkProcessedAndRecord: async (...args: Parameters<typeof real>) => {
				const [items, scope] = args;
				if (!seen.probed && scope === 'workflow' && items.length === 1 && items[0] === LOCK_ENTRY) {
					seen.probed = true;
					// The holder's release lands just before the probe.
					await race.store.clearAllProcessedItems('workflow', CONTEXT);
				}
				return await real(...args);
			},
			removeProcessed: async (...args: Parameters<typeof waiter.ctx.helpers.removeProcessed>) => {
				await race.store.removeProcessed(args[0], args[1], CONTEXT, args[2]);
				if (lockRow()?.length === 0) seen.emptyRow = true;
			},
		});
		const held = await settle(waiter.hold(100));
		expect(seen.probed).toBe(true); // the fault fired
		expect(held.status).toBe('fulfilled');
		expect(seen.emptyRow).toBe(false);
		expect(race.entries).toEqual(['waiter']);
		expect(lockRow()).toBeUndefined();
	});
});
