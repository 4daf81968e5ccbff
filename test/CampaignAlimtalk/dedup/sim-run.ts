/**
 * Plays one schedule of the deduplication simulation (sim-schedule.ts) on the fake clock, then
 * waits out the window and runs the probe: one execution with every key used and fresh ones, on
 * a healthy store (sim-check.ts checks everything once it is over).
 */
import type { ICheckProcessedContextData } from 'n8n-workflow';
import { delay, nextTurn } from '../../support/node';
import { mulberry32 } from '../../../sandbox/faults';
import { periodOf } from '../../../nodes/CampaignAlimtalk/limit/limit';
import { slotName } from '../../../nodes/CampaignAlimtalk/limit/places';
import { ProcessedDataStore } from '../../support/dedup-store';
import { WF } from './support';
import type { Process } from './sim-world';
import { World } from './sim-world';
import { installClocks, trueNow, unstalled } from './sim-clock';
import type { Schedule } from './sim-schedule';
import { FRESH_FROM, NODES, longestSendMs, scheduleOf } from './sim-schedule';
import type { Outcome } from './sim-execute';
import { execute, orderOfPhone } from './sim-execute';
import type { QueueCounts } from './sim-queue';
import { queueCounts, startQueue } from './sim-queue';
import { measuredTiming } from './sim-timing';

export type { Outcome } from './sim-execute';

/**
 * How long after the last execution ended a claim may still read "in flight", beyond the
 * schedule's longest send (docs/deduplication.md, "The engine": the node's longest send adds a
 * minute to record the answer; a crashed claim reads in flight for at most that plus 2 minutes,
 * and a claim beside the probes of a lookup whose remove call failed for at most the longest
 * send plus 3 minutes): read on the claimer's clock, which may run ahead of the probe's.
 */
export function windowMs(s: Schedule): number {
	return 60000 + 180000 + Math.max(0, ...s.skews);
}

/** The data n8n's Remove Duplicates (scope Workflow) writes into the workflow's shared row. */
export const FOREIGN_VALUES = ['remove-duplicates:item-1', 'remove-duplicates:item-2'];

/** Advances the fake clock until `done()` holds; false when `capMs` of fake time passed first. */
export async function advanceUntil(done: () => boolean, capMs: number): Promise<boolean> {
	const until = Date.now() + capMs;
	while (!done()) {
		await nextTurn();
		await nextTurn();
		if (done()) return true;
		if (Date.now() >= until || jest.getTimerCount() === 0) return false;
		// To the next timer, and never less than a millisecond (a pause's sub-millisecond rest).
		const before = Date.now();
		jest.advanceTimersToNextTimer();
		if (Date.now() === before) jest.advanceTimersByTime(1);
	}
	return true;
}

export interface Played {
	schedule: Schedule;
	world: World;
	outcomes: Outcome[];
	/** Executions of live processes that never ended (an unbounded wait). */
	hung: number;
	/** The check after the window: one execution per node of every key used and fresh ones. */
	probe: Outcome;
	/** The fresh orders of the probe (never used before it). */
	fresh: number[];
	/** Per node name: the Send Limit places of the probe's period its row of keys held before the probe. */
	held: Map<string, number>;
	/** How many messages the service accepted before the probe. */
	sentBefore: number;
	/** When another node's data landed in the lock's row, and whether it was still there at the end. */
	foreign?: { at: number; kept: boolean };
	/** The queue shape's counts, once its executions ended (sim-queue.ts). */
	queue?: QueueCounts;
}

/** How many places of the period of `atMs` node `nodeId`'s row of keys holds (scope "This Node"). */
function placesHeld(world: World, s: Schedule, nodeId: string, atMs: number): number {
	if (s.limit === undefined) return 0;
	const { startMs } = periodOf(atMs, s.period, s.zone);
	const row = new Set(world.store.entries(WF, `n:${nodeId}`) ?? []);
	return Array.from({ length: s.limit }, (_, i) => slotName(s.period, startMs, i + 1)).filter(
		(slot) => row.has(ProcessedDataStore.hash(slot)),
	).length;
}

const rowData = (node: string) =>
	({
		workflow: { id: WF },
		node: { id: node, name: node },
	}) as unknown as ICheckProcessedContextData;

/** Another node's write into the lock's row at the schedule's time: when it landed, once it did. */
function startForeign(world: World, s: Schedule) {
	const foreign: { at?: number } = {};
	if (s.foreign === undefined) return foreign;
	const other = { name: 'remove-duplicates', skewMs: 0, dead: false, stallUntil: 0 } as Process;
	const write = async () =>
		await world.sim.foreignWrite(other, rowData('remove-duplicates'), FOREIGN_VALUES);
	const land = async () => {
		// A write that lost the race to create the row (a unique-key error) is made again, as the
		// other node's next execution would.
		while (foreign.at === undefined)
			foreign.at = await write().catch(async () => {
				await delay(10);
				return undefined;
			});
		// From here the store is healthy: every execution must refuse with the conflict.
		world.sim.faulty = false;
		world.faultsLater = false;
	};
	// At its time, or at the first record call on a row of keys after it (a round under way).
	void delay(s.foreign).then(() => {
		if (s.foreignInRound) world.sim.onKeysRecord = () => void land();
		else void land();
	});
	return foreign;
}

