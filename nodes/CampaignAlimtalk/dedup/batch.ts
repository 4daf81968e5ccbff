/**
 * The store work of every execution of one process on one row of keys, in rounds: a round takes
 * every claim asked, confirmation and release queued so far, by any execution, and writes them
 * with one record call and one remove call while the workflow's lock is held (rounds.ts). A
 * batch is named by the row it writes (two keyed nodes share the lock, never a batch) and exists
 * only while work waits: nothing outlives the executions that use it. A round writes only while
 * it holds the lock: what a failed round may have written stays, and nothing of it is tried again.
 */
import { storeError } from './errors';
import type { Answer } from './markers';
import type { StoreLimit } from './limit';
import type { Row } from './rounds';
import { rowId, underLock } from './rounds';
import type { Recorded } from './work';
import { recordedNothing, work } from './work';
import { serviceCodeOf, withServiceCode } from '../../shared/codes';

export const STORE_FAILED_CODE = 'deduplicationStoreFailed';
export { REMOVE_TRIES } from './work';

/** An ask's outcome: the answer, or the round's error and whether its claim may be in the store. */
export type Asked = { answer: Answer } | { error: unknown; claimMayRemain: boolean };

/** An execution's writes: told when the round that carried them failed (they may not be written). */
export interface Owner {
	lost?: unknown;
}

interface Ask {
	/** Undefined: an ask for a place of the send limit only. */
	key: string | undefined;
	longestMs: number;
	limit: StoreLimit | undefined;
	settle: (asked: Asked) => void;
}

interface Writes {
	owner: Owner;
	facts: string[];
	removals: string[];
}

interface Waiter {
	resolve: () => void;
	reject: (error: unknown) => void;
}

interface Batch {
	asks: Ask[];
	writes: Writes[];
	/** Executions waiting for a round that carries what they queued. */
	waiters: Waiter[];
	historySize: number;
	queued: boolean;
}

const batches = new Map<string, Batch>();

function batchOf(row: Row): Batch {
	const id = rowId(row.ctx, row.scope);
	let batch = batches.get(id);
	if (!batch) {
		batch = { asks: [], writes: [], waiters: [], historySize: 0, queued: false };
		batches.set(id, batch);
	}
	batch.historySize = Math.max(batch.historySize, row.historySize);
	return batch;
}

/**
 * Asks about one key in the next round (claiming it when it is free), and for a place of the
 * send limit when `limit` is given (limit.ts); without a key, for a place only.
 */
export async function ask(
	row: Row,
	key: string | undefined,
	longestMs: number,
	limit?: StoreLimit,
): Promise<Asked> {
	const batch = batchOf(row);
	const asked = new Promise<Asked>((settle) => batch.asks.push({ key, longestMs, limit, settle }));
	queueRound(row, batch);
	return await asked;
}

/** Queues values to record and to take back; the next round writes them. */
export function queue(row: Row, owner: Owner, facts: string[], removals: string[]): void {
	batchOf(row).writes.push({ owner, facts, removals });
}

/** Resolves once a round has written everything queued before this call. */
export async function flush(row: Row): Promise<void> {
	const batch = batchOf(row);
	const written = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
	queueRound(row, batch);
	await written;
}

function queueRound(row: Row, batch: Batch): void {
	if (batch.queued) return;
	batch.queued = true;
	void round(row, batch);
}

interface Taken {
	asks: Ask[];
	writes: Writes[];
	waiters: Waiter[];
	historySize: number;
}

function take(row: Row, batch: Batch): Taken {
	const taken = { ...batch };
	Object.assign(batch, { asks: [], writes: [], waiters: [], queued: false });
	batches.delete(rowId(row.ctx, row.scope));
	return taken;
}

async function round(row: Row, batch: Batch): Promise<void> {
	const recorded = recordedNothing();
	let taken: Taken | undefined;
	try {
		const answers = await underLock(row.ctx, row.scope, async (lease) => {
			taken = take(row, batch);
			return await work(row, taken, lease, recorded);
		});
		// The answers are given only once the round was exclusive to the end (rounds.ts).
		taken?.asks.forEach((entry, n) => entry.settle({ answer: answers[n] }));
		taken?.waiters.forEach((waiter) => waiter.resolve());
	} catch (error) {
		failed(row, taken ?? take(row, batch), taken !== undefined, recorded, error);
	}
}

/**
 * A round that failed: its asks get the error, and its writes are not tried again. Whatever it
 * may have written stays (a claim reads in flight, then unconfirmed): a later round writes after
 * the lock was let go, when the values may be another execution's (docs/deduplication.md). The
 * owners of writes it may not have written are told.
 */
function failed(row: Row, taken: Taken, locked: boolean, recorded: Recorded, error: unknown): void {
	const wrapped = storeError(row.ctx.getNode(), error);
	if (serviceCodeOf(wrapped) === undefined) withServiceCode(wrapped, STORE_FAILED_CODE);
	// Without the lock nothing of the round was written.
	const mayRemain = locked && (recorded.unknown || recorded.added.length > 0);
	taken.asks.forEach((entry) => entry.settle({ error: wrapped, claimMayRemain: mayRemain }));
	if (recorded.written) {
		taken.waiters.forEach((waiter) => waiter.resolve());
		return;
	}
	taken.waiters.forEach((waiter) => waiter.reject(wrapped));
	for (const entry of taken.writes) entry.owner.lost = wrapped;
}
