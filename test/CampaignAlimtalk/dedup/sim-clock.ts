/**
 * The simulation's clocks (sim-world.ts): one fake clock (jest's) that every process reads with
 * its own skew, which process and execution the code running now belongs to, and the freeze of a
 * stalled process (`unstalled`; its timers are held back in its module copy, sim-copies.ts).
 *
 * The invariants that depend on clocks, and how far a schedule's skew moves them (sim-check.ts,
 * sim-probe.ts), only as docs/deduplication.md says:
 * - "in flight" ends the longest send plus 2 minutes after the claim's minute (3 beside a failed
 *   lookup's probes), read on the claimer's clock: the probe waits that long plus how far the
 *   fastest clock runs ahead (sim-run.ts `windowMs`). A clock past CLOCK_SKEW_MS (markers.ts)
 *   only makes a claim read unconfirmed sooner (never sent), so no other invariant is relaxed.
 * - a Send Limit's period is the one of the round that gave the place, on that process's clock:
 *   messages are counted per period of the round that claimed them (the slot values of its
 *   record call, sim-store.ts), never by the true time.
 */
import { AsyncLocalStorage, delay, replaceDate } from '../../support/node';
import type { Process } from './sim-world';

/** How far the wall clocks of two processes may disagree in most schedules (each is off by up to half of it). */
export const SKEW_MS = 40000;

/** The code running now: which process (its clock) and which execution. */
export const running = new AsyncLocalStorage<{ proc: Process; execution: number }>();

/** The skew of the process whose code runs now (0 outside every process: the test's own clock). */
const skewNow = () => running.getStore()?.proc.skewMs ?? 0;

/** The true time (the fake clock without any process's skew): when the service accepted a message. */
export let trueNow = () => Date.now();

/** Resolves once `proc` is not stalled. */
export async function unstalled(proc: Process): Promise<void> {
	while (proc.stallUntil > trueNow()) await delay(proc.stallUntil - trueNow());
}

/**
 * Gives every process its own wall clock: `Date.now()` and `new Date()` read the fake clock plus
 * the skew of the process running. Call after jest.useFakeTimers (which installs the fake Date).
 */
export function installClocks(): void {
	const Fake = Date;
	trueNow = () => Fake.now();
	class Skewed extends Fake {
		constructor(...args: unknown[]) {
			if (args.length === 0) super(Fake.now() + skewNow());
			else super(...(args as [number]));
		}

		static now(): number {
			return Fake.now() + skewNow();
		}
	}
	replaceDate(Skewed as DateConstructor);
}
