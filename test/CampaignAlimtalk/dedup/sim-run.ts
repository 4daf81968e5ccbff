/**
 * One schedule of the deduplication simulation (sim-suite.ts), from its seed: what runs
 * (executions of keyed sends in several processes, with or without a Send Limit, one or two
 * keyed nodes), what goes wrong (store and service faults, crashes, stops, skewed clocks), and
 * the invariants checked once it is over (sim-check.ts).
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { runWorkflow, sourceOf } from '../../support/engine';
import { delay, nextTurn } from '../../support/node';
import { mulberry32 } from '../../../sandbox/faults';
import { periodOf } from '../../../nodes/CampaignAlimtalk/dedup/limit';
import { slotName } from '../../../nodes/CampaignAlimtalk/dedup/places';
import { ProcessedDataStore } from '../../support/dedup-store';
import { ALIMTALK_TYPE, WF, phone } from './support';
import type { FaultRates, Process } from './sim-world';
import { installSkewedClocks } from './sim-clock';
import { SKEW_MS, World } from './sim-world';

/** The two keyed nodes a schedule may have, each with its own campaign (its messages). */
export const NODES = [
	{ name: 'Send A', id: 'node-a', campaign: 'WELCOME' },
	{ name: 'Send B', id: 'node-b', campaign: 'THANKS' },
];

/**
 * How long after the last execution ended a claim may still read "in flight", beyond the
 * schedule's longest send (docs/deduplication.md, "A crashed claim reads in flight for at most
 * the longest send plus 2 minutes"): the engine's longest send adds a minute to record the
 * answer, the window 2 minutes from the claim's minute, and a process's clock may run ahead of
 * the probe's by half the skew (sim-run draws each skew within ±SKEW_MS / 2).
 */
export const MARGIN_MS = 60000 + 120000 + SKEW_MS / 2;
/** The longest pause between two tries of one request (shared/transport/retry.ts). */
const MAX_BACKOFF_MS = 30000;
/** Every schedule runs on one day, far from its end: a period of "day" is the whole schedule. */
const DAY_START = Date.parse('2026-03-10T00:00:00.000Z');

export interface ExecutionSpec {
	proc: number;
	/** When it starts, in ms after the schedule's start. */
	at: number;
	/** Its items' order numbers (the key of order n is `order-n`). */
	orders: number[];
	/** When it is stopped (n8n's Stop), in ms after its start. */
	stopAfter?: number;
}

export interface Schedule {
	seed: number;
	nodes: number;
	limit?: number;
	retryUnknown: boolean;
	maxRetries: number;
	timeoutMs: number;
	concurrency: number;
	skews: number[];
	executions: ExecutionSpec[];
	/** Process index -> when it crashes, in ms after the schedule's start. */
	crashes: Map<number, number>;
	rates: FaultRates;
}

/** The schedule of a seed: everything drawn from one chance, before anything runs. */
export function scheduleOf(seed: number): Schedule {
	const chance = mulberry32(seed * 7919 + 17);
	const between = (min: number, max: number) => min + Math.floor(chance() * (max - min + 1));
	const pick = <T>(values: readonly T[]) => values[Math.floor(chance() * values.length)];
	const processes = between(1, 3);
	const executions: ExecutionSpec[] = Array.from({ length: between(2, 6) }, () => ({
		proc: between(0, processes - 1),
		at: between(0, 20000),
		orders: Array.from({ length: between(1, 3) }, () => between(1, 5)),
		stopAfter: chance() < 0.15 ? between(10, 15000) : undefined,
	}));
	const crashes = new Map<number, number>();
	if (processes > 1 && chance() < 0.25) crashes.set(between(0, processes - 1), between(0, 30000));
	return {
		seed,
		nodes: chance() < 0.3 ? 2 : 1,
		limit: chance() < 0.4 ? between(3, 8) : undefined,
		retryUnknown: chance() < 0.4,
		maxRetries: between(0, 2),
		timeoutMs: pick([2000, 5000]),
		concurrency: between(1, 3),
		skews: Array.from({ length: processes }, () => between(-SKEW_MS / 2, SKEW_MS / 2)),
		executions,
		crashes,
		rates: {
			store: pick([0, 0.05, 0.1, 0.2]),
			storeKinds: ['failBefore', 'failAfter', 'hang', 'slow', 'lateAnswer'],
			service: pick([0, 0.1, 0.3]),
			serviceKinds: ['refused', 'droppedAfter', 'error7999', 'noAnswer'],
		},
	};
}

/** The longest one send can take with the schedule's settings: every try timing out, every pause at its longest. */
export function longestSendMs(s: Schedule): number {
	return (s.maxRetries + 1) * s.timeoutMs + s.maxRetries * MAX_BACKOFF_MS;
}

export interface Outcome {
	spec?: ExecutionSpec;
	proc: Process;
	/** The execution's process crashed before it ended: its outputs are lost. */
	crashed: boolean;
	done: boolean;
	error?: string;
	/** Per node name: its Success and Failed items. */
	items: Record<string, { ok: IDataObject[]; failed: IDataObject[] }>;
}

function optionsOf(s: Schedule): IDataObject {
	return {
		deduplicationKey: '={{ $json.orderId }}',
		retryDelayMs: 200,
		maxRetries: s.maxRetries,
		timeoutMs: s.timeoutMs,
		retryUnknownDelivery: s.retryUnknown,
		concurrency: s.concurrency,
		...(s.limit === undefined ? {} : { sendLimit: s.limit, sendLimitPeriod: 'day' }),
	};
}

