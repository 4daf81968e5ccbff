/**
 * The schedule of one seed of the deduplication simulation (sim-suite.ts): everything drawn from
 * one chance before anything runs. What runs: executions of keyed sends in several processes, with
 * or without a Send Limit per hour or day, one or two keyed nodes. What goes wrong: store and
 * service faults, store latency of up to 300 ms a step, writes that land late, an outage of the
 * store, processes that crash, stall or are stopped, clocks that disagree (past the margin in a
 * few schedules), a period boundary, another node writing into the lock's row.
 *
 * Every schedule sends something before its probe: its first execution starts at once on a
 * process that never crashes, and the faults begin once the service accepted a first message
 * (sim-world.ts). A schedule with a Send Limit asks more distinct messages than its limit.
 */
import { mulberry32 } from '../../../sandbox/faults';
import { SKEW_MS } from './sim-clock';
import type { Chance, FaultRates } from './sim-draws';
import { burst, drawer, ratesOf, skewsOf, stallOf, startOf } from './sim-draws';
import type { QueueShape } from './sim-shapes';
import {
	FOREIGN_SEEDS,
	foreignSchedule,
	lateCountsSchedule,
	LATE_COUNT_SEEDS,
	queueSchedule,
	QUEUE_SEEDS,
} from './sim-shapes';

/** The two keyed nodes a schedule may have, each with its own campaign (its messages). */
export const NODES = [
	{ name: 'Send A', id: 'node-a', campaign: 'WELCOME' },
	{ name: 'Send B', id: 'node-b', campaign: 'THANKS' },
];

/** The longest pause between two tries of one request (shared/transport/retry.ts). */
const MAX_BACKOFF_MS = 30000;
/** The probe's fresh orders start here, above every order a schedule uses. */
export const FRESH_FROM = 100000;
/** The node refuses a Deduplication History Size under this (shared/options.ts MIN_HISTORY). */
const MIN_HISTORY = 1000;

export interface ExecutionSpec {
	proc: number;
	/** When it starts, in ms after the schedule's start. */
	at: number;
	/** Its items' order numbers (the key of order n is `order-n`). */
	orders: number[];
	/** When it is stopped (n8n's Stop), in ms after its start. */
	stopAfter?: number;
}

/** A process that freezes (every store call, request and timer of it) for `ms`, holding the lock. */
export interface Stall {
	proc: number;
	/**
	 * It freezes at its first write after this (ms after the start) to a row of keys (under the
	 * lock), or to the lock's row while it holds the lock (a heartbeat), between the read and the write.
	 */
	after: number;
	row: 'keys' | 'lock';
	/** Mostly past the takeover (STALE_LOCK_MS), some shorter. */
	ms: number;
}

export interface Schedule {
	seed: number;
	/**
	 * `many`: rounds of many keys at once (remove calls over 250 values); `evict`: more keys than
	 * the History Size; `queue`: real queue mode's shape, no fault (sim-queue.ts); `lateCounts`:
	 * one worker with one fault, counts of the lock's row answered seconds after their read;
	 * `foreign`: one worker and another node writing into the lock's row (sim-shapes.ts).
	 */
	tier: 'light' | 'many' | 'evict' | 'queue' | 'lateCounts' | 'foreign';
	nodes: number;
	/** The keyed nodes one after the other (the second fed by the first's Success), not side by side. */
	chain?: boolean;
	queue?: QueueShape;
	limit?: number;
	period: 'hour' | 'day';
	zone: string;
	/** The true time the schedule starts at. */
	startMs: number;
	/** The period boundary (true time) the schedule was drawn to straddle. */
	boundary?: number;
	retryUnknown: boolean;
	maxRetries: number;
	timeoutMs: number;
	concurrency: number;
	historySize?: number;
	skews: number[];
	executions: ExecutionSpec[];
	/** Process index -> when it crashes, in ms after the schedule's start. */
	crashes: Map<number, number>;
	stall?: Stall;
	/** When another node (n8n's Remove Duplicates, scope Workflow) writes into the lock's row. */
	foreign?: number;
	/** It writes at the first record call on a row of keys from then on: while a round is under way. */
	foreignInRound?: boolean;
	/** When the faults end (ms after the start): the executions after it meet a healthy store and service. */
	healAt: number;
	rates: FaultRates;
}

