/**
 * The one queue of store work of a process, per lock row (docs/deduplication.md, "The engine"):
 * a round takes the lock, then every item queued, and calls each row's round function once with
 * that row's items. Answers are given once the round proved exclusive to its end; a failed round
 * gives its items its error and nothing of it is written again. Nothing outlives the items waiting.
 */
import type { DeduplicationScope, INode } from 'n8n-workflow';
import { conflictError, lateWriteError, ownError } from './store-errors';
import type { Holder, LockEnv } from './lock';
import { acquire, DEFAULT_ENV, POLL_MAX_MS, release, stillHeld } from './lock';
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
 * Queues `item` on `row` for the next round and waits for its answer (an error as the submitter
 * node's own). The round serves every execution of the process: no one execution's stop cancels it.
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
 * One round: takes the lock unless `held`, runs every group queued, then keeps the lock for the
 * next round (`keep`, and the round was exclusive) or releases it. Returns the holder, and if kept.
 */
async function runRound(
	queue: Queue,
	lockScope: DeduplicationScope,
	env: LockEnv,
	held: Holder | undefined,
	keep: () => boolean,
	previous: number,
): Promise<{ holder?: Holder; kept: boolean }> {
	const ctx = queue.groups[0].row.ctx;
	const node: INode = ctx.getNode();
	const store = lockStoreOf(ctx, lockScope);
	let holder = held;
	if (!holder) {
		try {
			holder = await acquire(store, env, node, lockScope, previous);
		} catch (error) {
			for (const group of takeAll(queue)) group.entries.forEach((entry) => entry.settle({ error }));
			return { kept: false };
		}
		holder.start();
	}
	const lease = new Lease(holder);
	const groups = takeAll(queue);
	const outcomes: Outcome[][] = [];
	for (const group of groups) {
		if (!holder.valid) {
			// The lease ran out or the row changed: the rest wait for a new round.
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
	// The lock's row changed under the round: not exclusive. What it wrote stays (invariant 4).
	let failure: unknown;
	if (released === 'foreign') failure = conflictError(node, lockScope);
	if (released === 'late') failure = lateWriteError(node);
	outcomes.forEach((values, n) =>
		groups[n].entries.forEach((entry, k) =>
			entry.settle(failure === undefined ? values[k] : { error: failure }),
		),
	);
	return { holder, kept };
}

/** The pause after a streak: longer than a waiter's longest poll, so that a waiter takes the lock first. */
export function reacquireGapMs(random: number): number {
	return 2 * POLL_MAX_MS + 20 + Math.floor(random * 50);
}

/** How long a process runs rounds one after the other before it pauses (docs/deduplication.md, "Glossary"). */
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
	let held: Holder | undefined;
	let previous = 0; // the count of the lock this queue released last
	for (;;) {
		// Work queued within a gap's time continues the streak; none: the queue ends.
		if (queue.groups.length === 0) await workOrTimeout(queue, env, reacquireGapMs(env.random()));
		if (queue.groups.length === 0) break;
		const roundFrom = env.now();
		// A long round ends the streak: the pause costs little beside it.
		const long = () => env.now() - roundFrom >= reacquireGapMs(0);
		const streakOver = () => long() || env.now() - streakFrom >= STREAK_MS;
		// Kept only while work already waits (never held idle): letting go and taking it again at
		// once would let a waiter's create land on the new lock (docs/deduplication.md, window 5).
		const keep = () => queue.groups.length > 0 && !streakOver();
		const round = await runRound(queue, lockScope, env, held, keep, previous);
		held = round.kept ? round.holder : undefined;
		previous = round.holder && !round.kept ? round.holder.expected : previous;
		if (held === undefined && streakOver()) {
			await env.sleep(reacquireGapMs(env.random()));
			streakFrom = env.now();
		}
	}
	queue.running = false;
	queues.delete(id);
}
