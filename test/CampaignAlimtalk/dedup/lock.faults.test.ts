/**
 * The deduplication lock under store faults, clock steps and contention
 * (docs/deduplication.md, "The states of the lock"), replayed exactly on a fake clock (lock-harness.ts). Each test failed on the lock
 * before its fix (CHANGELOG).
 */
import { HEARTBEAT_MS } from '../../../nodes/CampaignAlimtalk/store/holder';
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/lock';
import { STREAK_MS } from '../../../nodes/CampaignAlimtalk/store/queue';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay } from '../../support/node';
import { CONTEXT, lockRow, processCopy, race, raceFixture, settle } from './support';

raceFixture();

describe('the deduplication lock under faults', () => {
	it('a delete that committed but reported an error is not repeated: the next holder keeps its lock', async () => {
		const [first, second, third] = ['first', 'second', 'third'].map(processCopy);
		const realClear = first.ctx.helpers.clearAllProcessedItems;
		let failed = false;
		Object.assign(first.ctx.helpers, {
			clearAllProcessedItems: async (...args: Parameters<typeof realClear>) => {
				await realClear(...args);
				if (failed) return;
				failed = true; // the first delete commits, then its answer is lost
				await delay(1500); // meanwhile the next waiter creates its lock
				throw new Error('Connection terminated unexpectedly');
			},
		});
		const holds = [first.hold(100)];
		await jest.advanceTimersByTimeAsync(50);
		holds.push(second.hold(3000)); // takes the lock once the first deleted it
		await jest.advanceTimersByTimeAsync(750);
		holds.push(third.hold(100)); // waits for the second
		const all = await settle(Promise.allSettled(holds));
		expect(failed).toBe(true); // the fault fired: a delete landed and reported an error
		expect(all).toEqual({
			status: 'fulfilled',
			value: [
				{ status: 'fulfilled', value: undefined },
				{ status: 'fulfilled', value: undefined },
				{ status: 'fulfilled', value: undefined },
			],
		});
		expect(race.entries).toEqual(['first', 'second', 'third']);
		expect(race.overlaps).toEqual([]);
	});

	it('a wall-clock step while a holder works does not let a waiter take the lock over', async () => {
		const [holder, waiter] = [processCopy('holder'), processCopy('waiter')];
		const first = holder.hold(8000);
		await jest.advanceTimersByTimeAsync(1000);
		const second = waiter.hold(100);
		await jest.advanceTimersByTimeAsync(500);
		jest.setSystemTime(Date.now() + 120000); // an NTP step, a resumed virtual machine
		const all = await settle(Promise.all([first, second]));
		expect(all.status).toBe('fulfilled');
		expect(race.overlaps).toEqual([]);
	});

	it('a heartbeat that landed but reported an error is still the holder’s own: released, and the next round runs', async () => {
		const holder = processCopy('holder');
		const real = holder.ctx.helpers.checkProcessedAndRecord;
		let beatFailed = false;
		Object.assign(holder.ctx.helpers, {
			checkProcessedAndRecord: async (...args: Parameters<typeof real>) => {
				const result = await real(...args);
				if (String(args[0][0]).includes(':beat:0')) {
					beatFailed = true;
					throw new Error('Connection terminated unexpectedly');
				}
				return result;
			},
		});
		// Held for three heartbeats: the first one surely runs (and lands, and reports an error).
		expect(await settle(holder.hold(3 * HEARTBEAT_MS))).toMatchObject({ status: 'fulfilled' });
		expect(beatFailed).toBe(true);
		expect(lockRow()).toBeUndefined();
		expect(await settle(processCopy('next').hold(10))).toMatchObject({ status: 'fulfilled' });
	});

	it("another node's data written between the count of 0 and the lock's creation is never deleted", async () => {
		const holder = processCopy('holder');
		const real = holder.ctx.helpers.checkProcessedAndRecord;
		let wrote = false;
		Object.assign(holder.ctx.helpers, {
			checkProcessedAndRecord: async (...args: Parameters<typeof real>) => {
				if (!wrote && args[0][0] === LOCK_ENTRY) {
					wrote = true; // n8n's Remove Duplicates, scope "Workflow", at this very moment
					await race.store.checkProcessedAndRecord(['order-77'], 'workflow', CONTEXT, {
						mode: 'entries',
					});
				}
				return await real(...args);
			},
		});
		const result = await settle(holder.hold(10));
		expect(result).toMatchObject({
			status: 'rejected',
			reason: { message: expect.stringMatching(/another node of this workflow keeps/) },
		});
		expect(lockRow()).toEqual([ProcessedDataStore.hash('order-77')]);
	});

	it('a store call that never answers ends the wait with a store error instead of blocking the workflow', async () => {
		const holder = processCopy('holder');
		Object.assign(holder.ctx.helpers, {
			getProcessedDataCount: async () => await new Promise<number>(() => undefined),
		});
		const result = await settle(holder.hold(10), 120000);
		expect(result).toMatchObject({
			status: 'rejected',
			reason: { message: expect.stringMatching(/deduplication store failed/) },
		});
	});
});

describe('a heartbeat whose answer was lost', () => {
	it('landed, its answer and the count after it lost: still the holder’s own entry, the round stands and the row goes', async () => {
		const holder = processCopy('holder');
		const { checkProcessedAndRecord: record, getProcessedDataCount: count } = holder.ctx.helpers;
		const fault = { beatLanded: false, countFailed: false };
		Object.assign(holder.ctx.helpers, {
			checkProcessedAndRecord: async (...args: Parameters<typeof record>) => {
				const result = await record(...args);
				if (fault.beatLanded || !String(args[0][0]).includes(':beat:')) return result;
				fault.beatLanded = true; // the first heartbeat commits, then its answer is lost
				throw new Error('Connection terminated unexpectedly');
			},
			getProcessedDataCount: async (...args: Parameters<typeof count>) => {
				if (fault.beatLanded && !fault.countFailed) {
					fault.countFailed = true; // and so is the count that would tell
					throw new Error('Connection terminated unexpectedly');
				}
				return await count(...args);
			},
		});
		const result = await settle(holder.hold(HEARTBEAT_MS + 1000));
		expect(fault).toEqual({ beatLanded: true, countFailed: true }); // the faults fired
		expect(result).toEqual({ status: 'fulfilled', value: undefined });
		expect(lockRow()).toBeUndefined();
	});
});

describe('the deduplication lock under contention', () => {
	it('a waiter gets the lock after at most one streak of a busy process (STREAK_MS of rounds, then the one under way)', async () => {
		const [busy, waiter] = [processCopy('busy'), processCopy('waiter')];
		let stop = false;
		const loop = (async () => {
			// One execution after another, each with a short round, as a busy worker runs them.
			while (!stop) await busy.hold(100);
		})();
		await jest.advanceTimersByTimeAsync(50);
		const waited = waiter.hold(10).then(() => (stop = true));
		const all = await settle(Promise.all([loop, waited]), 120000);
		expect(all.status).toBe('fulfilled');
		const before = race.entries.indexOf('waiter');
		expect(before).toBeGreaterThan(0);
		// Rounds of 100 ms: the round under way, a streak's worth, and the one that ends it.
		expect(before).toBeLessThanOrEqual(STREAK_MS / 100 + 2);
		expect(race.overlaps).toEqual([]);
	});
});
