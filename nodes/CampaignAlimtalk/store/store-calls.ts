/** The lock's store calls: each bounded in time; a read tried again, a write once (docs/deduplication.md, "The engine"). */
import type { DeduplicationHelperFunctions, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import { bounded as boundedWork } from '../../shared/transport/deadline';
import { monotonicNow } from '../../shared/transport/pause';
import { messageOf, MIN_N8N_VERSION, storeError } from './store-errors';

/** A read is tried this often after a passing database error. */
const READ_TRIES = 3;
/** The longest one store call may take before the round (and its lease) is given up. */
export const STORE_CALL_MS = 8000;

/** Time and chance, injected so that the races can be replayed exactly in tests. */
export interface LockEnv {
	now: () => number;
	sleep: (ms: number) => Promise<void>;
	random: () => number;
}

/** Durations are measured on a monotonic clock: a wall-clock step (NTP, a resumed VM) moves no lease. */
export const DEFAULT_ENV: LockEnv = {
	now: monotonicNow,
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

/** One store call, failed after STORE_CALL_MS (the database call itself may still finish later). */
export async function bounded<T>(env: LockEnv, call: () => Promise<T>): Promise<T> {
	const outcome = await boundedWork(call(), { deadline: env.now() + STORE_CALL_MS });
	if ('endedBy' in outcome)
		throw new Error(`the database did not answer within ${STORE_CALL_MS / 1000} s`);
	return outcome.value;
}

/** A read, tried again after a passing database error (a busy database, a lost connection). */
export async function read<T>(env: LockEnv, node: INode, call: () => Promise<T>): Promise<T> {
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
 * A write, tried once: a repeated delete that had committed could remove the next holder's lock.
 * `onUnique` answers an insert's unique-key error; `repeatable`: the lock's create (a second try
 * finds its own copies, a lock taken over once it stands still).
 */
export async function write<T>(
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

const HELPERS: Array<keyof DeduplicationHelperFunctions> = [
	'checkProcessedAndRecord',
	'removeProcessed',
	'clearAllProcessedItems',
	'getProcessedDataCount',
];

/** Stops the node before anything is sent when this n8n has no store or the workflow is not saved. */
export function requireStore(ctx: IExecuteFunctions, what: string): void {
	const helpers = ctx.helpers as Partial<DeduplicationHelperFunctions>;
	if (HELPERS.some((name) => typeof helpers[name] !== 'function')) {
		throw new NodeOperationError(ctx.getNode(), `${what} needs n8n ${MIN_N8N_VERSION} or later`, {
			description: `This n8n gives nodes no deduplication store. Update n8n to ${MIN_N8N_VERSION} or later, or clear ${what} (nothing was sent).`,
		});
	}
	const workflowId = ctx.getWorkflow().id;
	if (workflowId === undefined || workflowId === null || String(workflowId) === '') {
		throw new NodeOperationError(ctx.getNode(), `${what} needs a saved workflow`, {
			description:
				'It is kept per workflow: save the workflow, then run it again (nothing was sent).',
		});
	}
}
