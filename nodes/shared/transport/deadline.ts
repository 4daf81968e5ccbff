/**
 * One attempt's bounds (docs/service-rules.md#retries): the Timeout option is one deadline for the
 * whole answer, headers and body (n8n's request helper stops timing once the headers arrived);
 * while the body arrives, a pause of IDLE_LIMIT_MS without a byte (or the Timeout, when shorter)
 * ends it too; and a stopped execution ends it at once.
 */
import { monotonicNow, pause } from './pause';

export { monotonicNow } from './pause';

/**
 * The reason `bounded` ends its `firstEnd` wait with: an abort without a reason builds a
 * DOMException, stack and all, on every call (measurable in `npm run bench -- --profile` of a
 * keyed send).
 */
const SETTLED = 'settled';

/** The longest silence allowed while a body arrives (the Timeout too, when it is shorter). */
export const IDLE_LIMIT_MS = 10000;

/** What ended an attempt early. */
export type EndedBy = 'deadline' | 'idle' | 'stopped';

/** One attempt's bounds. */
export interface AttemptBounds {
	/** When the attempt must be over (monotonicNow() time). */
	deadline: number;
	/** The execution's cancel signal. */
	signal?: AbortSignal;
	/** With `lastActivity`: the longest silence allowed. */
	idleMs?: number;
	/** When the last byte arrived (monotonicNow() time). */
	lastActivity?: () => number;
}

/** The idle limit of an attempt with this Timeout. */
export function idleLimit(timeoutMs: number): number {
	return Math.min(timeoutMs, IDLE_LIMIT_MS);
}

/**
 * Waits for `work`, but no longer than `bounds` allow: its value, or what ended it early. The work
 * is left running when ended early (the caller closes what it holds); its failure is then ignored.
 */
export async function bounded<T>(
	work: Promise<T>,
	bounds: AttemptBounds,
): Promise<{ value: T } | { endedBy: EndedBy }> {
	type Outcome = { value: T } | { error: unknown } | { endedBy: EndedBy };
	const done = new AbortController();
	const settled: Promise<Outcome> = work.then(
		(value) => ({ value }),
		(error: unknown) => ({ error }),
	);
	void settled.then(() => done.abort(SETTLED));
	const ended: Promise<Outcome> = firstEnd(bounds, done.signal).then((endedBy) =>
		endedBy === undefined ? settled : { endedBy },
	);
	const first = await Promise.race([settled, ended]);
	done.abort(SETTLED);
	if ('error' in first) throw first.error;
	return first;
}

/** Resolves with the first of `bounds` to end the attempt, or undefined once `done` aborts. */
async function firstEnd(bounds: AttemptBounds, done: AbortSignal): Promise<EndedBy | undefined> {
	for (;;) {
		if (done.aborted) return undefined;
		if (bounds.signal?.aborted) return 'stopped';
		const now = monotonicNow();
		if (now >= bounds.deadline) return 'deadline';
		let until = bounds.deadline;
		if (bounds.idleMs !== undefined && bounds.lastActivity) {
			const quietUntil = bounds.lastActivity() + bounds.idleMs;
			if (now >= quietUntil) return 'idle';
			until = Math.min(until, quietUntil);
		}
		await pause(until - now, [done, bounds.signal]);
	}
}
