/**
 * The deduplication lock's races, replayed exactly: jest's fake clock drives every sleep and
 * every step of the faithful store (test/support/dedup-store.ts, one millisecond a step), and
 * chance is a fixed sequence. Each "process" is its own copy of the lock's modules, as two n8n
 * workers have. Every test runs `underLock` as the node does and watches who is inside.
 */
import type { DeduplicationScope, ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay } from '../../support/node';
import { mulberry32 } from '../../../sandbox/faults';

export const WF = 'race-workflow';
const NODE = {
	id: 'send-node',
	name: 'Send',
	type: 'campaignAlimtalk',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
export const CONTEXT = { workflow: { id: WF }, node: NODE } as never;
const LOCK_PATH = '../../nodes/CampaignAlimtalk/dedup/rounds';

type UnderLock = (
	ctx: IExecuteFunctions,
	scope: DeduplicationScope,
	work: () => Promise<unknown>,
	undo?: () => Promise<void>,
) => Promise<unknown>;

/** The state of one test: the store, who is inside the lock, and every overlap seen. */
export const race = {
	store: new ProcessedDataStore(),
	inside: [] as string[],
	overlaps: [] as string[],
	/** Every entry into the lock, in order. */
	entries: [] as string[],
};

/** A copy of the lock's modules, as another process has, with its own store calls (stallable). */
export function processCopy(name: string) {
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
				return await race.store.checkProcessedAndRecord(items, scope, CONTEXT, mode(o));
			},
			removeProcessed: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) => {
				await stall();
				await race.store.removeProcessed(items, scope, CONTEXT, mode(o));
			},
			clearAllProcessedItems: async (scope: DeduplicationScope) => {
				await stall();
				await race.store.clearAllProcessedItems(scope, CONTEXT);
			},
			getProcessedDataCount: async (scope: DeduplicationScope, o: ICheckProcessedOptions) => {
				await stall();
				return await race.store.getProcessedDataCount(scope, CONTEXT, mode(o));
			},
		},
	} as unknown as IExecuteFunctions;
	/** Holds the lock (key scope "node": the lock is the workflow's row) for `ms`, watched. */
	const hold = async (ms: number, during?: () => Promise<void>, undo?: () => Promise<void>) =>
		await (underLock as UnderLock)(
			ctx,
			'node',
			async () => {
				const { inside, overlaps } = race;
				if (inside.length > 0)
					overlaps.push(`${name} entered while ${inside.join(', ')} held the lock`);
				inside.push(name);
				race.entries.push(name);
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
export async function settle<T>(
	work: Promise<T>,
	limitMs = 300000,
): Promise<PromiseSettledResult<T>> {
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

export const lockRow = () => race.store.entries(WF, '');

/** Installs a fresh race (fake clock, fixed chance, a store of 1 ms steps) around every test. */
export function raceFixture(): void {
	beforeEach(() => {
		jest.useFakeTimers({ now: 1_700_000_000_000 });
		jest.spyOn(Math, 'random').mockImplementation(mulberry32(7)); // chance, as a fixed sequence
		race.store = new ProcessedDataStore();
		race.store.latency = { min: 1, max: 1 };
		race.inside = [];
		race.overlaps = [];
		race.entries = [];
	});
	afterEach(() => {
		jest.useRealTimers();
		jest.restoreAllMocks();
	});
}
