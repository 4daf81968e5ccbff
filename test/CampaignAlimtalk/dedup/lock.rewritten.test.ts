/**
 * A lock row rewritten under its holder (docs/deduplication.md, window 5: another process's create
 * that read the row before a release and a new lock, landing after them, writes back the old
 * lock's entries), found by the release or by the new lock's create, replayed on a fake clock. Traced
 * in real queue mode (docs/performance.md): the row was left to a takeover 30 s later when it held
 * fewer entries than the holder's, and emptied before its delete when it held more, which let
 * another process's create take the empty row as its own lock just before that delete.
 */
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/lock';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay } from '../../support/node';
import {
	LOCK_ROW_ID,
	lockRow,
	processCopy,
	race,
	raceFixture,
	settle,
	staleCreate,
} from './support';

raceFixture();

/** Rewrites the lock row whole with `entries` copies of the lock entry, as a late create's write does. */
function staleImage(entries: number): void {
	const row = race.store.rows.get(LOCK_ROW_ID);
	if (!row) throw new Error('no lock row to rewrite');
	row.data = Array.from({ length: entries }, () => ProcessedDataStore.hash(LOCK_ENTRY));
}

/**
 * A worker's first lock of `first` copies (2 or 32, by the chance it draws), its next of the other,
 * and another process's create that read the first lock's row, its write (the row, whole) held
 * until `land`.
 */
async function afterFirstLock(first: 2 | 32) {
	const [chanceFirst, chanceNext] = first === 32 ? [0.999, 0] : [0, 0.999];
	jest
		.spyOn(Math, 'random')
		.mockImplementation(() => (race.entries.length === 0 ? chanceFirst : chanceNext));
	const worker = processCopy('worker');
	let land: () => void = () => undefined;
	const mayLand = new Promise<void>((resolve) => (land = resolve));
	const stale: { write?: Promise<unknown> } = {};
	const held = await settle(worker.hold(10, async () => void (stale.write = staleCreate(mayLand))));
	expect(held.status).toBe('fulfilled');
	return { worker, stale, land };
}

describe('a lock row rewritten by lock entries under its holder (window 5): found by the release, or by a create', () => {
	it('with more entries than its own: the row is never left empty before its delete, so no waiter takes it as its lock', async () => {
		const [a, b, c] = ['A', 'B', 'C'].map(processCopy);
		// A's delete waits until B entered the lock (or 1 s): a busy process between its calls.
		const realClear = a.ctx.helpers.clearAllProcessedItems;
		Object.assign(a.ctx.helpers, {
			clearAllProcessedItems: async (...args: Parameters<typeof realClear>) => {
				for (let i = 0; i < 200 && !race.inside.includes('B'); i++) await delay(5);
				await realClear(...args);
			},
		});
		const holds = [a.hold(50, async () => staleImage((lockRow() ?? []).length + 3))];
		await jest.advanceTimersByTimeAsync(20);
		holds.push(b.hold(3000), c.hold(100));
		const all = await settle(Promise.allSettled(holds));
		expect(all.status).toBe('fulfilled');
		// Before: A's remove left the row empty, B's create wrote its copies into it and counted them
		// (held), A's delete then removed B's lock, and C created one of its own: B and C both inside.
		expect(race.overlaps).toEqual([]);
		expect([...race.entries].sort()).toEqual(['A', 'B', 'C']);
	});

	it('with fewer entries than its own: the row is released at once, not left to a takeover 30 s later', async () => {
		const [a, b] = ['A', 'B'].map(processCopy);
		const first = a.hold(50, async () => staleImage(1));
		await jest.advanceTimersByTimeAsync(20);
		const second = b.hold(10);
		expect((await settle(first)).status).toBe('fulfilled');
		// Before: left as it was, the row stood still until B took it over 30 s later.
		expect(lockRow()).toBeUndefined();
		expect((await settle(second)).status).toBe('fulfilled');
		expect(race.overlaps).toEqual([]);
	});

	it("with more entries, all of them the holder's own previous lock's (the write-back traced in real queue mode): the round is answered, the row deleted", async () => {
		// The first lock as large as a lock gets (32 copies), the next as small (2).
		const { worker, stale, land } = await afterFirstLock(32);
		const second = await settle(
			worker.hold(10, async () => {
				land();
				await stale.write;
				expect(lockRow()).toHaveLength(32); // the first lock's entries over the second's 2
			}),
		);
		// Before: the release found 32 entries where it wrote 2 and failed the round ("landed late").
		expect(second.status === 'rejected' ? String(second.reason) : 'fulfilled').toBe('fulfilled');
		expect(race.overlaps).toEqual([]);
		expect(lockRow()).toBeUndefined();
	});

	it("its own last lock written back between its next create and that create's count: the new lock is held at once, not left to a takeover 30 s later", async () => {
		// The first lock as small as a lock gets (2 copies), the next as large (32).
		const { worker, stale, land } = await afterFirstLock(2);
		// The stale write lands just after the next create's insert, before its count.
		const helpers = worker.ctx.helpers;
		const record = helpers.checkProcessedAndRecord.bind(helpers);
		Object.assign(helpers, {
			checkProcessedAndRecord: async (...args: Parameters<typeof record>) => {
				const result = await record(...args);
				if (args[1] === 'workflow' && stale.write) {
					land();
					await stale.write;
					stale.write = undefined;
				}
				return result;
			},
		});
		let rowInside: number | undefined;
		const second = await settle(worker.hold(10, async () => void (rowInside = lockRow()?.length)));
		expect(second.status === 'rejected' ? String(second.reason) : 'fulfilled').toBe('fulfilled');
		// Before: the create took the 2 entries for another process's write and waited; the row,
		// held by nobody, stood until its takeover 30 s later, and the worker entered a new row of 32.
		expect(rowInside).toBe(2);
		expect(race.overlaps).toEqual([]);
		expect(lockRow()).toBeUndefined();
	});
});
