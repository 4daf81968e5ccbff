/**
 * A lock across processes on n8n's deduplication store, for one workflow (README, "Sending once
 * across executions"; the reasoning in docs/deduplication.md).
 *
 * The store has no conditional write: one row per workflow and scope, rewritten whole by every
 * call. Its one atomic step is creating a row (a second insert of the same row fails), so the
 * lock is a row that holds nothing but copies of LOCK_ENTRY: the call that creates it holds it.
 * - Created with a random number of copies (2 to 32): an insert returns every copy as new, a
 *   call that found the row returns at most one, so the holder knows it created the row, and
 *   two locks in a row rarely have the same size.
 * - The holder keeps a heartbeat (one more entry every HEARTBEAT_MS), so its entry count changes
 *   while it is alive. A waiter only reads the count (`getProcessedDataCount`), and takes the
 *   lock over only after the count stood still for STALE_LOCK_MS.
 * - A holder whose last heartbeat is older than LEASE_MS (far less than STALE_LOCK_MS) starts no
 *   more work, and deletes the row on release only when the count is still its own.
 * - A row that holds other data (another node's keys) is never deleted: that is a conflict,
 *   reported before anything is sent. An empty row is not a lock: it is removed, then created.
 */
import type { DeduplicationScope, INode } from 'n8n-workflow';
import { conflictError, storeError } from './store-errors';
import { Holder, LEASE_MS, LOCK_ENTRY } from './holder';
import type { LockEnv, LockStore } from './store-calls';
import { read, write } from './store-calls';

export { Holder, LATE_CALL_MS, LEASE_MS, LOCK_ENTRY } from './holder';
export type { LockEnv, LockStore } from './store-calls';
export { bounded, DEFAULT_ENV } from './store-calls';

/** A lock whose entry count stood still this long is taken as left behind by a dead process. */
export const STALE_LOCK_MS = 30000;
/** A count that stood still this long is probed once (a write) to tell a lock from other data. */
export const FOREIGN_CHECK_MS = 5000;
/** Before taking over, a waiter waits a random time up to this, then looks again. */
export const TAKEOVER_JITTER_MS = 1000;
const POLL_MIN_MS = 10;
/** A waiter looks at the lock at least this often (randomly up to twice as long). */
export const POLL_MAX_MS = 50;
const MAX_COPIES = 32;

/** `suspect`: the row held someone else's data too; this call's copies are in it beside that data. */
type Created = 'held' | 'busy' | 'notLock' | { suspect: number };

/** One try to create the lock row; `held` only when the row is this call's, copy for copy. */
async function create(
	store: LockStore,
	env: LockEnv,
	node: INode,
	copies: number,
): Promise<Created> {
	const values = Array.from({ length: copies }, () => LOCK_ENTRY);
	// A unique-key error: another process created the row first.
	const result = await write<{ new: unknown[] } | 'busy'>(
		env,
		node,
		async () => await store.record(values),
		{ onUnique: () => 'busy', repeatable: true },
	);
	if (result === 'busy' || result.new.length === 0) return 'busy'; // no new entry: the row holds someone's lock
	if (result.new.length < copies) {
		// Only n8n lines that check repeats within a call get here: the row existed without the lock entry.
		await write(env, node, async () => await store.remove([LOCK_ENTRY]));
		return 'notLock';
	}
	// An insert and a write to an existing empty row look alike: the count tells whether another
	// process wrote the row at the same moment (its own number of copies).
	const count = await read(env, node, store.count);
	if (count === copies) return 'held';
	if (count < copies) return 'busy'; // another process's write replaced this one's
	// More than its own: data reached the row between the count and the write (another node's,
	// n8n 2.41.1 counting every copy as new), or another process's copies replaced these. Which
	// one shows once the row stands still (acquire).
	return { suspect: count };
}

/**
 * An empty row seen: one try to create the lock, another size than the last lock seen
 * (`lastLock`). `busy`: another process created it; `suspect`: this one's copies are beside other
 * data; `other`: the row held other data (cleared when it is this node's own, else a conflict).
 */