/** A light schedule: a few processes, a few messages, every fault. */
function light(seed: number, chance: Chance): Schedule {
	const { between, pick, some } = drawer(chance);
	const limit = chance() < 0.5 ? between(2, 4) : undefined;
	const stalls = chance() < 0.15;
	const foreign = !stalls && chance() < 0.1;
	const rates = ratesOf(chance, true);
	if (rates.outage) {
		// Rounds long enough to end a streak (rounds.ts): another process may take the lock between
		// the round the outage cut and the next; a service that refuses often (releases to write).
		rates.latency = pick([
			{ min: 10, max: 120 },
			{ min: 30, max: 300 },
		]);
		rates.service = 0.3;
	}
	const processes = stalls || rates.outage ? between(2, 3) : between(1, 3);
	// With a limit, twice its messages and more: a period after a boundary still has more than the limit.
	const size = limit === undefined ? between(3, 8) : 2 * limit + between(2, 4);
	const pool = Array.from({ length: size }, (_, i) => i + 1);
	const executions: ExecutionSpec[] = [{ proc: 0, at: 0, orders: pool.slice(0, 3) }];
	for (let n = between(3, 7); n > 0; n--) {
		executions.push({
			proc: between(0, processes - 1),
			at: between(0, 20000),
			orders: some(pool, between(1, 4)),
			stopAfter: chance() < 0.15 ? between(10, 15000) : undefined,
		});
	}
	// Every message of the pool is asked at least once: more than the limit, when there is one.
	for (const order of pool.slice(3)) pick(executions.slice(1)).orders.push(order);
	if (chance() < 0.4)
		executions.push(
			...burst(between(0, processes - 1), between(500, 20000), some(pool, between(1, 3)), chance),
		);
	const crashes = new Map<number, number>();
	if (processes > 1 && chance() < 0.25)
		crashes.set(between(1, processes - 1), between(1000, 30000));
	let stall: Stall | undefined;
	if (stalls) {
		const drawn = stallOf(chance, processes, pool);
		stall = drawn.stall;
		executions.push(...drawn.executions);
		crashes.delete(stall.proc);
		// A heartbeat needs a lock held 2 s (holder.ts HEARTBEAT_MS): rounds of slow calls.
		if (stall.row === 'lock') rates.latency = { min: 30, max: 300 };
	}
	const foreignAt = foreign ? between(3000, 20000) : undefined;
	if (foreignAt !== undefined)
		for (let n = 2; n > 0; n--)
			executions.push({
				proc: between(0, processes - 1),
				at: foreignAt + between(25000, 40000),
				orders: some(pool, 2),
			});
	if (rates.outage) {
		// Other processes ask the same keys around the outage: between the call that landed and the
		// round after, another process may record the values that round takes back.
		const { at } = rates.outage;
		executions.push({
			proc: between(1, processes - 1),
			at: at + between(0, 3000),
			orders: [...pool],
		});
		executions.push({
			proc: between(1, processes - 1),
			at: at + between(3000, 10000),
			orders: [...pool],
		});
	}
	const healAt = between(20000, 35000);
	// Once the faults are over, the whole pool once more, twice at once, on a process that never
	// crashes: the limit is reached, and used up while one round asks a key twice.
	if (limit !== undefined)
		executions.push(...burst(0, healAt + between(1000, 10000), [...pool], chance));
	const period = limit === undefined ? 'hour' : pick(['hour', 'day'] as const);
	const zone = pick(['UTC', 'UTC', 'Asia/Seoul', 'Asia/Kolkata']);
	const edge = chance() < (limit === undefined ? 0.15 : 0.3);
	return {
		seed,
		tier: 'light',
		nodes: chance() < 0.3 ? 2 : 1,
		limit,
		period,
		zone,
		...startOf(chance, { period, zone, seed }, edge),
		retryUnknown: chance() < 0.4,
		maxRetries: between(0, 2),
		timeoutMs: pick([2000, 5000]),
		concurrency: between(1, 3),
		skews: skewsOf(chance, processes),
		executions,
		crashes,
		stall,
		foreign: foreignAt,
		healAt,
		rates,
	};
}

/**
 * A heavy schedule, in few seeds: two large executions at once in one process (rounds of many
 * keys: their remove calls go in pieces of 250 values), then redeliveries from another; `evict`:
 * more keys than the History Size, the early ones asked again once they were forgotten.
 */
function heavy(seed: number, chance: Chance, tier: 'many' | 'evict'): Schedule {
	const { between, pick, some } = drawer(chance);
	const evict = tier === 'evict';
	const limit = !evict && chance() < 0.5 ? between(2, 4) : undefined;
	const size = evict ? between(560, 640) : between(130, 200);
	const first = Array.from({ length: size }, (_, i) => i + 1);
	const second = Array.from(
		{ length: size },
		(_, i) => i + 1 + (evict ? size : Math.floor(size / 2)),
	);
	const used = [...new Set([...first, ...second])];
	const executions: ExecutionSpec[] = [
		{ proc: 0, at: 0, orders: first },
		{ proc: 0, at: between(0, 50), orders: second },
		{ proc: 1, at: between(100, 3000), orders: some(used, 40) },
		{ proc: 1, at: between(20000, 40000), orders: first.slice(0, 30) },
	];
	const period = pick(['hour', 'day'] as const);
	return {
		seed,
		tier,
		nodes: 1,
		limit,
		period,
		zone: 'UTC',
		...startOf(chance, { period, zone: 'UTC', seed }, false),
		retryUnknown: chance() < 0.4,
		maxRetries: between(0, 1),
		timeoutMs: 2000,
		concurrency: between(30, 50),
		historySize: evict ? MIN_HISTORY : undefined,
		skews: [between(-SKEW_MS / 2, SKEW_MS / 2), between(-SKEW_MS / 2, SKEW_MS / 2)],
		executions,
		crashes: new Map(),
		healAt: 60000,
		// Past the History Size only with a healthy store: an execution stops at its first store failure.
		rates: {
			...ratesOf(chance, false),
			slowMs: { min: 2000, max: 20000 },
			...(evict ? { store: 0, outage: undefined } : {}),
		},
	};
}

/**
 * The schedule of a seed: from QUEUE_SEEDS on those shaped as real queue mode (sim-shapes.ts);
 * below, one seed in 25 heavy (one in 50 past the History Size), the others light.
 */
export function scheduleOf(seed: number): Schedule {
	const chance = mulberry32(seed * 7919 + 17);
	if (seed >= FOREIGN_SEEDS) return foreignSchedule(seed, chance);
	if (seed >= LATE_COUNT_SEEDS) return lateCountsSchedule(seed, chance);
	if (seed >= QUEUE_SEEDS) return queueSchedule(seed, chance);
	if (seed % 50 === 0) return heavy(seed, chance, 'evict');
	if (seed % 25 === 0) return heavy(seed, chance, 'many');
	return light(seed, chance);
}

/** The longest one send can take with the schedule's settings: every try timing out, every pause at its longest. */
export function longestSendMs(s: Schedule): number {
	return (s.maxRetries + 1) * s.timeoutMs + s.maxRetries * MAX_BACKOFF_MS;
}
