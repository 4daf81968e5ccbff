/**
 * The send's pool (nodes/CampaignAlimtalk/helpers/pool.ts), on its own and on a fake clock:
 * each sender waits Pause Between Requests after a request before its next one, never after its
 * last. The send's requests in flight through the engine are in send-concurrency.test.ts.
 */
import { runOrdered } from '../../../nodes/CampaignAlimtalk/helpers/pool';

afterEach(() => {
	jest.useRealTimers();
});

describe('runOrdered', () => {
	it('has a sender wait pauseMs after each task before the next, and not after the last', async () => {
		jest.useFakeTimers({ now: 0 });
		const started: Array<[number, number]> = [];
		const run = runOrdered(
			3,
			1,
			async (i) => {
				started.push([i, Date.now()]);
				return i * 10;
			},
			{ pauseMs: 120 },
		);
		await jest.advanceTimersByTimeAsync(119);
		expect(started).toEqual([[0, 0]]);
		await jest.advanceTimersByTimeAsync(1);
		expect(started).toEqual([
			[0, 0],
			[1, 120],
		]);
		await jest.advanceTimersByTimeAsync(120);
		expect(await run).toEqual([0, 10, 20]);
		expect(started).toEqual([
			[0, 0],
			[1, 120],
			[2, 240],
		]);
		expect(jest.getTimerCount()).toBe(0);
	});
});
