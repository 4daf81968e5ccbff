/**
 * The store work of every execution of one process on one row of keys, in rounds: a round takes
 * every claim asked, confirmation and release queued so far, by any execution, and writes them
 * with one record call and one remove call while the workflow's lock is held (rounds.ts). A
 * batch is named by the row it writes (two keyed nodes share the lock, never a batch) and exists
 * only while work waits: nothing outlives the executions that use it.
 */
import { storeError } from './errors';
import type { Answer } from './markers';
import { KEYS_ROW_ENTRY, laterTakeBack } from './markers';
import type { StoreLimit } from './limit';
import type { Row } from './rounds';
import { rowId, underLock } from './rounds';
import type { Recorded } from './work';
import { recordedNothing, removeChunks, work } from './work';
import { bounded, DEFAULT_ENV } from './store-calls';
import { serviceCodeOf, withServiceCode } from '../../shared/codes';

export const STORE_FAILED_CODE = 'deduplicationStoreFailed';
/** Writes (confirmations, releases, take-backs) are carried by at most this many rounds that fail. */
export const WRITE_TRIES = 3;
export { REMOVE_TRIES } from './work';

/** An ask's outcome: the answer, or the round's error and whether its claim may be in the store. */
export type Asked = { answer: Answer } | { error: unknown; claimMayRemain: boolean };

/** An execution's writes: told when a round that carried them failed for good. */
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
	/** Rounds that carried these writes and failed: after WRITE_TRIES, dropped (and the owner told). */
	tries: number;
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
	batchOf(row).writes.push({ owner, facts, removals, tries: 0 });
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

/** Hands `writes` to the next round of this process. */
function carry(row: Row, writes: Writes[]): void {
	if (writes.length === 0) return;
	const next = batchOf(row);
	next.writes.push(...writes);
	queueRound(row, next);
}

/** Values to take back in the next round, carried by at most `rounds` rounds. */
function takeBackNext(row: Row, values: string[], rounds: number): void {
	if (values.length > 0)
		carry(row, [{ owner: {}, facts: [], removals: values, tries: WRITE_TRIES - rounds }]);
}

async function round(row: Row, batch: Batch): Promise<void> {
	const recorded = recordedNothing();
	let taken: Taken | undefined;
	try {
		const answers = await underLock(
			row.ctx,
			row.scope,
			async (lease) => {
				taken = take(row, batch);
				return await work(row, taken, lease, recorded);
			},
			async () => {
				// The round was not exclusive (another node's data or a late write in the lock's
				// row): what it added is taken back at once, and nothing of it is sent.
				const mode = { mode: 'entries' as const };
				for (const chunk of removeChunks(takenBack(recorded, taken?.writes ?? [])))
					await bounded(
						DEFAULT_ENV,
						async () => await row.ctx.helpers.removeProcessed(chunk, row.scope, mode),
					);
			},
		);
		// The answers are given only once the round was exclusive to the end (rounds.ts).
		taken?.asks.forEach((entry, n) => entry.settle({ answer: answers[n] }));
		taken?.waiters.forEach((waiter) => waiter.resolve());
	} catch (error) {
		failed(row, taken ?? take(row, batch), taken !== undefined, recorded, error);
	}
	takeBackNext(row, recorded.leftBehind, 1);
}

/**
 * A round that failed: its asks get the error. Its writes go to the next round (dropped after
 * WRITE_TRIES), unless the round wrote them already; what it added is taken back there.
 */
function failed(row: Row, taken: Taken, locked: boolean, recorded: Recorded, error: unknown): void {
	const wrapped = storeError(row.ctx.getNode(), error);
	if (serviceCodeOf(wrapped) === undefined) withServiceCode(wrapped, STORE_FAILED_CODE);
	const { asks, waiters, writes } = taken;
	// Without the lock nothing of what waits was written.
	const mayRemain = locked && (recorded.unknown || recorded.added.length > 0);
	asks.forEach((entry) => entry.settle({ error: wrapped, claimMayRemain: mayRemain }));
	// Writes the round wrote are done: carrying them again after the lock could remove what, by
	// then, is another execution's.
	if (recorded.written) waiters.forEach((waiter) => waiter.resolve());
	else waiters.forEach((waiter) => waiter.reject(wrapped));
	const tried = recorded.written
		? []
		: writes.map((entry) => ({ ...entry, tries: entry.tries + 1 }));
	for (const entry of tried) if (entry.tries >= WRITE_TRIES) entry.owner.lost = wrapped;
	carry(
		row,
		tried.filter((entry) => entry.tries < WRITE_TRIES),
	);
	// Nothing of this round is sent: what it added is taken back in the next round, like a write
	// of its own.
	takeBackNext(row, takenBack(recorded, writes), WRITE_TRIES);
}

/**
 * What a round that failed takes back: what its record calls added (claims, probes, places),
 * known from their answers, late ones too. Not a `sent` probe beside a claim that stood (by then
 * maybe that claim's confirmation: `laterTakeBack`), nor the places it gave back itself (once its
 * remove call landed, another execution may hold them; one that did not land leaves them taken
 * for the period).
 */
function takenBack(recorded: Recorded, writes: Array<{ facts: string[] }>): string[] {
	const facts = new Set([KEYS_ROW_ENTRY, ...writes.flatMap((entry) => entry.facts)]);
	const late = recorded.late.filter((value) => !facts.has(value));
	const found = [...new Set([...recorded.added, ...late])];
	const freed = new Set(recorded.freed);
	return laterTakeBack(found, recorded.markers).filter((value) => !freed.has(value));
}
