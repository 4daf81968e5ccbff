/**
 * The deduplication lock's races, replayed exactly on a fake clock (lock-harness.ts).
 */
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/lock';
import { ProcessedDataStore } from '../../support/dedup-store';
import { CONTEXT, lockRow, processCopy, race, raceFixture, settle } from './support';

raceFixture();

describe('the deduplication lock under contention', () => {
	/** One holder's round during which `write` lands in the lock row; whether the round was undone. */
	async function holdWhile(write: () => Promise<void>) {
		return { result: await settle(processCopy('holder').hold(50, write)) };
	}

	it('several waiters taking over a dead lock at once: one holder at a time', async () => {
		await settle(
			race.store.checkProcessedAndRecord([LOCK_ENTRY, LOCK_ENTRY], 'workflow', CONTEXT, {
				mode: 'entries',
			}),
		); // its holder died
		const processes = ['A', 'B', 'C', 'D'].map(processCopy);
		const all = await settle(Promise.all(processes.map(async (p) => await p.hold(200))));
		expect(all.status).toBe('fulfilled');
		expect(race.overlaps).toEqual([]);
		expect(lockRow()).toBeUndefined();
	});

	it('a live holder slower than the stale time is never taken over', async () => {
		const [slow, waiter] = [processCopy('slow'), processCopy('waiter')];
		const first = slow.hold(45000);
		await jest.advanceTimersByTimeAsync(1000);
		const all = await settle(Promise.all([first, waiter.hold(100)]));
		expect(all.status).toBe('fulfilled');
		expect(race.overlaps).toEqual([]);
	});

	it("a stalled holder's release after a takeover leaves the new holder's lock alone", async () => {
		const [stalled, taker, late] = [
			processCopy('stalled'),
			processCopy('taker'),
			processCopy('late'),
		];
		// The first holder's database calls hang for 40 s from the moment it holds the lock.
		const first = stalled.hold(0, async () => {
			stalled.stallFor(40000);
			await stalled.ctx.helpers.getProcessedDataCount('node', { mode: 'entries' });
		});
		await jest.advanceTimersByTimeAsync(100);
		const second = taker.hold(30000);
		await jest.advanceTimersByTimeAsync(36000); // taken over after the stale time; the taker holds
		const stillHeld = lockRow();
		const third = late.hold(100);
		const all = await settle(Promise.all([first, second, third]));
		expect(all.status === 'rejected' ? String(all.reason) : 'fulfilled').toBe('fulfilled');
		expect(stillHeld).toBeDefined();
		// Only the stalled holder's own window (documented) may overlap: never the taker and the late one.
		expect(race.overlaps.filter((o) => !o.includes('stalled'))).toEqual([]);
	});

	it('data another node writes into the lock row while it is held is kept, and the round stops before sending', async () => {
		// n8n's Remove Duplicates node with scope "Workflow", in the same workflow, at this moment.
		const { result } = await holdWhile(async () => {
			await race.store.checkProcessedAndRecord(
				['order-from-remove-duplicates'],
				'workflow',
				CONTEXT,
				{ mode: 'entries' },
			);
		});
		expect(lockRow()).toEqual([ProcessedDataStore.hash('order-from-remove-duplicates')]);
		expect(result).toMatchObject({
			status: 'rejected',
			reason: {
				message: expect.stringMatching(/another node of this workflow keeps deduplication data/),
			},
		});
	});

	it("another process's lock copies written late over the held row: a store failure, not a conflict; no row left", async () => {
		// A create of another process that read the row before this lock existed lands now: n8n
		// rewrites the row whole, with that process's copies (a create writes at most 32).
		const { result } = await holdWhile(async () => {
			const row = ['workflow', CONTEXT] as const;
			await race.store.clearAllProcessedItems(...row);
			const copies = Array.from({ length: 30 }, () => LOCK_ENTRY);
			await race.store.checkProcessedAndRecord(copies, ...row, { mode: 'entries' });
		});
		expect(result).toMatchObject({
			status: 'rejected',
			reason: { message: expect.stringMatching(/deduplication store failed: .*landed late/) },
		});
		expect(String((result as { reason?: unknown }).reason)).not.toMatch(/another node/);
		expect(lockRow()).toBeUndefined();
	});

	it('an empty row is not a lock: two processes never both hold it', async () => {
		await settle(
			race.store.checkProcessedAndRecord(['someone'], 'workflow', CONTEXT, { mode: 'entries' }),
		);
		await settle(race.store.removeProcessed(['someone'], 'workflow', CONTEXT, { mode: 'entries' }));
		expect(lockRow()).toEqual([]);
		const processes = ['A', 'B'].map(processCopy);
		const all = await settle(Promise.all(processes.map(async (p) => await p.hold(50))));
		expect(all.status).toBe('fulfilled');
		expect(race.overlaps).toEqual([]);
	});

	it('a database error while taking the lock is reported as the store failing, not as another node', async () => {
		const holder = processCopy('holder');
		const busy = async () => {
			throw new Error('SQLITE_BUSY: database is locked');
		};
		Object.assign(holder.ctx.helpers, {
			checkProcessedAndRecord: busy,
			getProcessedDataCount: busy,
		});
		const result = await settle(holder.hold(10));
		expect(result).toMatchObject({
			status: 'rejected',
			reason: { message: expect.stringMatching(/deduplication store failed: SQLITE_BUSY/) },
		});
		expect(String((result as PromiseRejectedResult).reason.message)).not.toMatch(/another node/);
	});

	it('a passing database error while taking the lock is tried again', async () => {
		const holder = processCopy('holder');
		const real = holder.ctx.helpers.checkProcessedAndRecord;
		let failures = 1;
		Object.assign(holder.ctx.helpers, {
			checkProcessedAndRecord: async (...args: Parameters<typeof real>) => {
				if (failures-- > 0) throw new Error('Connection terminated unexpectedly');
				return await real(...args);
			},
		});
		expect(await settle(holder.hold(10))).toMatchObject({ status: 'fulfilled' });
		expect(lockRow()).toBeUndefined();
	});
});
