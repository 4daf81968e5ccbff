/**
 * The schedules of the simulation shaped as real queue mode runs (docs/deduplication.md, "The
 * simulation"): the queue shape of CI's two-node round with no fault (sim-queue.ts plays
 * its client), and one worker on a slow lock row. Their store timing is real queue mode's
 * (sim-timing.ts), or 1 to 3 ms a step.
 */
import type { Chance } from './sim-draws';
import { drawer, startOf } from './sim-draws';
import type { Schedule } from './sim-schedule';
import { CALIBRATION } from './sim-timing';

/** The queue shape (sim-queue.ts): a client delivering each event `copies` times to workers of `perProcess` slots. */
export interface QueueShape {
	events: number;
	/** How many times each event is delivered, one delivery right after the other. */
	copies: number;
	/** Requests the client keeps open at once. */
	inFlight: number;
	perProcess: number;
}

/** The first seed of the queue shape, of one worker with late counts, and of one worker beside another node. */
export const QUEUE_SEEDS = 1001;
export const LATE_COUNT_SEEDS = 2001;
export const FOREIGN_SEEDS = 3001;

/**
 * Real queue mode's two-node round (test/queue/rounds/dedup.ts, CI's queue step) with no fault of
 * any kind: 40 events each delivered twice at once, 20 requests in flight (40 in even seeds), two
 * workers of 10 executions, Webhook -> Order notice -> Shipping notice with the send's defaults,
 * the service answering in about 300 ms, the store's steps timed as measured (sim-timing.ts).
 */
export function queueSchedule(seed: number, chance: Chance): Schedule {
	return {
		seed,
		tier: 'queue',
		nodes: 2,
		chain: true,
		queue: { events: 40, copies: 2, inFlight: seed % 2 === 0 ? 40 : 20, perProcess: 10 },
		period: 'hour',
		zone: 'UTC',
		...startOf(chance, { period: 'hour', zone: 'UTC', seed }, false),
		retryUnknown: false,
		maxRetries: 3,
		timeoutMs: 30000,
		concurrency: 5,
		// One host: one clock.
		skews: [0, 0],
		// None planned: the client of sim-queue.ts delivers the events.
		executions: [],
		crashes: new Map(),
		healAt: 0,
		rates: {
			store: 0,
			storeKinds: [],
			service: 0,
			serviceKinds: [],
			latency: { min: 0, max: 0 },
			slowMs: { min: 0, max: 0 },
			serviceMs: CALIBRATION.service,
			measured: true,
		},
	};
}

/**
 * One worker streaking (`streakSchedule`) on a slow lock row. Of the counts of the lock's row by its holder, three in ten
 * are answered 1 to 5 s after their read (a connection that stalls on the way back), and every
 * heartbeat's write takes 0.5 to 2 s: a count read before a beat's write landed often reaches its
 * holder while that beat waits for its answer (holder.beat.test.ts; real queue mode, whose holders
 * never live long enough to beat, never meets it).
 */
export function lateCountsSchedule(seed: number, chance: Chance): Schedule {
	const s = streakSchedule(seed, chance);
	return {
		...s,
		tier: 'lateCounts',
		rates: {
			...s.rates,
			lateCounts: { chance: 0.3, min: 1000, max: 5000 },
			slowBeats: { min: 500, max: 2000 },
		},
	};
}

/**
 * One worker of 20 executions, 80 events each delivered once, store calls of 1 to 3 ms a step:
 * its rounds follow each other in streaks, the lock kept from one to the next after a count.
 */
function streakSchedule(seed: number, chance: Chance): Schedule {
	const s = queueSchedule(seed, chance);
	return {
		...s,
		queue: { events: 80, copies: 1, inFlight: 20, perProcess: 20 },
		skews: [0],
		rates: { ...s.rates, measured: false, latency: { min: 1, max: 3 } },
	};
}

/**
 * One worker streaking (as `streakSchedule`) while another node of the workflow (n8n's Remove
 * Duplicates, scope Workflow) writes into the lock's row, during a round 0.3 to 1 s in, no fault:
 * every round that counts the row after that refuses with the conflict, one kept through a streak
 * too (`stillHeld`).
 */
export function foreignSchedule(seed: number, chance: Chance): Schedule {
	const { between } = drawer(chance);
	return {
		...streakSchedule(seed, chance),
		tier: 'foreign',
		foreign: between(300, 1000),
		foreignInRound: true,
	};
}
