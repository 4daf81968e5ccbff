/**
 * The simulation's clocks (sim-world.ts): one fake clock (jest's) that every process reads with
 * its own skew, and which process and execution the code running now belongs to.
 */
import { AsyncLocalStorage, replaceDate } from '../../support/node';
import type { Process } from './sim-world';

/** The code running now: which process (its clock) and which execution. */
export const running = new AsyncLocalStorage<{ proc: Process; execution: number }>();

/** The skew of the process whose code runs now (0 outside every process: the test's own clock). */
const skewNow = () => running.getStore()?.proc.skewMs ?? 0;

/** The true time (the fake clock without any process's skew): when the service accepted a message. */
export let trueNow = () => Date.now();

/**
 * Gives every process its own wall clock: `Date.now()` and `new Date()` read the fake clock plus
 * the skew of the process running. Call after jest.useFakeTimers (which installs the fake Date).
 */
export function installSkewedClocks(): void {
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
