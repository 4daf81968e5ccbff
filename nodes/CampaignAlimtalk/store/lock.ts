/**
 * The lock across processes on n8n's deduplication store, for one workflow: acquire and release
 * (holding it is holder.ts). Its states, and why a row of copies of LOCK_ENTRY is a lock, are in
 * docs/deduplication.md, "The states of the lock". A row that holds another node's data is
 * never deleted: that is a conflict, reported before anything is sent.
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

/** `suspect`: this call's copies are in the row beside someone else's data. */
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
	// An insert and a write to an existing empty row look alike: the count tells.
	const count = await read(env, node, store.count);
	if (count === copies) return 'held';
	if (count < copies) return 'busy'; // another process's write replaced this one's
	// More: another node's data or another process's copies; acquire tells once the row stands still.
	return { suspect: count };
}

/**
 * An empty row seen: one try to create the lock, another size than the last lock seen. `other`:
 * the row held other data (cleared when it is this node's own, else a conflict).
 */
async function tryCreate(
	store: LockStore,
	env: LockEnv,
	node: INode,
	lockScope: DeduplicationScope,
	lastLock: number,
	previous: number,
): Promise<Holder | { suspect: { count: number; copies: number } } | 'busy' | 'other'> {
	let copies = 2 + Math.floor(env.random() * (MAX_COPIES - 1));
	if (copies === lastLock) copies = copies === MAX_COPIES ? 2 : copies + 1;
	const startedAt = env.now();
	const created = await create(store, env, node, copies);
	if (created === 'held') return new Holder(store, env, copies, startedAt, previous);
	if (typeof created === 'object') return { suspect: { count: created.suspect, copies } };
	if (created === 'busy') return 'busy';
	if ((await read(env, node, store.count)) === 0)
		await write(env, node, store.clear); // an empty row is not a lock
	else await notLock(store, env, node, lockScope);
	return 'other';
}

/** A waiter stops waiting after this long. */
export const ACQUIRE_DEADLINE_MS = 120000;

/**
 * Waits for the lock and takes it, for up to ACQUIRE_DEADLINE_MS. A row of other data is this node's own
 * old keys under lock scope "node" (cleared) or another node's (a conflict).
 */
export async function acquire(
	store: LockStore,
	env: LockEnv,
	node: INode,
	lockScope: DeduplicationScope,
	previous = 0, // the count of this process's lock released just before, if any
): Promise<Holder> {
	const started = env.now();
	let last = -1;
	let lastLock = previous; // a new lock differs in size from the last seen: everyone sees the change
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
		if (env.now() - started >= ACQUIRE_DEADLINE_MS) throw busyError(node, ACQUIRE_DEADLINE_MS);
		const count = await read(env, node, store.count);
		seen(count);
		if (count === 0) {
			const tried = await tryCreate(store, env, node, lockScope, lastLock, previous);
			if (tried instanceof Holder) return tried;
			if (typeof tried === 'object') suspect = tried.suspect;
			if (tried !== 'other') changedAt = env.now(); // a new holder: the lock is alive
		} else if (
			suspect !== undefined &&
			suspect.count === count &&
			env.now() - changedAt >= FOREIGN_CHECK_MS
		) {
			// Nobody beats beside this process's copies: they go, the next look tells what is left.
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
 * A probe found its entry new: the row holds other data, or its holder let go just before and the
 * probe made it again (then the row holds the probe's entry alone and is deleted again).
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
	// This node's own keys from when its scope was "This Node": unread now, and the row is the lock.
	await write(env, node, store.clear);
}

/** A release: deleted; kept with another node's data; deleted, grown by another lock (window 5); not deleted. */
export type Released = 'released' | 'foreign' | 'late' | 'left';

/**
 * Gives the lock up, deleting the row only while the lease holds: found as the holder left it, or
 * rewritten (window 5) once its lock entries are gone and nothing else is left. Never repeats a
 * delete, never throws; what it cannot delete is left to the waiters' takeover.
 */
export async function release(
	holder: Holder,
	store: LockStore,
	env: LockEnv,
	node: INode,
): Promise<Released> {
	// A call given up on may still land: wait for it, beating (holder.ts `quiet`).
	const quiet = await holder.quiet();
	await holder.stop();
	const leased = () => env.now() - holder.beatAt < LEASE_MS;
	if (!quiet || holder.busy || !leased()) return 'left';
	try {
		const count =
			holder.state === 'foreign' ? Infinity : holder.counted(await read(env, node, store.count));
		if (!leased()) return 'left'; // the answer came after the lease: the row may be another's by now
		if (count === holder.expected) {
			await write(env, node, store.clear);
			return 'released';
		}
		// Nobody else holds a row rewritten under this lease (a takeover waits for 30 s of stillness).
		// Its keeper stays until the delete: an empty row is the next create's lock (lock.rewritten).
		await write(env, node, async () => await store.record([holder.keeper]));
		await write(env, node, async () => await store.remove(holder.lockEntries(MAX_COPIES)));
		if ((await read(env, node, store.count)) > 1) {
			await write(env, node, async () => await store.remove([holder.keeper]));
			return 'foreign'; // another node's data, left as it is
		}
		if (!leased()) return 'left';
		await write(env, node, store.clear);
		// Grown: another process's lock, unless it is the write-back of this process's last one.
		return count > holder.expected && count !== holder.previous ? 'late' : 'released';
	} catch {
		// Left for the waiters: a delete that may have run is never repeated.
	}
	return holder.state === 'foreign' ? 'late' : 'left';
}

/**
 * Whether this holder may keep the lock for another round: no call of it may still land, the
 * lease holds, and the count is still its own (the round was exclusive).
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
