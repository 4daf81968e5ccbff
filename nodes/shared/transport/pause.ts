/**
 * Pauses that a stopped execution ends at once. Node code has no timers of its own (n8n Cloud's
 * rules): `sleep` from n8n-workflow is the one wait, and `sleepWithAbort` is not on every
 * supported n8n line, so a pause here is a run of short sleeps that also ends as soon as a signal
 * aborts. A pause that ended early leaves at most one short sleep behind (PAUSE_SLICE_MS).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * The clock of every bound and pause: monotonic, so a wall-clock step (NTP, a resumed virtual
 * machine) neither cuts a request or a pause short nor lets one run for ever.
 */
export function monotonicNow(): number {
	return performance.now();
}

/** The longest single sleep of a pause: what an ended pause can leave pending. */
export const PAUSE_SLICE_MS = 250;

/** Signals that end a pause: any of them aborting is enough. */
export type PauseSignal = AbortSignal | undefined | ReadonlyArray<AbortSignal | undefined>;

/**
 * Waits `ms` milliseconds, or less when a signal aborts (also one aborted already). Resolves
 * true when a signal ended it, false when the time ran out.
 */
export async function pause(ms: number, signal?: PauseSignal): Promise<boolean> {
	const signals = (Array.isArray(signal) ? signal : [signal]).filter(
		(s): s is AbortSignal => s !== undefined,
	);
	const aborted = () => signals.some((s) => s.aborted);
	if (aborted()) return true;
	let wake = () => {};
	const woken = new Promise<void>((resolve) => (wake = resolve));
	for (const s of signals) s.addEventListener('abort', wake, { once: true });
	try {
		const end = monotonicNow() + ms;
		for (;;) {
			const left = end - monotonicNow();
			if (left <= 0) return false;
			await Promise.race([sleep(Math.min(left, PAUSE_SLICE_MS)), woken]);
			if (aborted()) return true;
		}
	} finally {
		for (const s of signals) s.removeEventListener('abort', wake);
	}
}

/**
 * The execution's cancel signal (aborted when the execution is stopped), when this n8n line and
 * context give one.
 */
export function cancelSignalOf(ctx: Pick<IExecuteFunctions, 'getExecutionCancelSignal'>) {
	const get = (ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	return typeof get === 'function' ? get.call(ctx) : undefined;
}

/** True when the execution was stopped. */
export function isStopped(signal: AbortSignal | undefined): boolean {
	return signal?.aborted === true;
}

/**
 * `work`'s value, or 'stopped' as soon as `signal` is aborted (at once when it already is): the
 * caller stops waiting, `work` itself goes on.
 */
export async function unlessStopped<T>(
	work: Promise<T>,
	signal: AbortSignal | undefined,
): Promise<T | 'stopped'> {
	if (!signal) return await work;
	if (signal.aborted) return 'stopped';
	let onStop: () => void = () => undefined;
	const stopped = new Promise<'stopped'>((resolve) => (onStop = () => resolve('stopped')));
	signal.addEventListener('abort', onStop, { once: true });
	try {
		return await Promise.race([work, stopped]);
	} finally {
		signal.removeEventListener('abort', onStop);
	}
}
