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
import { sleep } from 'n8n-workflow';
import { conflictError, messageOf, storeError } from './errors';

export const LOCK_ENTRY = 'campaign-alimtalk-deduplication-lock';
/** A lock whose entry count stood still this long is taken as left behind by a dead process. */
export const STALE_LOCK_MS = 30000;
/** A holder whose last heartbeat is older than this starts no more work and keeps its hands off the row. */
export const LEASE_MS = 10000;
/** How often a holder adds a heartbeat entry. */
export const HEARTBEAT_MS = 2000;
/** A count that stood still this long is probed once (a write) to tell a lock from other data. */
export const FOREIGN_CHECK_MS = 5000;
/** Before taking over, a waiter waits a random time up to this, then looks again. */
export const TAKEOVER_JITTER_MS = 1000;
const BEAT_SLICE_MS = 100;
const POLL_MIN_MS = 10;
/** A waiter looks at the lock at least this often (randomly up to twice as long). */
export const POLL_MAX_MS = 100;
const MAX_COPIES = 32;
/** A read is tried this often after a passing database error; a write is never repeated blindly. */
const READ_TRIES = 3;
/** The longest one store call may take before the round (and its lease) is given up. */
export const STORE_CALL_MS = 8000;
const WATCH_SLICE_MS = 100;

/** Time and chance, injected so that the races can be replayed exactly in tests. */
export interface LockEnv {
	now: () => number;
	sleep: (ms: number) => Promise<void>;
	random: () => number;
}

/** Durations are measured on a monotonic clock: a wall-clock step (NTP, a resumed VM) moves no lease. */
export const DEFAULT_ENV: LockEnv = {
	now: () => performance.now(),
	sleep: async (ms) => await sleep(ms),
	random: Math.random,
};

/** The lock row's four store calls (n8n's deduplication helpers, bound to the lock's scope). */
export interface LockStore {
	record: (values: string[]) => Promise<{ new: unknown[] }>;
	remove: (values: string[]) => Promise<void>;
	clear: () => Promise<void>;
	count: () => Promise<number>;
}

const UNIQUE_VIOLATION = /duplicate key|unique constraint|SQLITE_CONSTRAINT|ER_DUP_ENTRY/i;

/** A held lock: what its row holds, and when its holder last proved alive. */
export class Holder {
	/** The row's entry count as this holder wrote it. */
	expected: number;

	/** When the last heartbeat (or the creation) started. */
	beatAt: number;

	/** `lost`: the row is not as this holder left it; `foreign`: another node added data to it. */
	state: 'held' | 'lost' | 'foreign' = 'held';

	private beats = 0;

	private stopped = false;

	private beating: Promise<void> | undefined;

	constructor(
		private readonly store: LockStore,
		private readonly env: LockEnv,
		readonly copies: number,
		startedAt: number,
	) {
		this.expected = copies;
		this.beatAt = startedAt;
	}

	/** True while the holder may start more work: the row is as it left it and the lease holds. */
	get valid(): boolean {
		return this.state === 'held' && this.env.now() - this.beatAt < LEASE_MS;
	}

	/** Every entry this holder put in the row. */
	entries(): string[] {
		const beats = Array.from({ length: this.beats }, (_, i) => this.entry(i));
		return [...Array.from({ length: this.copies }, () => LOCK_ENTRY), ...beats];
	}

	/** Adds a heartbeat every HEARTBEAT_MS until `stop`. */
	start(): void {
		const loop = async () => {
			for (;;) {
				// In slices, so that a stopped holder leaves no timer behind for long.
				for (let slept = 0; slept < HEARTBEAT_MS && !this.stopped; slept += BEAT_SLICE_MS)
					await this.env.sleep(BEAT_SLICE_MS);
				if (this.stopped || this.state !== 'held') return;
				this.beating = this.beat();
				await this.beating;
				this.beating = undefined;
			}
		};
		void loop();
	}

	private async beat(): Promise<void> {
		const startedAt = this.env.now();
		try {
			if (!this.valid) return;
			const count = await bounded(this.env, this.store.count);
			if (!this.valid) return; // an answer that came after the lease: the row may be another's by now
			if (count !== this.expected) {
				this.state = count > this.expected ? 'foreign' : 'lost';
				return;
			}
			// Counted as this holder's before it is written: a beat that lands but reports an error
			// is still one of its entries, and its release removes it.
			this.beats++;
			try {
				await bounded(this.env, async () => await this.store.record([this.entry(this.beats - 1)]));
			} catch {
				// Did it land? The count tells; anything but one more or none means the row changed.
				const after = await bounded(this.env, this.store.count);
				if (after === this.expected) return;
				if (after !== this.expected + 1) {
					this.state = after > this.expected + 1 ? 'foreign' : 'lost';
					return;
				}
			}
			this.expected++;
			this.beatAt = startedAt;
		} catch {
			// A failed heartbeat is a missed one: the lease runs out unless the next one lands.
		}
	}

	private entry(beat: number): string {
		return `${LOCK_ENTRY}:beat:${beat}`;
	}

	/** Stops the heartbeat (waiting for one under way; a sleeping one just ends). */
	async stop(): Promise<void> {
		this.stopped = true;
		await this.beating;
	}
}

/**
 * One store call, bounded in time: a call that has not answered after STORE_CALL_MS fails (the
 * database call itself may still finish later; docs/deduplication.md, "The windows that remain").
 */
