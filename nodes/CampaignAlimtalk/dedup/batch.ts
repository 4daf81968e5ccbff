/**
 * The store work of every execution of one process on one row of keys, in rounds: a round takes
 * every claim asked, confirmation and release queued so far, by any execution, and writes them
 * with one record call and one remove call while the workflow's lock is held (rounds.ts). A
 * batch is named by the row it writes (two keyed nodes share the lock, never a batch) and exists
 * only while work waits: nothing outlives the executions that use it.
 */
import { storeError } from './errors';
import { findStarts } from './starts';
import type { Answer, KeyMarkers, Verdict } from './markers';
import { asked, claimed, KEYS_ROW_ENTRY, markersOf, takeBack, verdictOf } from './markers';
import type { StoreLimit } from './limit';
import { MAX_CALLS, Places } from './places';
import type { Lease, Row } from './rounds';
import { rowId, underLock } from './rounds';
import { bounded, DEFAULT_ENV } from './store-calls';
import { serviceCodeOf, withServiceCode } from '../../shared/codes';

export const STORE_FAILED_CODE = 'deduplicationStoreFailed';
/** At most this many values go in one remove call: n8n 2.41.1 removes one value at a time. */
const REMOVE_CHUNK = 250;

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
	/** Already in a round that failed: dropped (and its owner told) if the next one fails too. */
	retried: boolean;
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
	batchOf(row).writes.push({ owner, facts, removals, retried: false });
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

/** Of the round's asks, in order: a key claimed by an earlier ask of the same round is in flight for the later ones. */
function judge(
	markers: Array<KeyMarkers | undefined>,
	isNew: (value: string) => boolean,
): Verdict[] {
	const claims = new Set<string>();
	return markers.map((entry) => {
		if (!entry) return 'send';
		const fresh = (value: string) => isNew(value) && !claims.has(value);
		const verdict = verdictOf(entry, fresh);
		if (verdict === 'send') claims.add(entry.claim);
		return verdict;
	});
}

/** Runs one store call: inside the lease (the round's work) or only bounded in time (its undo). */
type Via = <T>(call: () => Promise<T>) => Promise<T>;