function nodesOf(s: Schedule): INode[] {
	return NODES.slice(0, s.nodes).map(
		(n, i): INode => ({
			id: n.id,
			name: n.name,
			type: ALIMTALK_TYPE,
			typeVersion: 1,
			position: [200, i * 200],
			parameters: {
				operation: 'send',
				campaignKey: n.campaign,
				phoneNumber: '={{ $json.phone }}',
				properties: { property: [{ key: 'name', value: '={{ $json.name }}' }] },
				options: optionsOf(s) as INode['parameters'],
			},
			credentials: { campaignApi: { id: '1', name: 'Campaign API' } },
		}),
	);
}

export const orderItem = (n: number) => ({
	orderId: `order-${n}`,
	phone: phone(n),
	name: `Kim ${n}`,
});

let executions = 0;

/** Starts one execution of the schedule's workflow in `proc`; `outcome` fills in as it ends. */
export function execute(
	world: World,
	s: Schedule,
	proc: Process,
	orders: number[],
	stop?: Promise<unknown>,
	spec?: ExecutionSpec,
): Outcome {
	const outcome: Outcome = { spec, proc, crashed: false, done: false, items: {} };
	const nodes = nodesOf(s);
	const json = (items: INodeExecutionData[] | undefined) => (items ?? []).map((i) => i.json);
	void world
		.as(proc, executions++, async () => {
			return await runWorkflow({
				nodes: [sourceOf(orders.map(orderItem)), ...nodes],
				connections: {
					Source: {
						main: [nodes.map((n) => ({ node: n.name, type: 'main' as const, index: 0 }))],
					},
				},
				credentials: { campaignApi: { baseUrl: 'http://127.0.0.1:9', apiKey: 'sim-key' } },
				extraTypes: { [ALIMTALK_TYPE]: proc.type },
				stop,
			});
		})
		.then(
			(run) => {
				if (proc.dead) return;
				outcome.error = run.error?.message;
				for (const n of nodes) {
					const out = run.outputs(n.name);
					outcome.items[n.name] = { ok: json(out[0]), failed: json(out[1]) };
				}
				outcome.done = true;
			},
			(error: unknown) => {
				if (proc.dead) return;
				outcome.error = String(error);
				outcome.done = true;
			},
		);
	return outcome;
}

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
	/** Per node name: the Send Limit places of the day its row of keys held before the probe. */
	held: Map<string, number>;
}

/** How many of today's places of a limit of `limit` node `nodeId`'s row of keys holds (scope "This Node"). */
function placesHeld(world: World, nodeId: string, limit: number): number {
	const { startMs } = periodOf(Date.now(), 'day', 'UTC');
	const row = new Set(world.store.entries(WF, `n:${nodeId}`) ?? []);
	return Array.from({ length: limit }, (_, i) => slotName('day', startMs, i + 1)).filter((slot) =>
		row.has(ProcessedDataStore.hash(slot)),
	).length;
}

/** Plays the schedule of `seed` on the fake clock, then waits out the window and runs the probe. */
export async function play(seed: number): Promise<Played> {
	const s = scheduleOf(seed);
	jest.useFakeTimers({
		now: DAY_START + 9 * 3600000 + (seed % 240) * 60000,
		// Real turns of the event loop let every promise settle between two timers (sim-run's driver).
		doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'],
	});
	installSkewedClocks();
	jest.spyOn(Math, 'random').mockImplementation(mulberry32(seed ^ 0x5eed));
	const world = new World(seed, WF, s.rates);
	const procs = s.skews.map((skew, i) => world.process(`p${i}`, skew));
	const outcomes: Outcome[] = [];
	for (const spec of s.executions) {
		void delay(spec.at).then(() => {
			if (procs[spec.proc].dead) return;
			const stop = spec.stopAfter === undefined ? undefined : delay(spec.stopAfter);
			outcomes.push(execute(world, s, procs[spec.proc], spec.orders, stop, spec));
		});
	}
	for (const [p, at] of s.crashes) {
		void delay(at).then(() => {
			procs[p].dead = true;
			outcomes.filter((o) => o.proc === procs[p] && !o.done).forEach((o) => (o.crashed = true));
		});
	}
	const started = () => outcomes.length + s.executions.filter((e) => procs[e.proc].dead).length;
	const live = () => outcomes.filter((o) => !o.done && !o.crashed);
	await advanceUntil(() => started() >= s.executions.length && live().length === 0, 30 * 60000);
	const hung = live().length;
	// Nothing in flight any more: heal the faults and wait out the longest send and the margin.
	world.faulty = false;
	const settled = Date.now() + longestSendMs(s) + MARGIN_MS;
	await advanceUntil(() => Date.now() >= settled, longestSendMs(s) + MARGIN_MS + 1);
	jest.setSystemTime(Math.max(Date.now(), settled));
	const used = [...new Set(s.executions.flatMap((e) => e.orders))].sort((a, b) => a - b);
	const fresh = Array.from({ length: s.limit ?? 1 }, (_, i) => 100 + i);
	const held = new Map(NODES.map((n) => [n.name, placesHeld(world, n.id, s.limit ?? 0)]));
	const probe = execute(world, s, world.process('probe'), [...used, ...fresh]);
	await advanceUntil(() => probe.done, 10 * 60000);
	return { schedule: s, world, outcomes, hung, probe, fresh, held };
}

/** Ends a schedule: its timers gone, the real clock and chance back. */
export function endPlay(): void {
	jest.clearAllTimers();
	jest.useRealTimers();
	jest.restoreAllMocks();
}
