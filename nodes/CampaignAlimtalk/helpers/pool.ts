import { pause } from '../../shared/transport/pause';

/**
 * Runs `task` for each index, at most `concurrency` at once, results in input order. Once
 * `shouldStop` is true or `signal` aborts, no task starts (its result stays undefined).
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
