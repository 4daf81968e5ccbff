/**
 * Serialises every read-modify-write of n8n's deduplication store for one workflow, across the
 * executions of one process and across processes (queue-mode workers share the database).
 *
 * n8n's store keeps one row per workflow and scope and rewrites it whole on every call, with no
 * lock: calls that overlap lose each other's keys. Its one atomic step is creating a scope's row
 * (a second insert fails on the unique key), so a row that holds nothing but LOCK_ENTRY is the
 * lock: the call that creates it holds it, deleting the row releases it. The keys never live in
 * that row (see `lockScopeFor`).
 *
 * Within one process, executions queue their store calls here; one lock round serves every call
 * queued when it starts, so a burst of executions costs one lock round, not one each. The queue
 * is empty whenever no execution waits on it: nothing outlives the executions that use it.
 */
import type { DeduplicationScope, IExecuteFunctions, INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { conflictError, messageOf, storeError } from './errors';

export const LOCK_ENTRY = 'campaign-alimtalk-deduplication-lock';
/** A lock held longer than this is taken as left behind by a process that died holding it. */
export const STALE_LOCK_MS = 30000;
const POLL_MIN_MS = 10;
const POLL_SPREAD_MS = 30;

type Helpers = IExecuteFunctions['helpers'];

/** The keys of scope "node" are in the node's row, so the lock is the workflow's row, and the other way round. */
export function lockScopeFor(keyScope: DeduplicationScope): DeduplicationScope {
	return keyScope === 'node' ? 'workflow' : 'node';
}

/** The database row the lock is, as n8n names it (workflow id and context). */
export function lockRowId(ctx: IExecuteFunctions, keyScope: DeduplicationScope): string {
	const workflowId = String(ctx.getWorkflow().id);
	return lockScopeFor(keyScope) === 'workflow' ? `${workflowId}|` : `${workflowId}|n:${ctx.getNode().id}`;
}

const UNIQUE_VIOLATION = /duplicate key|unique constraint|SQLITE_CONSTRAINT|ER_DUP_ENTRY/i;

/** One attempt: true when this call created the lock row. */
async function tryAcquire(helpers: Helpers, node: INode, scope: DeduplicationScope): Promise<boolean> {
	let created: boolean;
	try {
		const result = await helpers.checkProcessedAndRecord([LOCK_ENTRY], scope, { mode: 'entries' });
		created = result.new.length > 0;
	} catch (error) {
		// Two processes created the row at the same moment: the other one holds the lock.
		if (UNIQUE_VIOLATION.test(messageOf(error))) return false;
		throw conflictError(node, scope, error);
	}
	if (!created) return false;
	// "New" also comes back when the row existed and held other data: then it is not a lock row.
	const count = await helpers.getProcessedDataCount(scope, { mode: 'entries' });
	if (count === 1) return true;
	await helpers.removeProcessed([LOCK_ENTRY], scope, { mode: 'entries' });
	if (scope === 'node') {
		// This node's own row, holding the keys it kept while its scope was "This Node": they are
		// not read under scope "Whole Workflow", and the row is needed as the lock.
		await helpers.clearAllProcessedItems('node', { mode: 'entries' });
		return false;
	}
	throw conflictError(node, scope);
}

async function acquire(helpers: Helpers, node: INode, scope: DeduplicationScope, now: () => number): Promise<void> {
	const since = now();
	for (;;) {
		if (await tryAcquire(helpers, node, scope)) return;
		if (now() - since > STALE_LOCK_MS) {
			await helpers.clearAllProcessedItems(scope, { mode: 'entries' });
			continue;
		}
		await sleep(POLL_MIN_MS + Math.floor(Math.random() * POLL_SPREAD_MS));
	}
}

async function release(helpers: Helpers, node: INode, scope: DeduplicationScope): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			await helpers.clearAllProcessedItems(scope, { mode: 'entries' });
			return;
		} catch (error) {
			// Left in place, the lock would hold up every send of the workflow until it is stale.
			if (attempt >= 3) throw storeError(node, error, 'The deduplication lock could not be released; other executions wait until it is taken as stale.');
			await sleep(POLL_MIN_MS * attempt);
		}
	}
}

interface Job {
	ctx: IExecuteFunctions;
	run: () => Promise<void>;
	done: (error?: unknown) => void;
}

interface Queue {
	jobs: Job[];
	running: boolean;
}

/** Per lock row, the store calls waiting in this process. An entry exists only while calls wait. */
const queues = new Map<string, Queue>();

async function runRounds(rowId: string, queue: Queue, scope: DeduplicationScope): Promise<void> {
	while (queue.jobs.length > 0) {
		const round = queue.jobs.splice(0, queue.jobs.length);
		const helpers = round[0].ctx.helpers;
		const node = round[0].ctx.getNode();
		let failure: unknown;
		try {
			await acquire(helpers, node, scope, Date.now);
		} catch (error) {
			round.forEach((job) => job.done(error));
			continue;
		}
		const outcomes: unknown[] = [];
		for (const job of round) {
			try {
				await job.run();
				outcomes.push(undefined);
			} catch (error) {
				outcomes.push(error ?? new Error('store call failed'));
			}
		}
		try {
			await release(helpers, node, scope);
		} catch (error) {
			failure = error;
		}
		round.forEach((job, index) => job.done(outcomes[index] ?? failure));
		// Let a waiting process in before this one takes the lock again.
		if (queue.jobs.length > 0) await sleep(POLL_MIN_MS + POLL_SPREAD_MS);
	}
	queue.running = false;
	queues.delete(rowId);
}

/**
 * Runs `work` while this workflow's deduplication lock is held, after the calls queued before it.
 * `work` should be short: every execution of the workflow that stores keys waits for it.
 */
export async function underLock<T>(ctx: IExecuteFunctions, keyScope: DeduplicationScope, work: () => Promise<T>): Promise<T> {
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
			done: (error) => (error === undefined ? resolve() : reject(error)),
		});
	});
	if (!queue.running) {
		queue.running = true;
		void runRounds(rowId, queue, lockScopeFor(keyScope));
	}
	await finished;
	return value as T;
}
