/**
 * The one queue of store work of a process, per lock row (docs/deduplication.md, "The engine").
 * Work is submitted as items on a row of keys, each with the round function that serves it; a
 * round takes the lock (lock.ts), then every item queued by then, and calls each row's round
 * function once with all of that row's items. Its answers are given only once the round proved
 * exclusive to its end; a round that failed gives every item of the row its error, and nothing of
 * it is written again. Rounds follow each other at once while work keeps coming, for up to
 * STREAK_MS, the lock kept from one to the next while work is already waiting; then the process
 * lets it go and pauses so that another process can take it. Nothing outlives the items waiting.
 */
import type { DeduplicationScope, INode } from 'n8n-workflow';
import { conflictError, lateWriteError, ownError } from './store-errors';
import type { Holder, LockEnv } from './lock';
import { ACQUIRE_DEADLINE_MS, acquire, DEFAULT_ENV, POLL_MAX_MS, release, stillHeld } from './lock';
import type { Row } from './lease';
import { Lease, lockRowId, lockScopeFor, lockStoreOf, rowId } from './lease';

export type { Row } from './lease';
export { Lease, LEASE_LOST, REMOVE_TRIES, lockRowId, rowId } from './lease';

/** A row's store work for one round: every item queued for the row, answered in order. */
export type RoundFunction<I, V> = (lease: Lease, row: Row, items: I[]) => Promise<V[]>;

type Outcome = { value: unknown } | { error: unknown };

interface Entry {
	item: unknown;
	settle: (outcome: Outcome) => void;
}

/** The items queued for one row of keys and one round function. */
interface Group {
	/** The row's id (lease.ts `rowId`). */
	key: string;
	row: Row;
	round: RoundFunction<unknown, unknown>;
	entries: Entry[];
}

interface Queue {
	/** By row of keys (two keyed nodes of a workflow share the lock, never a row). */
	groups: Group[];
	running: boolean;
	/** Set while the rounds wait for work: called when an item is queued. */
	wake?: () => void;
}

/** Per lock row, the store work waiting in this process. An entry exists only while work waits. */
const queues = new Map<string, Queue>();

/**
 * Queues `item` on `row` for the next round and waits for its answer. An error of the round
 * comes as the error of the submitter's node (store-errors.ts `ownError`). The round serves every
 * execution waiting in this process, so no one execution's stop cancels it (the session stops
 * waiting for its own answers instead).
 */
export async function submit<I, V>(
	row: Row,
	item: I,
	round: RoundFunction<I, V>,
	env: LockEnv = DEFAULT_ENV,
): Promise<V> {
	const id = lockRowId(row.ctx, row.scope);
	let queue = queues.get(id);
	if (!queue) queues.set(id, (queue = { groups: [], running: false }));
	const key = rowId(row.ctx, row.scope);
	let group = queue.groups.find((queued) => queued.key === key && queued.round === round);
	if (!group) {
		group = { key, row, round: round as RoundFunction<unknown, unknown>, entries: [] };
		queue.groups.push(group);
	}
	group.row = { ...group.row, historySize: Math.max(group.row.historySize, row.historySize) };
	const entries = group.entries;
	const outcome = new Promise<Outcome>((settle) => entries.push({ item, settle }));
	if (!queue.running) {
		queue.running = true;
		void runRounds(id, queue, lockScopeFor(row.scope), env);
	} else queue.wake?.();
	const settled = await outcome;
	if ('error' in settled) throw ownError(settled.error, row.ctx.getNode());
	return settled.value as V;
}

/**
 * Runs `work` alone while the lock is held, after the work queued before it (the lock's own
 * tests hold the lock this way).
 */
export async function underLock<T>(
	ctx: Row['ctx'],
	keyScope: DeduplicationScope,
	work: (lease: Lease) => Promise<T>,
	env: LockEnv = DEFAULT_ENV,
): Promise<T> {
	const each: RoundFunction<typeof work, Outcome> = async (lease, _row, works) => {
		const outcomes: Outcome[] = [];
		for (const one of works)
			outcomes.push(
				await one(lease).then(
					(value) => ({ value }),
					(error: unknown) => ({ error }),
				),
			);
		return outcomes;
	};
	const outcome = await submit({ ctx, scope: keyScope, historySize: 0 }, work, each, env);
	if ('error' in outcome) throw outcome.error;
	return outcome.value as T;
}

/** Every group queued so far, taken off the queue. */
function takeAll(queue: Queue): Group[] {
	return queue.groups.splice(0, queue.groups.length);
}

/** Groups a round could not run, back at the head of the queue, before what came meanwhile. */
function putBack(queue: Queue, groups: Group[]): void {
	for (const group of [...groups, ...takeAll(queue)]) {
		const queued = queue.groups.find((g) => g.key === group.key && g.round === group.round);
		if (queued) queued.entries.push(...group.entries);
		else queue.groups.push(group);
	}
}