/** Starts what the schedule does at its times: executions, crashes. */
function start(world: World, s: Schedule, procs: Process[], outcomes: Outcome[]) {
	for (const spec of s.executions) {
		void delay(spec.at).then(() => {
			if (procs[spec.proc].dead) return;
			const proc = procs[spec.proc];
			// n8n's Stop reaches a stalled process's execution once the process runs again.
			const stop =
				spec.stopAfter === undefined
					? undefined
					: delay(spec.stopAfter).then(async () => await unstalled(proc));
			outcomes.push(execute(world, s, procs[spec.proc], spec.orders, stop, spec));
		});
	}
	for (const [p, at] of s.crashes) {
		void delay(at).then(() => {
			procs[p].dead = true;
			outcomes.filter((o) => o.proc === procs[p] && !o.done).forEach((o) => (o.crashed = true));
		});
	}
	void delay(s.healAt).then(() => {
		world.sim.faulty = false;
		world.faultsLater = false;
	});
}

/** Plays the schedule of `seed` on the fake clock, then waits out the window and runs the probe. */
export async function play(seed: number): Promise<Played> {
	const s = scheduleOf(seed);
	jest.useFakeTimers({
		now: s.startMs,
		// Real turns of the event loop let every promise settle between two timers (sim-run's driver).
		doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'],
	});
	installClocks();
	jest.spyOn(Math, 'random').mockImplementation(mulberry32(seed ^ 0x5eed));
	const campaigns = new Map(NODES.map((n) => [n.campaign, n.id]));
	const world = new World(seed, WF, s.rates, (c) => campaigns.get(c) ?? '', orderOfPhone);
	const { outage, latency } = s.rates;
	if (outage) world.sim.outageArmed = { from: s.startMs + outage.at, ms: outage.ms };
	world.store.latency = { ...latency };
	if (s.rates.measured) world.store.timing = measuredTiming(mulberry32(seed ^ 0x71e));
	const procs = s.skews.map((skew, i) => world.process(`p${i}`, skew));
	if (s.stall)
		world.sim.stalls.set(`p${s.stall.proc}`, {
			from: s.startMs + s.stall.after,
			row: s.stall.row,
			ms: s.stall.ms,
		});
	const outcomes: Outcome[] = [];
	const answered = s.queue ? startQueue(world, s, procs, outcomes) : undefined;
	if (!answered) start(world, s, procs, outcomes);
	const foreign = startForeign(world, s);
	const started = () => outcomes.length + s.executions.filter((e) => procs[e.proc].dead).length;
	const allStarted = () => (answered ? answered() : started() >= s.executions.length);
	const live = () => outcomes.filter((o) => !o.done && !o.crashed);
	await advanceUntil(() => allStarted() && live().length === 0, 30 * 60000);
	const hung = live().length;
	const queue = s.queue ? queueCounts(world, s, outcomes) : undefined;
	// Nothing in flight any more: heal the faults and wait out the longest send and the window.
	world.sim.faulty = false;
	world.faultsLater = false;
	const settled = Date.now() + longestSendMs(s) + windowMs(s);
	await advanceUntil(() => Date.now() >= settled, longestSendMs(s) + windowMs(s) + 1);
	jest.setSystemTime(Math.max(Date.now(), settled));
	let kept: Played['foreign'];
	if (foreign.at !== undefined) {
		const row = new Set(world.store.entries(WF, '') ?? []);
		kept = {
			at: foreign.at,
			kept: FOREIGN_VALUES.some((v) => row.has(ProcessedDataStore.hash(v))),
		};
		// The user clears the other node's history (Remove Duplicates, "Clear Deduplication History").
		world.store.rows.delete(`${WF}\u0000`);
	}
	const sentBefore = world.sent.length;
	const orders = s.queue
		? Array.from({ length: s.queue.events }, (_, i) => i + 1)
		: s.executions.flatMap((e) => e.orders);
	const used = [...new Set(orders)].sort((a, b) => a - b);
	const fresh = Array.from({ length: s.limit ?? 1 }, (_, i) => FRESH_FROM + i);
	const held = new Map(NODES.map((n) => [n.name, placesHeld(world, s, n.id, trueNow())]));
	const probe = execute(world, s, world.process('probe'), [...used, ...fresh]);
	await advanceUntil(() => probe.done, 10 * 60000);
	return {
		schedule: s,
		world,
		outcomes,
		hung,
		probe,
		fresh,
		held,
		sentBefore,
		foreign: kept,
		queue,
	};
}

/** Ends a schedule: its timers gone, the real clock and chance back. */
export function endPlay(): void {
	jest.clearAllTimers();
	jest.useRealTimers();
	jest.restoreAllMocks();
}
