/**
 * How a schedule of the deduplication simulation is drawn (sim-schedule.ts): its fault rates and
 * store latency, its clocks, its start (at a period's boundary or not), redelivery bursts and stalls.
 */
import { periodOf } from '../../../nodes/CampaignAlimtalk/limit/limit';
import { SKEW_MS } from './sim-clock';
import type { StoreFault } from './sim-store';
import type { ServiceFault } from './sim-world';
import type { ExecutionSpec, Schedule, Stall } from './sim-schedule';

/** The day the schedules run on (a schedule that straddles a boundary starts just before it). */
const DAY_START = Date.parse('2026-03-10T00:00:00.000Z');

/** What goes wrong in a schedule's store and service, and how long they take. */
export interface FaultRates {
	/** Chance that a store call is not `ok`; the kind is then drawn evenly. */
	store: number;
	storeKinds: StoreFault[];
	/** Chance that a request is not `ok`; the kind is then drawn evenly. */
	service: number;
	serviceKinds: ServiceFault[];
	/** Milliseconds one database step takes. */
	latency: { min: number; max: number };
	/** How long a `slow` call's write is held back. */
	slowMs: { min: number; max: number };
	/** When the store fails every call: from the first remove call on a row of keys `at` ms after the start or later. */
	outage?: { at: number; ms: number };
	/** How long the service takes to answer, as measured (sim-timing.ts); default 5 to 60 ms. */
	serviceMs?: number[];
	/** The store's steps timed as measured in real queue mode (sim-timing.ts), not by `latency`. */
	measured?: boolean;
	/** Chance that a count of the lock's row by its holder is answered late (read on time), and how late. */
	lateCounts?: { chance: number; min: number; max: number };
	/** How long every heartbeat's write is held back (a slow lock row). */
	slowBeats?: { min: number; max: number };
}

export type Chance = () => number;

export function drawer(chance: Chance) {
	const between = (min: number, max: number) => min + Math.floor(chance() * (max - min + 1));
	const pick = <T>(values: readonly T[]): T => values[Math.floor(chance() * values.length)];
	const some = (pool: readonly number[], n: number) => Array.from({ length: n }, () => pick(pool));
	return { between, pick, some };
}

/** Where the store's steps and late writes land: most schedules fast, some slow (calls of up to 300 ms a step). */
export function ratesOf(chance: Chance, light: boolean): FaultRates {
	const { between, pick } = drawer(chance);
	const latency = pick([
		{ min: 1, max: 3 },
		{ min: 1, max: 3 },
		{ min: 2, max: 30 },
		{ min: 10, max: 120 },
		{ min: 30, max: 300 },
	]);
	const longSlow = chance() < 0.3;
	const outageAt = chance() < 0.3 ? between(1000, 20000) : undefined;
	return {
		store: light ? pick([0, 0.05, 0.1, 0.2]) : pick([0, 0.02, 0.05]),
		storeKinds: ['failBefore', 'failAfter', 'hang', 'slow', 'lateAnswer'],
		service: pick([0, 0.1, 0.3]),
		serviceKinds: ['refused', 'droppedAfter', 'error7999', 'noAnswer'],
		latency,
		// Late writes: most within a holder's wait for them, some past it and the takeover (docs window 1).
		slowMs: longSlow ? { min: 20000, max: 120000 } : { min: 2000, max: 20000 },
		// Mostly a short drop (the lock's release after it may succeed), some longer.
		outage:
			outageAt === undefined
				? undefined
				: { at: outageAt, ms: chance() < 0.6 ? between(30, 300) : between(500, 3000) },
	};
}

/** The clocks: within ±SKEW_MS / 2 of each other, or in a few schedules past the margin. */
export function skewsOf(chance: Chance, processes: number): number[] {
	const { between } = drawer(chance);
	if (chance() >= 0.08)
		return Array.from({ length: processes }, () => between(-SKEW_MS / 2, SKEW_MS / 2));
	// Past CLOCK_SKEW_MS (markers.ts): one process at least 60 s off, up to 150 s.
	const skews = Array.from({ length: processes }, () => between(-150000, 150000));
	skews[between(0, processes - 1)] = (chance() < 0.5 ? -1 : 1) * between(61000, 150000);
	return skews;
}

/** When the schedule starts: an ordinary morning, or just before a period's boundary in its zone. */
export function startOf(
	chance: Chance,
	s: Pick<Schedule, 'period' | 'zone' | 'seed'>,
	edge: boolean,
) {
	const { between } = drawer(chance);
	const morning = DAY_START + 9 * 3600000 + (s.seed % 240) * 60000;
	if (!edge) return { startMs: morning };
	const from = s.period === 'day' ? DAY_START + 12 * 3600000 : morning;
	const boundary = periodOf(from, s.period, s.zone).endMs;
	return { startMs: boundary - between(0, 20000), boundary };
}

/** A pair of executions of the same orders in one process at once: a redelivery burst (one round asks a key twice). */
export function burst(proc: number, at: number, orders: number[], chance: Chance): ExecutionSpec[] {
	return [
		{ proc, at, orders },
		{ proc, at: at + drawer(chance).between(0, 3), orders: [...orders] },
	];
}

/** The stall of a schedule, and the executions that make it matter: the stalled process writes, another asks the same keys. */
export function stallOf(chance: Chance, processes: number, pool: number[]) {
	const { between, pick, some } = drawer(chance);
	const stall: Stall = {
		proc: between(0, processes - 1),
		after: between(2000, 15000),
		row: pick(['keys', 'keys', 'lock'] as const),
		ms: chance() < 0.2 ? between(6000, 25000) : between(31000, 60000),
	};
	const other = (stall.proc + between(1, processes - 1)) % processes;
	const orders = some(pool, between(2, 4));
	const executions: ExecutionSpec[] = [
		{ proc: stall.proc, at: stall.after + between(0, 500), orders },
		{ proc: other, at: stall.after + between(3000, 40000), orders: [...orders] },
		{ proc: other, at: stall.after + between(45000, 70000), orders: [...orders] },
		// The stalled process asks them again as soon as it can: two processes on the same keys.
		{ proc: stall.proc, at: stall.after + stall.ms + between(0, 5000), orders: [...orders] },
	];
	return { stall, executions };
}