export async function bounded<T>(env: LockEnv, call: () => Promise<T>): Promise<T> {
	let settled = false;
	const work = call().finally(() => (settled = true));
	const watch = async (): Promise<never> => {
		const started = env.now();
		// In slices, so that no timer outlives the call by more than one slice.
		while (!settled && env.now() - started < STORE_CALL_MS) await env.sleep(WATCH_SLICE_MS);
		if (!settled) throw new Error(`the database did not answer within ${STORE_CALL_MS / 1000} s`);
		return await new Promise<never>(() => undefined);
	};
	return await Promise.race([work, watch()]);
}

/** A read, tried again after a passing database error (a busy database, a lost connection). */
async function read<T>(env: LockEnv, node: INode, call: () => Promise<T>): Promise<T> {
	for (let tries = 1; ; tries++) {
		try {
			return await bounded(env, call);
		} catch (error) {
			if (tries >= READ_TRIES) throw lockError(node, error);
			await env.sleep(50 * tries * (1 + env.random()));
		}
	}
}

/**
 * A write, tried once: one that committed but reported an error must not run again (a repeated
 * delete could remove the next holder's lock). `onUnique` answers the unique-key error of an
 * insert; `repeatable` marks the one write that may run twice (creating the lock: a second try
 * finds its own copies, which reads as someone's lock and is taken over once it stands still).
 */
async function write<T>(
	env: LockEnv,
	node: INode,
	call: () => Promise<T>,
	options: { onUnique?: () => T; repeatable?: boolean } = {},
): Promise<T> {
	for (let tries = 1; ; tries++) {
		try {
			return await bounded(env, call);
		} catch (error) {
			if (options.onUnique && UNIQUE_VIOLATION.test(messageOf(error))) return options.onUnique();
			if (!options.repeatable || tries >= READ_TRIES) throw lockError(node, error);
			await env.sleep(50 * tries * (1 + env.random()));
		}
	}
}

function lockError(node: INode, error: unknown) {
	return storeError(
		node,
		error,
		'Nothing was sent. The deduplication lock could not be taken; run the workflow again.',
	);
}

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

export interface AcquireOptions {
	/** Stop waiting after this long (a live holder that never lets go, a database that never answers). */
	deadlineMs: number;
	/** True once nobody waits for the lock any more (every execution waiting was stopped). */
	abandoned: () => boolean;
}

export const ACQUIRE_DEADLINE_MS = 120000;

/**
 * Waits for the lock and takes it; undefined when `abandoned` says nobody waits any more.
 * `lockScope` decides what a row of other data means: this node's own old keys (scope "node":
 * cleared, the node uses that row as its lock now) or another node's data in the workflow's
 * shared record (a conflict: stop before sending).
 */
export async function acquire(
	store: LockStore,
	env: LockEnv,
	node: INode,
	lockScope: DeduplicationScope,
	options: AcquireOptions = { deadlineMs: ACQUIRE_DEADLINE_MS, abandoned: () => false },
): Promise<Holder | undefined> {
	const started = env.now();
	let last = -1;
	/** The last count of a lock seen: a new lock is made another size, so that everyone sees the change. */
	let lastLock = 0;
	let changedAt = env.now();
	let probed = false;
	/** The row's count right after this process wrote its copies beside other data. */
	let suspect: { count: number; copies: number } | undefined;
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
		if (options.abandoned()) return undefined;
		if (env.now() - started >= options.deadlineMs) throw busyError(node, options.deadlineMs);
		const count = await read(env, node, store.count);
		seen(count);
		if (count === 0) {
			let copies = 2 + Math.floor(env.random() * (MAX_COPIES - 1));
			if (copies === lastLock) copies = copies === MAX_COPIES ? 2 : copies + 1;
			const startedAt = env.now();
			const created = await create(store, env, node, copies);
			if (created === 'held') return new Holder(store, env, copies, startedAt);
			if (typeof created === 'object') suspect = { count: created.suspect, copies };
			if (created === 'busy' || typeof created === 'object')
				changedAt = env.now(); // a new holder: the lock is alive
			else if ((await read(env, node, store.count)) === 0)
				await write(env, node, store.clear); // an empty row is not a lock
			else await notLock(store, env, node, lockScope);
		} else if (suspect?.count === count && env.now() - changedAt >= FOREIGN_CHECK_MS) {
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
			if (result.new.length > 0) {
				await write(env, node, async () => await store.remove([LOCK_ENTRY]));
				await notLock(store, env, node, lockScope);
				last = -1;
			}
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

/** What a release found: `released` (row deleted), `foreign` (other data was added), `left` (not deleted). */
export type Released = 'released' | 'foreign' | 'left';

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
	await holder.stop();
	const leased = () => env.now() - holder.beatAt < LEASE_MS;
	if (holder.state === 'lost' || !leased()) return 'left';
	try {
		const count = holder.state === 'foreign' ? Infinity : await read(env, node, store.count);
		if (!leased()) return 'left'; // the answer came after the lease: the row may be another's by now
		if (count === holder.expected) {
			await write(env, node, store.clear);
			return 'released';
		}
		if (count > holder.expected) {
			await write(env, node, async () => await store.remove(holder.entries()));
			return 'foreign';
		}
	} catch {
		// Left for the waiters: a delete that may have run is never repeated.
	}
	return holder.state === 'foreign' ? 'foreign' : 'left';
}
