/**
 * The deduplication simulation (issue 50, "A simulation that can fail"): many seeded schedules of
 * keyed sends over a faulty store and service (sim-schedule.ts, sim-world.ts, sim-store.ts), with
 * processes that crash, stall or are stopped, clocks that disagree, period boundaries and another
 * node writing into the lock's row, each checked against the invariants of sim-check.ts after it
 * ran (what the service accepted and answered, item by item).
 *
 * The schedules are split over three test files (simulation.1.test.ts to .3), so that jest's two
 * test processes share them instead of one process running them all at the end.
 *
 * Replay: SIM_SEED=n runs that one schedule (in simulation.1.test.ts) and prints what it did (its
 * schedule, every message the service accepted and every answer, what the store's watch saw,
 * every execution's items). SIM_SCHEDULES=n runs n schedules from SIM_FIRST (default 1), a third
 * in each file; SIM_LOG=file appends each failure to that file as it is found; SIM_TRACE=file
 * (with SIM_SEED) writes every store call of the schedule and its answer there, with the watch's
 * notes (stalls, outages, late writes, values removed twice). Everything runs on jest's fake
 * clock: a seed replays exactly.
 */
import { env, fs } from '../../support/node';
import type { Played } from './sim-run';
import { endPlay, play } from './sim-run';
import { findingsOf, judge } from './sim-check';

/**
 * The seeds known to break an invariant on today's engine, each with what it shows (the
 * deduplication round that made this test left them open; docs/deduplication.md lists the windows
 * they fall in). Their violations are printed on every run, never hidden; every other seed must
 * hold every invariant, and a seed is taken off this list by the fix that makes it pass.
 */
const OPEN_SEEDS: Record<number, string> = {
	// Empty: seeds 65 and 126 (a lock round two keyed nodes share gave both the first node's
	// error) pass since errors.ts `ownError` (rounds.two-nodes.test.ts).
};

const FIRST = Number(env.SIM_FIRST ?? 1);
const COUNT = Number(env.SIM_SCHEDULES ?? 150);
const ONE = env.SIM_SEED === undefined ? undefined : Number(env.SIM_SEED);
/** The files the schedules are split over (simulation.<part>.test.ts). */
const PARTS = 3;

/** The seeds of one part: a contiguous third of the run's, or SIM_SEED alone in the first. */
function seedsOf(part: number): number[] {
	if (ONE !== undefined) return part === 1 ? [ONE] : [];
	const from = Math.floor((COUNT * (part - 1)) / PARTS);
	const to = Math.floor((COUNT * part) / PARTS);
	return Array.from({ length: to - from }, (_, i) => FIRST + from + i);
}

function printRun(played: Played): void {
	const { schedule, world, outcomes, probe } = played;
	const { watch } = world.sim;
	// eslint-disable-next-line no-console
	console.log(
		JSON.stringify(
			{
				schedule: { ...schedule, crashes: [...schedule.crashes] },
				sent: world.sent,
				answers: world.answers,
				store: {
					faults: [...world.sim.faults],
					lockMade: watch.lockMade.length,
					late: watch.late,
					removedTwice: watch.removedTwice,
					evicted: watch.evicted.size,
					unlocked: watch.unlocked.length,
				},
				outcomes: outcomes.map((o) => ({
					id: o.id,
					proc: o.proc.name,
					spec: o.spec,
					crashed: o.crashed,
					stopped: o.stopped,
					error: o.error,
					errorNode: o.errorNode,
					errorNamed: o.errorNamed,
					items: o.items,
				})),
				probe: probe.items,
				probeError: probe.error,
			},
			null,
			1,
		),
	);
}

/** What one schedule broke: failures (the first line naming the findings they most likely show) and window 1's lines. */
async function check(seed: number): Promise<{ failed: string[]; windowed: string[] }> {
	try {
		const played = await play(seed);
		const { failed, windowed } = judge(played);
		if (ONE !== undefined) printRun(played);
		if (env.SIM_TRACE)
			fs.writeFileSync(env.SIM_TRACE, `${(played.world.sim.trace ?? []).join('\n')}\n`);
		const all = [...failed, ...windowed];
		const head = all.length === 0 ? [] : [findingsOf(played, all)];
		return {
			failed: failed.length === 0 ? [] : [...head, ...failed],
			windowed: windowed.length === 0 ? [] : [...(failed.length === 0 ? head : []), ...windowed],
		};
	} finally {
		endPlay();
	}
}

/** A seed played once before the first of a process, its outcome unused (`warmUp`). */
const WARM_SEED = 2;
let warm = false;

/**
 * The first execution in a process takes other turns of the event loop than the later ones (what
 * n8n and the engine load on first use), and so plays its schedule a little differently: every
 * seed is played in a process that played one schedule before, so that a seed replays alone
 * (SIM_SEED) exactly as it ran in a series.
 */
async function warmUp(): Promise<void> {
	if (warm) return;
	warm = true;
	try {
		await play(WARM_SEED);
	} finally {
		endPlay();
	}
}

/** One part's test: every seed of the part holds every invariant. */
export function simulationPart(part: number): void {
	const seeds = seedsOf(part);
	const range =
		seeds.length === 0
			? 'SIM_SEED runs in part 1'
			: `seeds ${seeds[0]} to ${seeds[seeds.length - 1]}`;
	it(`the deduplication simulation holds every invariant in ${seeds.length} seeded schedules (${range})`, async () => {
		const failed: string[] = [];
		const expected: string[] = [];
		const windowed: string[] = [];
		if (seeds.length > 0) await warmUp();
		for (const seed of seeds) {
			const lines = await check(seed);
			if (lines.windowed.length > 0) {
				const report = `SIM_SEED=${seed} (docs window 1: a write landed after a takeover) ${lines.windowed.join('\n  ')}`;
				if (env.SIM_LOG) fs.appendFileSync(env.SIM_LOG, `${report}\n`);
				windowed.push(report);
			}
			if (lines.failed.length === 0) continue;
			const report = `SIM_SEED=${seed} ${lines.failed.join('\n  ')}`;
			if (env.SIM_LOG) fs.appendFileSync(env.SIM_LOG, `${report}\n`); // as found, for long runs
			if (seed in OPEN_SEEDS) expected.push(report);
			else failed.push(report);
		}
		if (windowed.length > 0) {
			// eslint-disable-next-line no-console
			console.log(
				`In the documented window 1 (docs/deduplication.md, "The windows that remain"):\n${windowed.join('\n')}`,
			);
		}
		if (expected.length > 0) {
			// eslint-disable-next-line no-console
			console.log(`Still failing, listed in OPEN_SEEDS:\n${expected.join('\n')}`);
		}
		expect(failed).toEqual([]);
	}, 600000);
}
