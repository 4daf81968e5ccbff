/**
 * The deduplication lock's store calls (lock.ts, holder.ts): each bounded in time; a read tried
 * again after a passing database error; a write tried once, since one that committed but
 * reported an error must not run again.
 */
import type { INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { bounded as boundedWork } from '../../shared/transport/deadline';
import { monotonicNow } from '../../shared/transport/pause';
import { messageOf, storeError } from './errors';

/** A read is tried this often after a passing database error; a write is never repeated blindly. */
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

/**
 * One store call, bounded in time: a call that has not answered after STORE_CALL_MS fails (the
 * database call itself may still finish later; docs/deduplication.md, "The windows that remain").
 */
export async function bounded<T>(env: LockEnv, call: () => Promise<T>): Promise<T> {
	const outcome = await boundedWork(call(), { deadline: env.now() + STORE_CALL_MS });
	if ('cut' in outcome)
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
 * A write, tried once: one that committed but reported an error must not run again (a repeated
 * delete could remove the next holder's lock). `onUnique` answers the unique-key error of an
 * insert; `repeatable` marks the one write that may run twice (creating the lock: a second try
 * finds its own copies, which reads as someone's lock and is taken over once it stands still).
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
