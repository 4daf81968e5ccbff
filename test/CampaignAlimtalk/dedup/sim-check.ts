/**
 * The invariants of the deduplication simulation, checked after every schedule (sim-run.ts)
 * against what the service really accepted and answered (sim-facts.ts): per message (here), item
 * by item and per execution that failed as a whole (sim-items.ts), per period of the Send Limit,
 * by the probe, and about another node's data in the lock's row (sim-probe.ts). Each violation is
 * one line naming the invariant.
 *
 * A schedule in which a write landed after the lock was taken over, STALE_LOCK_MS or more after
 * its call was made (a stall, or a call slower than a holder's wait for it plus the takeover:
 * docs/deduplication.md, window 1), may break the invariants of WINDOW_ONE; one in which a
 * lock-row write landed after the row was made again (window 5), those of WINDOW_FIVE: those
 * lines are reported as that window's, never hidden; every other line fails the schedule.
 */
import type { Played } from './sim-run';
import type { Facts } from './sim-facts';
import { factsOf, INVARIANTS, WINDOW_FIVE, WINDOW_ONE } from './sim-facts';
import { outcomeViolations } from './sim-items';
import { foreignViolations, limitViolations, probeViolations } from './sim-probe';
import { queueViolations } from './sim-queue';
import { WF } from './support';
import { STALE_LOCK_MS } from '../../../nodes/CampaignAlimtalk/store/lock';

/** A message accepted twice (unless its row forgot it in between: the History Size). */
function twiceViolations(facts: Facts): string[] {
	const found: string[] = [];
	for (const [message, n] of facts.counts) {
		if (n < 2) continue;
		const second = facts.accepted.filter((m) => m.message === message)[1];
		if (!facts.evicted(message, second.firstTry))
			found.push(`${INVARIANTS.twice}: ${message} accepted ${n} times`);
	}
	return found;
}

function scheduleViolations(played: Played): string[] {
	const found: string[] = [];
	// Nothing is written after the lock is gone (docs/deduplication.md, invariant 4).
	for (const w of played.world.sim.watch.unlocked) {
		const name = w.at - w.startedAt >= STALE_LOCK_MS ? INVARIANTS.lateWrite : INVARIANTS.afterLock;
		found.push(`${name}: ${w.proc} at ${w.at}, its call made at ${w.startedAt}`);
	}
	// A holder's own heartbeat is never taken for a late write (docs/deduplication.md, window 5).
	for (const m of played.world.sim.watch.miscounted)
		found.push(`${INVARIANTS.miscounted}: ${m.proc} at ${m.at}`);
	if (played.sentBefore === 0)
		found.push(`${INVARIANTS.idle}: the service accepted no message before the probe`);
	if (played.hung > 0) found.push(`${INVARIANTS.hung}: ${played.hung}`);
	for (const [id, row] of played.world.store.rows)
		if (Array.isArray(row.data) && row.data.length === 0)
			found.push(`${INVARIANTS.emptyRow}: ${JSON.stringify(id)}`);
	return found;
}

export interface Judged {
	/** Violations that fail the schedule. */
	failed: string[];
	/** Violations in a documented window (docs window 1 or 5), each line naming its window. */
	windowed: string[];
}

export function judge(played: Played): Judged {
	const facts = factsOf(played);
	const lines = [
		...twiceViolations(facts),
		...outcomeViolations(played, facts),
		...limitViolations(played, facts),
		...probeViolations(played, facts),
		...foreignViolations(played, facts),
		...scheduleViolations(played),
		...(played.schedule.tier === 'queue' ? queueViolations(played.queue) : []),
	];
	const windowOf = (line: string) => {
		const of = (names: ReadonlyArray<string>) => names.some((name) => line.startsWith(`${name}:`));
		if (facts.windowOne && of(WINDOW_ONE)) return 'window 1 (a write landed after a takeover)';
		if (facts.windowFive && of(WINDOW_FIVE))
			return "window 5 (a lock create that lost the race wrote the lock's row back after it was made again)";
		return undefined;
	};
	return {
		failed: lines.filter((l) => windowOf(l) === undefined),
		windowed: lines.filter((l) => windowOf(l) !== undefined).map((l) => `${windowOf(l)}: ${l}`),
	};
}

/** The invariants a lost or stale write breaks: their cause is read from the store's watch. */
const LOST_WRITES: string[] = [
	INVARIANTS.twice,
	INVARIANTS.phantom,
	INVARIANTS.overLimit,
	INVARIANTS.doubtLost,
	INVARIANTS.stuckLimit,
];

const LATE = "3 (a stalled or slow write landed after a takeover, over the new holder's)";

/** Which known faults (sim-facts.ts) a schedule's violations most likely show (for the report: read from the store's watch, sim-watch.ts). */
export function findingsOf(played: Played, lines: string[]): string {
	const names = new Set(lines.map((l) => l.slice(0, l.indexOf(':'))));
	const { watch } = played.world.sim;
	const found: string[] = [];
	const keysRowLate = watch.late.some((w) => w.row !== `${WF}\u0000` && w.erased > 0);
	if (LOST_WRITES.some((name) => names.has(name))) {
		if (watch.removedTwice.some((r) => r.firstLocked && r.locked))
			found.push(
				'1 (a value removed, recorded by another process, removed again in a later round)',
			);
		if (watch.removedTwice.some((r) => !r.firstLocked || !r.locked))
			found.push(
				'2 (a value removed without the lock, recorded by another process, removed again)',
			);
		if (keysRowLate) found.push(LATE);
		if (found.length === 0) found.push('cause unknown');
	}
	if (names.has(INVARIANTS.lateWrite) && !found.includes(LATE)) found.push(LATE);
	if (names.has(INVARIANTS.afterLock))
		found.push(
			keysRowLate
				? 'a write read under an earlier lock landed in another holder’s time'
				: '2 (a round written or undone without the lock)',
		);
	if (names.has(INVARIANTS.doubtUnfounded))
		found.push('4 (an item in doubt for a message nobody requested)');
	const explained = [
		...LOST_WRITES,
		INVARIANTS.afterLock,
		INVARIANTS.lateWrite,
		INVARIANTS.doubtUnfounded,
	];
	const others = [...names].filter((name) => !explained.includes(name));
	return `finding ${[...new Set([...found, ...others])].join('; ')}`;
}
