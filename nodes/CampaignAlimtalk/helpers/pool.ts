import { pause } from '../../shared/transport/pause';

/**
 * Runs `task` for every index with at most `concurrency` in flight, each worker pausing
 * `pauseMs` after each of its tasks. Results keep the input order whatever the completion
 * order. `shouldStop` is checked before each new task; once it is true, or once `signal` (the
 * execution's cancel signal) aborts, no new task starts (the remaining results stay undefined),
 * and an abort ends the pauses at once.
 */
export async function runOrdered<T>(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<T>,
	options: { pauseMs?: number; shouldStop?: () => boolean; signal?: AbortSignal } = {},
): Promise<Array<T | undefined>> {
	const results: Array<T | undefined> = new Array(count).fill(undefined);
	let next = 0;
	const stop = () => options.signal?.aborted === true || (options.shouldStop?.() ?? false);
	const worker = async () => {
		while (next < count && !stop()) {
			const index = next++;
			results[index] = await task(index);
			if (options.pauseMs && options.pauseMs > 0 && next < count)
				await pause(options.pauseMs, options.signal);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
	return results;
}
