/**
 * The store and service timing of the simulation's queue shape (sim-queue.ts), as measured in
 * real queue mode and kept as data in sim-timing.json (where it comes from and when is written
 * there; scripts/sim-calibrate.js makes it from real traces, scripts/sim-trace-stats.js compares
 * a real trace with the simulation's).
 *
 * Each database step of a store call (dedup-store.ts `StoreTiming`) waits `before` its read or
 * write (the worker's pool, a connection opened, the database) and `after` it, before the caller
 * has the answer (the way back, the worker's busy event loop). A call's steps are drawn together,
 * as one real call's (sim-timing.json `calls`): in real n8n a call whose read waited long often
 * waits long again before its write (a busy worker), and that is what lets a lock create that lost
 * the race write its row back after the winner released it and took it again (window 5).
 */
import type { StepTimes, StoreCallKind, StoreTiming } from '../../support/dedup-store';
import { env, fs, path, ROOT } from '../../support/node';

/** Milliseconds at each of `quantiles` (the same length). */
type Distribution = number[];

interface Calibration {
	source: string;
	recorded: string;
	/**
	 * Per `<call>.<row>` (count.lock, record.lock, record.keys, remove.keys, clear.lock): real
	 * calls' step times, each `[before, after]` of its first step, then of its write if it has one.
	 */
	calls: Record<string, number[][]>;
	quantiles: number[];
	/** One request to the service (the sandbox's latency and the way there and back). */
	service: Distribution;
	/** From the client's request to its execution's start on a worker, and from its end to the answer. */
	dispatch: Distribution;
	answer: Distribution;
}

/** The calibration: sim-timing.json, or the file SIM_TIMING names (a model to try against a trace). */
export const CALIBRATION = JSON.parse(
	fs.readFileSync(
		env.SIM_TIMING ?? path.join(ROOT, 'test/CampaignAlimtalk/dedup/sim-timing.json'),
		'utf8',
	),
) as Readonly<Calibration>;

/** A draw from `dist` (linear between its quantiles) with `random` in [0, 1). */
export function draw(dist: Distribution, random: number): number {
	const q = CALIBRATION.quantiles;
	for (let i = 1; i < q.length; i++) {
		if (random <= q[i]) {
			const share = (random - q[i - 1]) / (q[i] - q[i - 1] || 1);
			return dist[i - 1] + share * (dist[i] - dist[i - 1]);
		}
	}
	return dist[dist.length - 1];
}

/** Each call's step times: one real call's of the same kind and row, drawn with `random`. */
export function measuredTiming(random: () => number): StoreTiming {
	const pool = (kind: StoreCallKind, id: string) => {
		const row = id.endsWith('\u0000') ? 'lock' : 'keys';
		const calls = CALIBRATION.calls[`${kind}.${row}`] ?? CALIBRATION.calls[`${kind}.keys`];
		if (!calls) throw new Error(`sim-timing.json has no ${kind} calls`);
		return calls;
	};
	return {
		call(kind, id): StepTimes {
			const calls = pool(kind, id);
			const times = calls[Math.floor(random() * calls.length)];
			// The first step (a read, or a clear's delete), then the write.
			const at = (step: string) => (step === 'find' || step === 'delete' ? 0 : 2);
			return {
				before: (step) => times[at(step)] ?? 0,
				after: (step) => times[at(step) + 1] ?? 0,
			};
		},
	};
}
