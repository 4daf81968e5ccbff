/**
 * The deduplication lock's races, replayed exactly: jest's fake clock drives every sleep and
 * every step of the faithful store (test/support/dedup-store.ts, one millisecond a step), and
 * chance is a fixed sequence. Each "process" is its own copy of the lock's modules, as two n8n
 * workers have. Every test runs `underLock` as the node does and watches who is inside.
 */
import type { DeduplicationScope, ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { LOCK_ENTRY } from '../../nodes/CampaignAlimtalk/dedup/lock';
import { ProcessedDataStore } from '../support/dedup-store';
import { delay } from '../support/node';
import { mulberry32 } from '../../sandbox/faults';

const WF = 'race-workflow';
const NODE = {
	id: 'send-node',
	name: 'Send',
	type: 'campaignAlimtalk',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const CONTEXT = { workflow: { id: WF }, node: NODE } as never;
const LOCK_PATH = '../../nodes/CampaignAlimtalk/dedup/rounds';

type UnderLock = (
	ctx: IExecuteFunctions,
	scope: DeduplicationScope,
	work: () => Promise<unknown>,
	undo?: () => Promise<void>,
) => Promise<unknown>;

let store: ProcessedDataStore;
let inside: string[];
let overlaps: string[];

/** A copy of the lock's modules, as another process has, with its own store calls (stallable). */
function processCopy(name: string) {
	let underLock: UnderLock | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		underLock = (require(LOCK_PATH) as { underLock: UnderLock }).underLock;
	});
	const copy = { name, stallUntil: 0 };
	const stall = async () => {
		if (Date.now() < copy.stallUntil) await delay(copy.stallUntil - Date.now());
	};
	const mode = (options: ICheckProcessedOptions) => options;
	const ctx = {
		getWorkflow: () => ({ id: WF }),
		getNode: () => NODE,
		logger: { warn: () => undefined },
		helpers: {
			checkProcessedAndRecord: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) => {
				await stall();
				return await store.checkProcessedAndRecord(items, scope, CONTEXT, mode(o));
			},
			removeProcessed: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) => {
				await stall();
				await store.removeProcessed(items, scope, CONTEXT, mode(o));
			},
			clearAllProcessedItems: async (scope: DeduplicationScope) => {
				await stall();
				await store.clearAllProcessedItems(scope, CONTEXT);
			},
			getProcessedDataCount: async (scope: DeduplicationScope, o: ICheckProcessedOptions) => {
				await stall();
				return await store.getProcessedDataCount(scope, CONTEXT, mode(o));
			},
		},
	} as unknown as IExecuteFunctions;
	/** Holds the lock (key scope "node": the lock is the workflow's row) for `ms`, watched. */
	const hold = async (ms: number, during?: () => Promise<void>, undo?: () => Promise<void>) =>
		await (underLock as UnderLock)(
			ctx,
			'node',
			async () => {
				if (inside.length > 0)
					overlaps.push(`${name} entered while ${inside.join(', ')} held the lock`);
				inside.push(name);
				await during?.();
				await delay(ms);
				inside.splice(inside.indexOf(name), 1);
			},
			undo,
		);
	/** From now on, every database call of this process hangs for `ms`. */
	const stallFor = (ms: number) => {
		copy.stallUntil = Date.now() + ms;
	};
	return { name, ctx, hold, stallFor };
}

/** Advances the fake clock until `work` settles (or `limitMs` of fake time pass). */
async function settle<T>(work: Promise<T>, limitMs = 300000): Promise<PromiseSettledResult<T>> {
	let outcome: PromiseSettledResult<T> | undefined;
	void work.then(
		(value) => (outcome = { status: 'fulfilled', value }),
		(reason: unknown) => (outcome = { status: 'rejected', reason }),
	);
	const until = Date.now() + limitMs;
	while (!outcome && Date.now() < until) await jest.advanceTimersByTimeAsync(5);
	if (!outcome) throw new Error(`still running after ${limitMs} ms of fake time`);
	return outcome;
}

const lockRow = () => store.entries(WF, '');

beforeEach(() => {
	jest.useFakeTimers({ now: 1_700_000_000_000 });
	jest.spyOn(Math, 'random').mockImplementation(mulberry32(7)); // chance, as a fixed sequence
	store = new ProcessedDataStore();
	store.latency = { min: 1, max: 1 };
	inside = [];
	overlaps = [];
});
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

describe('the deduplication lock under contention', () => {
	it('several waiters taking over a dead lock at once: one holder at a time', async () => {
		await settle(
			store.checkProcessedAndRecord([LOCK_ENTRY, LOCK_ENTRY], 'workflow', CONTEXT, {
				mode: 'entries',
			}),
		); // its holder died
		const processes = ['A', 'B', 'C', 'D'].map(processCopy);
		const all = await settle(Promise.all(processes.map(async (p) => await p.hold(200))));
		expect(all.status).toBe('fulfilled');
		expect(overlaps).toEqual([]);
		expect(lockRow()).toBeUndefined();
	});

	it('a live holder slower than the stale time is never taken over', async () => {
		const [slow, waiter] = [processCopy('slow'), processCopy('waiter')];
		const first = slow.hold(45000);
		await jest.advanceTimersByTimeAsync(1000);
		const all = await settle(Promise.all([first, waiter.hold(100)]));
		expect(all.status).toBe('fulfilled');
		expect(overlaps).toEqual([]);
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
		expect(overlaps.filter((o) => !o.includes('stalled'))).toEqual([]);
	});

	it('data another node writes into the lock row while it is held is kept, and the round stops before sending', async () => {
		const holder = processCopy('holder');
		let undone = false;
		const result = await settle(
			holder.hold(
				50,
				async () => {
					// n8n's Remove Duplicates node with scope "Workflow", in the same workflow, at this moment.
					await store.checkProcessedAndRecord(
						['order-from-remove-duplicates'],
						'workflow',
						CONTEXT,
						{ mode: 'entries' },
					);
				},
				async () => {
					undone = true;
				},
			),
		);
		expect(lockRow()).toEqual([ProcessedDataStore.hash('order-from-remove-duplicates')]);
		expect(result).toMatchObject({
			status: 'rejected',
			reason: {
				message: expect.stringMatching(/another node of this workflow keeps deduplication data/),
			},
		});
		expect(undone).toBe(true);
	});

	it('an empty row is not a lock: two processes never both hold it', async () => {
		await settle(
			store.checkProcessedAndRecord(['someone'], 'workflow', CONTEXT, { mode: 'entries' }),
		);
		await settle(store.removeProcessed(['someone'], 'workflow', CONTEXT, { mode: 'entries' }));
		expect(lockRow()).toEqual([]);
		const processes = ['A', 'B'].map(processCopy);
		const all = await settle(Promise.all(processes.map(async (p) => await p.hold(50))));
		expect(all.status).toBe('fulfilled');
		expect(overlaps).toEqual([]);
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