async function tryCreate(
	store: LockStore,
	env: LockEnv,
	node: INode,
	lockScope: DeduplicationScope,
	lastLock: number,
): Promise<Holder | { suspect: { count: number; copies: number } } | 'busy' | 'other'> {
	let copies = 2 + Math.floor(env.random() * (MAX_COPIES - 1));
	if (copies === lastLock) copies = copies === MAX_COPIES ? 2 : copies + 1;
	const startedAt = env.now();
	const created = await create(store, env, node, copies);
	if (created === 'held') return new Holder(store, env, copies, startedAt);
	if (typeof created === 'object') return { suspect: { count: created.suspect, copies } };
	if (created === 'busy') return 'busy';
	if ((await read(env, node, store.count)) === 0)
		await write(env, node, store.clear); // an empty row is not a lock
	else await notLock(store, env, node, lockScope);
	return 'other';
}

export interface AcquireOptions {
	/** Stop waiting after this long (a live holder that never lets go, a database that never answers). */
	deadlineMs: number;
}

export const ACQUIRE_DEADLINE_MS = 120000;

/**
 * Waits for the lock and takes it, for up to `deadlineMs`. `lockScope` decides what a row of
 * other data means: this node's own old keys (scope "node": cleared, the node uses that row as
 * its lock now) or another node's data in the workflow's shared record (a conflict: stop before
 * sending).
 */
export async function acquire(
	store: LockStore,
	env: LockEnv,
	node: INode,
	lockScope: DeduplicationScope,
	options: AcquireOptions = { deadlineMs: ACQUIRE_DEADLINE_MS },
): Promise<Holder> {
	const started = env.now();
	let last = -1;
	let lastLock = 0; // a new lock is made another size than the last seen: everyone sees the change
	let changedAt = env.now();
	let probed = false;
	let suspect: { count: number; copies: number } | undefined; // this process's copies beside other data
	let pause = POLL_MIN_MS;
	const seen = (count: number) => {
		if (count !== last) {
			last = count;
			changedAt = env.now();
			probed = false;
		}
		if (count > 0) lastLock = count;
	};
	for (;;) {
		if (env.now() - started >= options.deadlineMs) throw busyError(node, options.deadlineMs);
		const count = await read(env, node, store.count);
		seen(count);
		if (count === 0) {
			const tried = await tryCreate(store, env, node, lockScope, lastLock);
			if (tried instanceof Holder) return tried;
			if (typeof tried === 'object') suspect = tried.suspect;
			if (tried !== 'other') changedAt = env.now(); // a new holder: the lock is alive
		} else if (
			suspect !== undefined &&
			suspect.count === count &&
			env.now() - changedAt >= FOREIGN_CHECK_MS
		) {
			// Nobody beats in the row this process wrote its copies into beside other data: they go,
			// the data stays, and the next look tells what that data is.
			const own = Array.from({ length: suspect.copies }, () => LOCK_ENTRY);
			suspect = undefined;
			await write(env, node, async () => await store.remove(own));
			last = -1;
			continue;
		} else if (!probed && env.now() - changedAt >= FOREIGN_CHECK_MS) {
			// The count stood still: a dead or slow holder, or a row of other data. One write tells.
			probed = true;
			const result = await write(env, node, async () => await store.record([LOCK_ENTRY]));
			if (result.new.length > 0) await notLockUnlessGone(store, env, node, lockScope);
			if (result.new.length > 0) last = -1;
		} else if (env.now() - changedAt >= STALE_LOCK_MS) {
			await env.sleep(Math.floor(env.random() * TAKEOVER_JITTER_MS));
			// Only a row that still stands where it stood is taken over: a change is a live holder.
			if ((await read(env, node, store.count)) === count) await write(env, node, store.clear);
			last = -1;
			continue;
		}
		await env.sleep(pause + Math.floor(env.random() * pause));
		pause = Math.min(POLL_MAX_MS, pause * 2);
	}
}

function busyError(node: INode, waitedMs: number) {
	return storeError(
		node,
		`the deduplication lock stayed taken for ${Math.round(waitedMs / 1000)} s`,
		'Nothing was sent. Another execution of this workflow held the lock all that time, or the database did not answer; run the workflow again.',
	);
}

