/**
 * Runs store work under the workflow's deduplication lock (lock.ts). Within one process,
 * executions queue their work here; one lock round serves every job queued when it starts, so a
 * burst of executions costs one lock round, not one each. The queue is empty whenever no
 * execution waits on it: nothing outlives the executions that use it.
 */
import type { DeduplicationScope, IExecuteFunctions, INode } from 'n8n-workflow';
import { conflictError } from './errors';
import type { LockEnv, LockStore } from './lock';
import { acquire, DEFAULT_ENV, release } from './lock';

/** The keys of scope "node" are in the node's row, so the lock is the workflow's row, and the other way round. */
export function lockScopeFor(keyScope: DeduplicationScope): DeduplicationScope {
	return keyScope === 'node' ? 'workflow' : 'node';
}

/** The database row the lock is, as n8n names it (workflow id and context). */
export function lockRowId(ctx: IExecuteFunctions, keyScope: DeduplicationScope): string {
	const workflowId = String(ctx.getWorkflow().id);
	return lockScopeFor(keyScope) === 'workflow'
		? `${workflowId}|`
		: `${workflowId}|n:${ctx.getNode().id}`;
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

interface Job {
	ctx: IExecuteFunctions;
	run: () => Promise<void>;
	/** Takes back what `run` wrote, when the round turns out not to have been exclusive. */
	undo?: () => Promise<void>;
	done: (error?: unknown) => void;
}

interface Queue {
	jobs: Job[];
	running: boolean;
}

/** Per lock row, the store work waiting in this process. An entry exists only while work waits. */
const queues = new Map<string, Queue>();

async function runRound(
	round: Job[],
	queue: Queue,
	lockScope: DeduplicationScope,
	env: LockEnv,
): Promise<void> {
	const ctx = round[0].ctx;
	const node: INode = ctx.getNode();
	const store = lockStoreOf(ctx, lockScope);
	let holder;
	try {
		holder = await acquire(store, env, node, lockScope);
	} catch (error) {
		round.forEach((job) => job.done(error));
		return;
	}
	holder.start();
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
			await job.run();
			outcomes.push(undefined);
		} catch (error) {
			outcomes.push(error ?? new Error('store call failed'));
		}
	}
	let failure: unknown;
	try {
		if ((await release(holder, store, env, node)) === 'foreign') {
			// Another node wrote into the lock's row meanwhile: this round was not exclusive.
			failure = conflictError(node, lockScope);
			for (const job of ran) await job.undo?.().catch(() => undefined);
		}
	} catch (error) {
		failure = error;
	}
	ran.forEach((job, index) => job.done(failure ?? outcomes[index]));
}

async function runRounds(
	rowId: string,
	queue: Queue,
	lockScope: DeduplicationScope,
	env: LockEnv,
): Promise<void> {
	while (queue.jobs.length > 0) {
		await runRound(queue.jobs.splice(0, queue.jobs.length), queue, lockScope, env);
		// Let a waiting process in before this one takes the lock again.
		if (queue.jobs.length > 0) await env.sleep(20 + Math.floor(env.random() * 30));
	}
	queue.running = false;
	queues.delete(rowId);
}

/**
 * Runs `work` while this workflow's deduplication lock is held, after the work queued before it.
 * `work` should be short: every execution of the workflow that stores keys waits for it. `undo`
 * takes back what `work` wrote, for a round that turns out not to have been exclusive (its
 * caller then gets the error).
 */
export async function underLock<T>(
	ctx: IExecuteFunctions,
	keyScope: DeduplicationScope,
	work: () => Promise<T>,
	undo?: () => Promise<void>,
	env: LockEnv = DEFAULT_ENV,
): Promise<T> {
	const rowId = lockRowId(ctx, keyScope);
	let queue = queues.get(rowId);
	if (!queue) {
		queue = { jobs: [], running: false };
		queues.set(rowId, queue);
	}
	let value: T | undefined;
	const finished = new Promise<void>((resolve, reject) => {
		queue.jobs.push({
			ctx,
			run: async () => {
				value = await work();
			},
			undo,
			done: (error) => (error === undefined ? resolve() : reject(error)),
		});
	});
	if (!queue.running) {
		queue.running = true;
		void runRounds(rowId, queue, lockScopeFor(keyScope), env);
	}
	await finished;
	return value as T;
}
