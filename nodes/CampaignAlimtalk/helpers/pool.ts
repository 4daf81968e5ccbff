import { sleep } from 'n8n-workflow';

/**
 * Runs `task` for every index with at most `concurrency` in flight, each worker pausing
 * `pauseMs` after each of its tasks. Results keep the input order whatever the completion
 * order. `shouldStop` is checked before each new task; once it is true no new task starts
 * (the remaining results stay undefined).
 */
export async function runOrdered<T>(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<T>,
	options: { pauseMs?: number; shouldStop?: () => boolean } = {},
): Promise<Array<T | undefined>> {
	const results: Array<T | undefined> = new Array(count).fill(undefined);
	let next = 0;
	const worker = async () => {
		while (next < count && !(options.shouldStop?.() ?? false)) {
			const index = next++;
			results[index] = await task(index);
			if (options.pauseMs && options.pauseMs > 0 && next < count) await sleep(options.pauseMs);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
	return results;
}
