/**
 * The deduplication simulation (issue "Deduplication, round four"): many seeded schedules of
 * keyed sends over a faulty store and service, with processes that crash or are stopped and
 * clocks that disagree (sim-world.ts, sim-run.ts), each checked against the invariants of
 * sim-check.ts after it ran.
 *
 * Replay: SIM_SEED=n runs that one schedule and prints what it did (its schedule, every message
 * the service accepted, every execution's items). SIM_SCHEDULES=n runs n schedules from
 * SIM_FIRST (default 1); SIM_LOG=file appends each failure to that file as it is found.
 * Everything runs on jest's fake clock: a seed replays exactly.
 */
import { env, fs } from '../../support/node';
import type { Played } from './sim-run';
import { endPlay, play } from './sim-run';
import { findingsOf, violations } from './sim-check';

/**
 * The seeds of the default run that break an invariant on the deduplication engine of round
 * three (before the fixes of issue "Deduplication, round four"), with what each shows. Their
 * violations are printed on every run, never hidden; every other seed must hold every invariant.
 * EMPTY THIS LIST once the engine of round four is merged: from then on every seed must pass.
 */
const FAILING_BEFORE_ROUND_FOUR: Record<number, string> = {
	5: 'finding 7 (a claim in flight past the longest send)',
	8: 'finding 7 (a claim in flight past the longest send)',
	11: 'finding 7 (a claim in flight past the longest send)',
	12: 'finding 7 (a claim in flight past the longest send)',
	19: 'finding 7 (a claim in flight past the longest send)',
	22: 'finding 7 (a claim in flight past the longest send)',
	23: 'finding 7 (a claim in flight past the longest send)',
	29: 'finding 3 (a Send Limit stuck), 4 (a false conflict: an empty lock row), 7 (a claim in flight past the longest send)',
	33: 'finding 3 (a Send Limit stuck), 7 (a claim in flight past the longest send)',
	36: 'finding 7 (a claim in flight past the longest send)',
	37: 'finding 4 (a false conflict: an empty lock row)',
	42: 'finding 4 (a false conflict: an empty lock row), 7 (a claim in flight past the longest send)',
	45: 'finding 3 (a Send Limit stuck), 7 (a claim in flight past the longest send)',
	46: 'finding 4 (a false conflict: an empty lock row), 7 (a claim in flight past the longest send)',
	52: 'finding 7 (a claim in flight past the longest send)',
	55: 'finding 1 (a late store write lands)',
	59: 'finding 7 (a claim in flight past the longest send)',
	62: 'finding 7 (a claim in flight past the longest send)',
	66: 'finding 7 (a claim in flight past the longest send)',
	67: 'finding 7 (a claim in flight past the longest send)',
	70: 'finding 7 (a claim in flight past the longest send)',
	72: 'finding 7 (a claim in flight past the longest send)',
	77: 'finding 7 (a claim in flight past the longest send)',
	78: 'finding 7 (a claim in flight past the longest send)',
	81: 'finding 7 (a claim in flight past the longest send)',
	82: 'finding 7 (a claim in flight past the longest send)',
	88: 'finding 7 (a claim in flight past the longest send)',
	92: 'finding 7 (a claim in flight past the longest send)',
	95: 'finding 7 (a claim in flight past the longest send)',
	103: 'finding 7 (a claim in flight past the longest send)',
	105: 'finding 7 (a claim in flight past the longest send)',
	106: 'finding 7 (a claim in flight past the longest send)',
	108: 'finding 7 (a claim in flight past the longest send)',
	109: 'finding 7 (a claim in flight past the longest send)',
	112: 'finding 7 (a claim in flight past the longest send)',
	116: 'finding 3 (a Send Limit stuck), 7 (a claim in flight past the longest send)',
	118: 'finding 7 (a claim in flight past the longest send)',
	120: 'finding 7 (a claim in flight past the longest send)',
	121: 'finding 3 (a Send Limit stuck), 7 (a claim in flight past the longest send)',
	122: 'finding 7 (a claim in flight past the longest send)',
	126: 'finding 7 (a claim in flight past the longest send)',
	130: 'finding 7 (a claim in flight past the longest send)',
	132: 'finding 7 (a claim in flight past the longest send)',
	134: 'finding 7 (a claim in flight past the longest send)',
	138: 'finding 2 (a doubt released), 1 (a late store write lands)',
	140: 'finding 7 (a claim in flight past the longest send)',
	142: 'finding 7 (a claim in flight past the longest send)',
	143: 'finding 7 (a claim in flight past the longest send)',
	144: 'finding 7 (a claim in flight past the longest send)',
};

const FIRST = Number(env.SIM_FIRST ?? 1);
const COUNT = Number(env.SIM_SCHEDULES ?? 150);
const ONE = env.SIM_SEED === undefined ? undefined : Number(env.SIM_SEED);
const seeds = ONE !== undefined ? [ONE] : Array.from({ length: COUNT }, (_, i) => FIRST + i);

function printRun(played: Played): void {
	const { schedule, world, outcomes, probe } = played;
	// eslint-disable-next-line no-console
	console.log(
		JSON.stringify(
			{
				schedule: { ...schedule, crashes: [...schedule.crashes] },
				sent: world.sent,
				outcomes: outcomes.map((o) => ({
					proc: o.proc.name,
					spec: o.spec,
					crashed: o.crashed,
					error: o.error,
					items: o.items,
				})),
				probe: probe.items,
			},
			null,
			1,
		),
	);
}

/** The violations of one schedule, the first line naming the findings they most likely show. */
async function check(seed: number): Promise<string[]> {
	try {
		const played = await play(seed);
		const lines = violations(played);
		if (ONE !== undefined) printRun(played);
		return lines.length === 0 ? [] : [findingsOf(played, lines), ...lines];
	} finally {
		endPlay();
	}
}

describe('the deduplication simulation', () => {
	it(`holds every invariant in ${seeds.length} seeded schedules`, async () => {
		const failed: string[] = [];
		const expected: string[] = [];
		for (const seed of seeds) {
			const lines = await check(seed);
			if (lines.length === 0) continue;
			const report = `SIM_SEED=${seed} ${lines.join('\n  ')}`;
			if (env.SIM_LOG) fs.appendFileSync(env.SIM_LOG, `${report}\n`); // as found, for long runs
			if (seed in FAILING_BEFORE_ROUND_FOUR) expected.push(report);
			else failed.push(report);
		}
		if (expected.length > 0) {
			// eslint-disable-next-line no-console
			console.log(
				`Still failing, listed in FAILING_BEFORE_ROUND_FOUR (issue 38):\n${expected.join('\n')}`,
			);
		}
		expect(failed).toEqual([]);
	}, 600000);
});
