/**
 * The queue shape of the deduplication simulation (sim-shapes.ts `queueSchedule`): real queue
 * mode's client and queue, and what CI's two-node round reads of a run. The client
 * (test/queue/support/two-nodes.ts `postAll` of `pairs`) keeps `inFlight` requests open, each
 * event delivered twice one after the other; n8n's queue hands each execution, in the order they
 * came, to a worker with a free slot (either, at random, when both have one). With no fault of any
 * kind, a run must answer every copy sent or duplicate, fail no round and keep no claim.
 */
import { storedKey } from '../../../nodes/CampaignAlimtalk/key/key-options';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay } from '../../support/node';
import type { Outcome } from './sim-execute';
import { INVARIANTS } from './sim-facts';
import { execute } from './sim-execute';
import type { Schedule } from './sim-schedule';
import { NODES } from './sim-schedule';
import { CALIBRATION, draw } from './sim-timing';
import type { Process, World } from './sim-world';
import { WF } from './support';

/** What one run of the queue shape did, as CI's two-node round counts it. */
export interface QueueCounts {
	executions: number;
	/** Releases that found the lock's row rewritten (window 5): grown, the round fails 'late'. */
	rewritten: number;
	/** Executions that ended in an error (with no fault: a round that failed 'late'). */
	failedExecutions: number;
	/** Lock creates written back over a lock made after their read (window 5). */
	staleCreates: number;
	/** Lock rows left standing until a waiter took them over (30 s of stillness). */
	takeovers: number;
	/** Claims still in the rows of keys once every execution ended (a clean run leaves none). */
	keptClaims: number;
	/** Answers (one per keyed node and execution) other than sent or duplicate, not reached included. */
	unclean: number;
	/** Every answer, as test/queue/support/two-nodes.ts words it. */
	answers: Record<string, number>;
}

/** Starts the client; true once every delivery was answered. */
export function startQueue(
	world: World,
	s: Schedule,
	procs: Process[],
	outcomes: Outcome[],
): () => boolean {
	const shape = s.queue as NonNullable<Schedule['queue']>;
	const deliveries = Array.from({ length: shape.events }, (_, i) =>
		Array.from({ length: shape.copies }, () => i + 1),
	).flat();
	const running = new Map(procs.map((p) => [p, 0]));
	const waiting: Array<(proc: Process) => void> = [];
	const start = (proc: Process) => {
		running.set(proc, (running.get(proc) ?? 0) + 1);
		return proc;
	};
	const worker = async (): Promise<Process> => {
		const open = procs.filter((p) => (running.get(p) ?? 0) < shape.perProcess);
		if (open.length > 0 && waiting.length === 0)
			return start(open[Math.floor(world.chance() * open.length)]);
		return await new Promise<Process>((resolve) => waiting.push(resolve));
	};
	const finished = (proc: Process) => {
		running.set(proc, (running.get(proc) ?? 0) - 1);
		waiting.shift()?.(start(proc));
	};
	let next = 0;
	let answered = 0;
	const lane = async () => {
		for (let i = next++; i < deliveries.length; i = next++) {
			await delay(draw(CALIBRATION.dispatch, world.chance()));
			const proc = await worker();
			const outcome = execute(world, s, proc, [deliveries[i]]);
			outcomes.push(outcome);
			await outcome.ended;
			finished(proc);
			await delay(draw(CALIBRATION.answer, world.chance()));
			answered++;
		}
	};
	for (let n = Math.min(shape.inFlight, deliveries.length); n > 0; n--) void lane();
	return () => answered === deliveries.length;
}

/** What one keyed node answered for one execution (test/queue/support/two-nodes.ts `answerOf`). */
function answerOf(outcome: Outcome, node: string): string {
	if (outcome.error !== undefined) return `error ${outcome.error.slice(0, 60)}`;
	const items = outcome.items[node];
	const item = items?.ok[0] ?? items?.failed[0];
	if (!item) return 'not reached';
	if (item.status === 'sent') return 'sent';
	if (item.duplicate === true) return 'duplicate';
	return `code ${String(item.code)}${item.deduplicationKeyKept === true ? ' (key kept)' : ''}`;
}

/** Counts a run of the queue shape once its executions ended (before the probe). */
export function queueCounts(world: World, s: Schedule, outcomes: Outcome[]): QueueCounts {
	const answers: Record<string, number> = {};
	for (const outcome of outcomes)
		for (const n of NODES.slice(0, s.nodes)) {
			const said = answerOf(outcome, n.name);
			answers[said] = (answers[said] ?? 0) + 1;
		}
	const events = Array.from({ length: s.queue?.events ?? 0 }, (_, i) => i + 1);
	const keptClaims = NODES.slice(0, s.nodes).reduce((sum, n) => {
		const row = new Set(world.store.entries(WF, `n:${n.id}`) ?? []);
		const claim = (e: number) => ProcessedDataStore.hash(`claim:${storedKey(`order-${e}`)}`);
		return sum + events.filter((e) => row.has(claim(e))).length;
	}, 0);
	return {
		executions: outcomes.length,
		rewritten: world.sim.releasesRewritten,
		failedExecutions: outcomes.filter((o) => o.error !== undefined).length,
		staleCreates: world.sim.watch.staleCreates,
		takeovers: world.sim.watch.takeovers,
		keptClaims,
		unclean: Object.entries(answers)
			.filter(([said]) => said !== 'sent' && said !== 'duplicate')
			.reduce((sum, [, n]) => sum + n, 0),
		answers,
	};
}

/** With no fault of any kind (the queue shape): no round failed, no lock row left to a takeover, no claim kept, every copy sent or duplicate. */
export function queueViolations(counts: QueueCounts | undefined): string[] {
	if (counts === undefined) return [];
	const found: string[] = [];
	if (counts.failedExecutions > 0)
		found.push(`${INVARIANTS.failedClean}: ${counts.failedExecutions} executions failed`);
	if (counts.takeovers > 0) found.push(`${INVARIANTS.takeoverClean}: ${counts.takeovers}`);
	if (counts.keptClaims > 0) found.push(`${INVARIANTS.keptClean}: ${counts.keptClaims}`);
	const all = Object.values(counts.answers).reduce((sum, n) => sum + n, 0);
	if (counts.unclean > 0)
		found.push(
			`${INVARIANTS.uncleanAnswer}: ${counts.unclean} of ${all} (${JSON.stringify(counts.answers)})`,
		);
	return found;
}
