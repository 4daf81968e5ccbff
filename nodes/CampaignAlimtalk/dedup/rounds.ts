/**
 * Runs store work under the workflow's deduplication lock (lock.ts). Within one process,
 * executions queue their work here; one lock round serves every job queued when it starts, so a
 * burst of executions costs one lock round, not one each. Rounds follow each other at once while
 * work keeps coming, for up to STREAK_MS, the lock kept from one to the next while work is already
 * waiting; then the process lets it go and pauses so that another process can take it. The queue
 * is empty whenever no execution waits on it: nothing outlives the executions that use it (but
 * the pause of at most reacquireGapMs that ends it).
 */
import type { DeduplicationScope, IExecuteFunctions, INode } from 'n8n-workflow';
import { conflictError, lateWriteError, ownError } from './errors';
import type { Holder, LockEnv, LockStore } from './lock';
import { ACQUIRE_DEADLINE_MS, acquire, DEFAULT_ENV, POLL_MAX_MS, release, stillHeld } from './lock';

export interface Row {
	ctx: IExecuteFunctions;
	scope: DeduplicationScope;
	historySize: number;
}

/** The keys of scope "node" are in the node's row, so the lock is the workflow's row, and the other way round. */
export function lockScopeFor(keyScope: DeduplicationScope): DeduplicationScope {
	return keyScope === 'node' ? 'workflow' : 'node';
}

/** The database row of `scope` for this node, as n8n names it (workflow id and context). */
export function rowId(ctx: IExecuteFunctions, scope: DeduplicationScope): string {
	const workflowId = String(ctx.getWorkflow().id);
	return scope === 'workflow' ? `${workflowId}|` : `${workflowId}|n:${ctx.getNode().id}`;
}

/** The database row the lock is. */
export function lockRowId(ctx: IExecuteFunctions, keyScope: DeduplicationScope): string {
	return rowId(ctx, lockScopeFor(keyScope));
}

/** n8n's deduplication helpers of `ctx`, bound to the lock's scope. */
export function lockStoreOf(ctx: IExecuteFunctions, lockScope: DeduplicationScope): LockStore {
	const mode = { mode: 'entries' as const };
	return {
		record: async (values) => await ctx.helpers.checkProcessedAndRecord(values, lockScope, mode),
		remove: async (values) => await ctx.helpers.removeProcessed(values, lockScope, mode),
		clear: async () => await ctx.helpers.clearAllProcessedItems(lockScope, mode),
		count: async () => await ctx.helpers.getProcessedDataCount(lockScope, mode),
	};
}

export const LEASE_LOST = 'the deduplication lock was lost during the round';

/**
 * The holder's lease, as the work sees it: every store call of the work goes through `call`,
 * which starts none once the lease ran out and trusts no answer that came after it.
 */
export class Lease {
	constructor(private readonly holder: Holder) {}

	get valid(): boolean {
		return this.holder.valid;
	}

	async call<T>(work: () => Promise<T>): Promise<T> {
		if (!this.holder.valid) throw new Error(LEASE_LOST);
		const value = await this.holder.call(work);
		if (!this.holder.valid) throw new Error(LEASE_LOST);
		return value;
	}
}

interface Job {
	ctx: IExecuteFunctions;
	run: (lease: Lease) => Promise<void>;
	/** Given the round's error as the job's node's own (ownError). */
	done: (error?: unknown) => void;
}

interface Queue {
	jobs: Job[];
	running: boolean;
	/** Set while the rounds wait for work: called when a job is queued. */
	wake?: () => void;
}

/** Per lock row, the store work waiting in this process. An entry exists only while work waits. */
const queues = new Map<string, Queue>();

/**
 * One round: takes the lock unless `held` (the previous round of the streak kept it), runs the
 * jobs, then either keeps the lock for the next round (`keep`, and the row is still exactly this
 * holder's: the round was exclusive) or releases it. Returns the holder it kept.
 */