/**
 * One round: takes the lock unless `held` (the previous round of the streak kept it), takes every
 * group queued by then and runs each, then either keeps the lock for the next round (`keep`, and
 * the row is still exactly this holder's: the round was exclusive) or releases it. Returns the
 * holder it kept.
 */
async function runRound(
	queue: Queue,
	lockScope: DeduplicationScope,
	env: LockEnv,
	held: Holder | undefined,
	keep: () => boolean,
): Promise<Holder | undefined> {
	const ctx = queue.groups[0].row.ctx;
	const node: INode = ctx.getNode();
	const store = lockStoreOf(ctx, lockScope);
	let holder = held;
	if (!holder) {
		try {
			holder = await acquire(store, env, node, lockScope, { deadlineMs: ACQUIRE_DEADLINE_MS });
		} catch (error) {
			for (const group of takeAll(queue)) group.entries.forEach((entry) => entry.settle({ error }));
			return undefined;
		}
		holder.start();
	}
	const lease = new Lease(holder);
	const groups = takeAll(queue);
	const outcomes: Outcome[][] = [];
	for (const group of groups) {
		if (!holder.valid) {
			// The lease ran out or the row changed under this holder: the rest wait for a new round.
			putBack(queue, groups.slice(outcomes.length));
			break;
		}
		const items = group.entries.map((entry) => entry.item);
		const values = await group.round(lease, group.row, items).then(
			(answers) => answers.map((value): Outcome => ({ value })),
			(error: unknown) => items.map((): Outcome => ({ error: error ?? new Error('store failed') })),
		);
		outcomes.push(values);
	}
	const kept = keep() && (await stillHeld(holder, store, env, node));
	const released = kept ? 'kept' : await release(holder, store, env, node);
	// Another node, or a late write of the store, changed the lock's row: not exclusive. What the
	// round wrote stays (nothing is written after the lock: docs/deduplication.md).
	let failure: unknown;
	if (released === 'foreign') failure = conflictError(node, lockScope);
	if (released === 'late') failure = lateWriteError(node);
	outcomes.forEach((values, n) =>
		groups[n].entries.forEach((entry, k) =>
			entry.settle(failure === undefined ? values[k] : { error: failure }),
		),
	);
	return kept ? holder : undefined;
}

/**
 * The pause before this process takes the lock again after a streak: longer than a waiter's
 * longest poll (lock.ts), so that another process waiting for the lock sees it free and takes it
 * first (fairness: a waiter waits for one streak of this process, not for all of its work).
 */
export function reacquireGapMs(random: number): number {
	return 2 * POLL_MAX_MS + 20 + Math.floor(random * 50);
}

/**
 * How long this process runs its rounds one after the other (the lock released between them, but
 * taken again at once) before it pauses for reacquireGapMs. Within a streak a round starts as soon
 * as work is queued: one execution's sends never wait on a pause meant for other processes. A
 * round that took longer than the pause ends the streak.
 */
export const STREAK_MS = 1000;

/** Resolves when an item is queued, or after `ms`. */
async function workOrTimeout(queue: Queue, env: LockEnv, ms: number): Promise<void> {
	await Promise.race([new Promise<void>((resolve) => (queue.wake = resolve)), env.sleep(ms)]);
	queue.wake = undefined;
}

async function runRounds(
	id: string,
	queue: Queue,
	lockScope: DeduplicationScope,
	env: LockEnv,
): Promise<void> {
	let streakFrom = env.now();
	/** The lock, kept from one round of the streak to the next while work was already waiting. */
	let held: Holder | undefined;
	for (;;) {
		// Work queued within a gap's time continues the streak; none: the queue ends.
		if (queue.groups.length === 0) await workOrTimeout(queue, env, reacquireGapMs(env.random()));
		if (queue.groups.length === 0) break;
		const roundFrom = env.now();
		// A long round (a large record of keys) pauses after it: the work that came meanwhile is
		// one round anyway, and the pause costs little beside it.
		const long = () => env.now() - roundFrom >= reacquireGapMs(0);
		const streakOver = () => long() || env.now() - streakFrom >= STREAK_MS;
		// The lock is kept for the next round only while work is already waiting for it (a
		// process never holds it idle): letting go and taking it again at once would let a
		// waiter's create that read the row before land on the new lock (window 5 of
		// docs/deduplication.md).
		const keep = () => queue.groups.length > 0 && !streakOver();
		held = await runRound(queue, lockScope, env, held, keep);
		if (held === undefined && streakOver()) {
			// Work that arrives meanwhile waits for the next streak, after the gap.
			await env.sleep(reacquireGapMs(env.random()));
			streakFrom = env.now();
		}
	}
	queue.running = false;
	queues.delete(id);
}