/**
 * A probe found its entry new: the row holds other data, or it was deleted just before the probe
 * (its holder let go) and the probe made it again. Only the probe's entry in it: the row is
 * deleted again (no empty row is left, and no conflict is raised); else the probe's entry goes
 * and the other data is a conflict.
 */
async function notLockUnlessGone(
	store: LockStore,
	env: LockEnv,
	node: INode,
	lockScope: DeduplicationScope,
): Promise<void> {
	if ((await read(env, node, store.count)) === 1) {
		await write(env, node, store.clear);
		return;
	}
	await write(env, node, async () => await store.remove([LOCK_ENTRY]));
	await notLock(store, env, node, lockScope);
}

/** A row of other data where the lock belongs. */
async function notLock(
	store: LockStore,
	env: LockEnv,
	node: INode,
	lockScope: DeduplicationScope,
): Promise<void> {
	if (lockScope === 'workflow') throw conflictError(node, lockScope);
	// This node's own row, holding the keys it kept while its scope was "This Node": they are not
	// read under scope "Whole Workflow", and the row is needed as the lock.
	await write(env, node, store.clear);
}

/**
 * What a release found: `released` (row deleted), `foreign` (other data was added), `late` (the
 * row grew by lock entries only, or a call failed while telling: a store fault, not another
 * node), `left` (not deleted).
 */
export type Released = 'released' | 'foreign' | 'late' | 'left';

/**
 * Gives the lock up. The row is deleted only while the lease holds and the count is the holder's
 * own. More entries than its own mean another node wrote into the row: only the holder's entries
 * are removed. Anything else (the lease ran out, fewer entries, a database error) leaves the row
 * alone: if it is still this holder's, waiters take it over once it is stale. Never repeats a
 * delete, never throws.
 */
export async function release(
	holder: Holder,
	store: LockStore,
	env: LockEnv,
	node: INode,
): Promise<Released> {
	// A store call of this holder given up on may still land: the lock stays, beating, until it
	// settled (at most LATE_CALL_MS); one that may still land leaves the row to the waiters.
	const quiet = await holder.quiet();
	await holder.stop();
	const leased = () => env.now() - holder.beatAt < LEASE_MS;
	if (!quiet || holder.busy || holder.state === 'lost' || !leased()) return 'left';
	try {
		const count =
			holder.state === 'foreign' ? Infinity : holder.counted(await read(env, node, store.count));
		if (!leased()) return 'left'; // the answer came after the lease: the row may be another's by now
		if (count === holder.expected) {
			await write(env, node, store.clear);
			return 'released';
		}
		if (count > holder.expected) {
			await write(env, node, async () => await store.remove(holder.lockEntries(MAX_COPIES)));
			return await foreignOrLate(env, node, store);
		}
	} catch {
		// Left for the waiters: a delete that may have run is never repeated.
	}
	return holder.state === 'foreign' ? 'late' : 'left';
}

/**
 * Whether this holder may keep the lock for another round instead of releasing it: no call of
 * it may still land, the lease holds, and the row's count, read once, is still its own (the round
 * that just ended was exclusive, as a release would have found). False: release it as usual.
 */
export async function stillHeld(
	holder: Holder,
	store: LockStore,
	env: LockEnv,
	node: INode,
): Promise<boolean> {
	if (holder.busy || !holder.valid) return false;
	try {
		const count = holder.counted(await read(env, node, store.count));
		return count === holder.expected && !holder.busy && holder.valid;
	} catch {
		return false;
	}
}

/**
 * A row that grew while held, once the holder removed every lock entry (its own, and another
 * process's it may hold): data left is another node's (a conflict); nothing left means the growth
 * was lock entries another process's write carried in late (a store fault), and the row is
 * deleted (no empty row stays).
 */
async function foreignOrLate(env: LockEnv, node: INode, store: LockStore): Promise<Released> {
	try {
		if ((await read(env, node, store.count)) > 0) return 'foreign';
		await write(env, node, store.clear);
	} catch {
		// A store that failed while telling: reported as such; another node's data, if any, is
		// found by the next look at the lock (acquire).
	}
	return 'late';
}