async function runRound(
	round: Job[],
	queue: Queue,
	lockScope: DeduplicationScope,
	env: LockEnv,
	held: Holder | undefined,
	keep: () => boolean,
): Promise<Holder | undefined> {
	const ctx = round[0].ctx;
	const node: INode = ctx.getNode();
	const store = lockStoreOf(ctx, lockScope);
	let holder = held;
	if (!holder) {
		try {
			holder = await acquire(store, env, node, lockScope, { deadlineMs: ACQUIRE_DEADLINE_MS });
		} catch (error) {
			round.forEach((job) => job.done(error));
			return undefined;
		}
		holder.start();
	}
	const lease = new Lease(holder);
	const ran: Job[] = [];
	const outcomes: unknown[] = [];
	for (const job of round) {
		if (!holder.valid) {
			// The lease ran out or the row changed under this holder: the rest wait for a new round.
			queue.jobs.unshift(...round.slice(ran.length));
			break;
		}
		ran.push(job);
		try {
			await job.run(lease);
			outcomes.push(undefined);
		} catch (error) {
			outcomes.push(error ?? new Error('store call failed'));
		}
	}
	const kept = keep() && (await stillHeld(holder, store, env, node));
	let failure: unknown;
	const released = kept ? 'kept' : await release(holder, store, env, node);
	// Another node, or a late write of the store, changed the lock's row: not exclusive. What the
	// round wrote stays (nothing is written after the lock: docs/deduplication.md).
	if (released === 'foreign') failure = conflictError(node, lockScope);
	if (released === 'late') failure = lateWriteError(node);
	ran.forEach((job, index) => job.done(failure ?? outcomes[index]));
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

/** Resolves when a job is queued, or after `ms`. */
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
		if (queue.jobs.length === 0) await workOrTimeout(queue, env, reacquireGapMs(env.random()));
		if (queue.jobs.length === 0) break;
		const roundFrom = env.now();
		// A long round (a large record of keys) pauses after it: the work that came meanwhile is
		// one batch anyway, and the pause costs little beside it.
		const long = () => env.now() - roundFrom >= reacquireGapMs(0);
		const streakOver = () => long() || env.now() - streakFrom >= STREAK_MS;
		// The lock is kept for the next round only while work is already waiting for it (a
		// process never holds it idle): letting go and taking it again at once would let a
		// waiter's create that read the row before land on the new lock (window 5 of
		// docs/deduplication.md).
		const keep = () => queue.jobs.length > 0 && !streakOver();
		held = await runRound(
			queue.jobs.splice(0, queue.jobs.length),
			queue,
			lockScope,
			env,
			held,
			keep,
		);
		if (held === undefined && streakOver()) {
			// Work that arrives meanwhile waits for the next streak, after the gap.
			await env.sleep(reacquireGapMs(env.random()));
			streakFrom = env.now();
		}
	}
	queue.running = false;
	queues.delete(id);
}

/**
 * Runs `work` while this workflow's deduplication lock is held, after the work queued before it.
 * `work` should be short and make its store calls through the lease: every execution of the
 * workflow that stores keys waits for it. A round that turns out not to have been exclusive gives
 * its caller the error; what `work` wrote stays. The work serves every
 * execution waiting in this process, so no one execution's stop cancels it (session.ts stops
 * waiting for its own answers instead).
 */
export async function underLock<T>(
	ctx: IExecuteFunctions,
	keyScope: DeduplicationScope,
	work: (lease: Lease) => Promise<T>,
	env: LockEnv = DEFAULT_ENV,
): Promise<T> {
	const id = lockRowId(ctx, keyScope);
	let queue = queues.get(id);
	if (!queue) {
		queue = { jobs: [], running: false };
		queues.set(id, queue);
	}
	let value: T | undefined;
	const finished = new Promise<void>((resolve, reject) => {
		queue.jobs.push({
			ctx,
			run: async (lease) => {
				value = await work(lease);
			},
			done: (error) => (error === undefined ? resolve() : reject(ownError(error, ctx.getNode()))),
		});
	});
	if (!queue.running) {
		queue.running = true;
		void runRounds(id, queue, lockScopeFor(keyScope), env);
	} else queue.wake?.();
	await finished;
	return value as T;
}