/** Removes `values` in calls of at most REMOVE_CHUNK. */
async function removeAll(via: Via, row: Row, values: string[]): Promise<void> {
	const mode = { mode: 'entries' as const };
	for (let at = 0; at < values.length; at += REMOVE_CHUNK) {
		const chunk = values.slice(at, at + REMOVE_CHUNK);
		await via(async () => await row.ctx.helpers.removeProcessed(chunk, row.scope, mode));
	}
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

/** What a round knows of what it recorded: its new values, and whether a call's result is unknown. */
interface Recorded {
	taken?: Taken;
	/** Values the round's record calls found new (its claims, probes and places). */
	added: string[];
	/** A record call failed: it may still have written. */
	unknown: boolean;
	/** What a call the round gave up on found new when its answer came late (while the lock was kept for it). */
	late: string[];
}

/** One record call on the row of keys, with room for what it adds (its probes push out no older entry); the values found new. */
async function record(
	lease: Lease,
	row: Row,
	values: string[],
	historySize: number,
	recorded: Recorded,
): Promise<Set<string>> {
	recorded.unknown = true;
	let given = false;
	const result = await lease.call(async () => {
		const running = row.ctx.helpers.checkProcessedAndRecord(values, row.scope, {
			mode: 'entries',
			maxEntries: historySize + values.length,
		});
		// An answer after the round gave up on the call still says what it added (failed()).
		running.then(
			(late) => (given ? undefined : recorded.late.push(...late.new.map(String))),
			() => undefined,
		);
		return await running;
	});
	given = true;
	recorded.unknown = false;
	return new Set(result.new.map(String));
}

/**
 * Gives the send limit's places to the asks judged `send` (places.ts): from the slots the
 * round's first call asked about, then from further calls when those were not enough. An ask
 * left without one becomes `limited`.
 */
async function givePlaces(
	places: Places,
	verdicts: Verdict[],
	more: (values: string[]) => Promise<Set<string>>,
): Promise<void> {
	let waiting = places.give(
		verdicts.map((_, n) => n).filter((n) => verdicts[n] === 'send' && places.limited(n)),
	);
	for (let call = 1; waiting.length > 0 && call <= MAX_CALLS; call++) {
		const values = places.probe(waiting, call === MAX_CALLS);
		if (values.length === 0) break;
		const fresh = await more(values);
		places.note(values, (value) => fresh.has(value));
		waiting = places.give(waiting);
	}
	for (const n of waiting) verdicts[n] = 'limited';
}

/** The store work of one round, under the lock: record, judge, give places, take back. */
async function work(row: Row, batch: Batch, lease: Lease, recorded: Recorded): Promise<Answer[]> {
	const { asks, writes, historySize } = (recorded.taken = take(row, batch));
	// The round's one clock: two asks of one round never straddle a slot or a period.
	const now = Date.now();
	const markers = asks.map((entry) =>
		entry.key === undefined ? undefined : markersOf(entry.key, now),
	);
	const probes = markers.flatMap((entry) => (entry ? asked(entry) : []));
	// The send limit's places (places.ts): a few slots in the same call.
	const places = new Places(
		asks.map((entry) => entry.limit),
		now,
	);
	const slots = places.probe(asks.map((_, n) => n).filter((n) => places.limited(n)));
	const facts = new Set(writes.flatMap((entry) => entry.facts));
	const add = [...new Set([KEYS_ROW_ENTRY, ...facts, ...probes, ...slots])];
	const fresh = add.length > 1 ? await record(lease, row, add, historySize, recorded) : new Set();
	// A value this round takes back (a release, a confirmation, a failed round's values) is
	// judged as gone already: a key released in the round is free, a confirmed one is sent.
	const removals = new Set(writes.flatMap((entry) => entry.removals));
	const isNew = (value: string) => (fresh.has(value) || removals.has(value)) && !facts.has(value);
	recorded.added.push(...probes.filter(isNew));
	places.note(slots, isNew);
	const verdicts = judge(markers, isNew);
	await givePlaces(places, verdicts, async (values) => {
		const found = await record(lease, row, values, historySize, recorded);
		return found;
	});
	recorded.added.push(...places.added);
	const remove = new Set([...removals, ...places.takeBack()]);
	const keep = new Set<string>();
	markers.forEach((entry, n) => {
		if (!entry) return;
		for (const value of takeBack(entry, verdicts[n], isNew)) remove.add(value);
		if (verdicts[n] === 'send') claimed(entry).forEach((value) => keep.add(value));
	});
	for (const value of [...keep, ...facts]) remove.delete(value);
	for (const slot of places.slots) if (slot !== undefined) remove.delete(slot);
	const inLease: Via = async (call) => await lease.call(call);
	await removeAll(inLease, row, [...remove]);
	const answers: Answer[] = verdicts.map((verdict, n) => ({
		verdict,
		markers: markers[n],
		slot: places.slots[n],
		resetsAt: places.resetsAt(n),
	}));
	const removeProbes = async (values: string[]) => await removeAll(inLease, row, values);
	const longest = asks.map((entry) => entry.longestMs);
	const leftBehind = (values: string[]) => takeBackLater(row, values);
	await findStarts(lease, row, answers, longest, now, historySize, removeProbes, leftBehind);
	return answers;
}

/** Values a call that failed may have left (a start lookup's probes): the next round takes them back, once. */
function takeBackLater(row: Row, values: string[]): void {
	const next = batchOf(row);
	next.writes.push({ owner: {}, facts: [], removals: values, retried: true });
	queueRound(row, next);
}

async function round(row: Row, batch: Batch): Promise<void> {
	const recorded: Recorded = { added: [], unknown: false, late: [] };
	try {
		const answers = await underLock(
			row.ctx,
			row.scope,
			async (lease) => await work(row, batch, lease, recorded),
			async () => {
				// The round was not exclusive (its lease is over): its claims are taken back, and
				// nothing of them is sent.
				const bound: Via = async (call) => await bounded(DEFAULT_ENV, call);
				if (recorded.added.length > 0) await removeAll(bound, row, recorded.added);
			},
		);
		// The answers are given only once the round was exclusive to the end (rounds.ts).
		recorded.taken?.asks.forEach((entry, n) => entry.settle({ answer: answers[n] }));
		recorded.taken?.waiters.forEach((waiter) => waiter.resolve());
	} catch (error) {
		failed(row, batch, recorded, error);
	}
}

/** A round that failed: its asks get the error, its writes are tried once more, then dropped. */
function failed(row: Row, batch: Batch, recorded: Recorded, error: unknown): void {
	const wrapped = storeError(row.ctx.getNode(), error);
	if (serviceCodeOf(wrapped) === undefined) withServiceCode(wrapped, STORE_FAILED_CODE);
	// Without `taken` the lock was never taken: nothing of what waits was written.
	const { taken, added } = recorded;
	const { asks, waiters, writes } = taken ?? take(row, batch);
	const mayRemain = taken !== undefined && (recorded.unknown || added.length > 0);
	asks.forEach((entry) => entry.settle({ error: wrapped, claimMayRemain: mayRemain }));
	waiters.forEach((waiter) => waiter.reject(wrapped));
	for (const entry of writes) if (entry.retried) entry.owner.lost = wrapped;
	const again = writes.filter((entry) => !entry.retried);
	// Nothing of this round is sent: what its record calls added (claims, probes, places), known
	// from their answers, late ones too, is taken back in the next round, like a write of its own.
	const facts = new Set([KEYS_ROW_ENTRY, ...writes.flatMap((entry) => entry.facts)]);
	const back = [...new Set([...added, ...recorded.late.filter((value) => !facts.has(value))])];
	if (back.length > 0) again.push({ owner: {}, facts: [], removals: back, retried: false });
	if (again.length === 0) return;
	const next = batchOf(row);
	next.writes.push(...again.map((entry) => ({ ...entry, retried: true })));
	queueRound(row, next);
}
