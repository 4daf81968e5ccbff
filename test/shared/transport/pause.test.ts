/**
 * The abortable pause and the per-attempt bounds (nodes/shared/transport/pause.ts, deadline.ts):
 * a signal ends a pause at once, a work that never settles is ended by its deadline or its idle
 * limit, and a work that settles first wins.
 */
import { pause } from '../../../nodes/shared/transport/pause';
import {
	bounded,
	idleLimit,
	IDLE_LIMIT_MS,
	monotonicNow,
} from '../../../nodes/shared/transport/deadline';

const never = new Promise<never>(() => undefined);

describe('pause', () => {
	it('ends at once on a signal aborted before or during it, and runs out otherwise', async () => {
		const before = new AbortController();
		before.abort();
		expect(await pause(600000, before.signal)).toBe(true);
		const during = new AbortController();
		const paused = pause(600000, [undefined, during.signal]);
		during.abort();
		expect(await paused).toBe(true);
		expect(await pause(10)).toBe(false);
	});
});

describe('bounded', () => {
	it('gives the value of a work that settles in time, and its error', async () => {
		const bounds = { deadline: monotonicNow() + 60000 };
		expect(await bounded(Promise.resolve(7), bounds)).toEqual({ value: 7 });
		await expect(bounded(Promise.reject(new Error('boom')), bounds)).rejects.toThrow('boom');
	});

	it('ends a work that never settles early: deadline, idle limit, stop', async () => {
		expect(await bounded(never, { deadline: monotonicNow() + 50 })).toEqual({
			endedBy: 'deadline',
		});
		const quiet = monotonicNow();
		expect(
			await bounded(never, {
				deadline: monotonicNow() + 600000,
				idleMs: 50,
				lastActivity: () => quiet,
			}),
		).toEqual({ endedBy: 'idle' });
		const stop = new AbortController();
		const ended = bounded(never, { deadline: monotonicNow() + 600000, signal: stop.signal });
		stop.abort();
		expect(await ended).toEqual({ endedBy: 'stopped' });
	});

	it('allows a silence of at most the Timeout or IDLE_LIMIT_MS, whichever is shorter', () => {
		expect(idleLimit(2000)).toBe(2000);
		expect(idleLimit(600000)).toBe(IDLE_LIMIT_MS);
	});
});
