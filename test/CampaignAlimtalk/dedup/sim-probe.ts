/**
 * The invariants of the deduplication simulation about the Send Limit, the probe (the healthy
 * check once the window is over), and another node's data in the lock's row.
 */
import type { IDataObject } from 'n8n-workflow';
import { periodOf } from '../../../nodes/CampaignAlimtalk/limit/limit';
import { phone } from './support';
import type { Outcome, Played } from './sim-run';
import type { Facts } from './sim-facts';
import { INVARIANTS, itemsOf } from './sim-facts';
import { NODES } from './sim-schedule';

/**
 * How long after another node's data landed in the lock's row a send may still leave: a round
 * that read the row's count just before may still release the lock (one store call, bounded at
 * 8 s, its answer up to 9 s late) and then give its answers.
 */
const REFUSE_MS = 20000;

const CONFLICT = /another node of this workflow/;

/** A Failed item that says for certain nothing left (it takes no place of the Send Limit). */
const certainlyNotSent = (item: IDataObject) => item.deliveryUnknown === false;
const claimsSent = (item: IDataObject) => item.status === 'sent' || item.duplicate === true;

/** How many items of an execution did not end in a certain answer. */
function unclean(outcome: Outcome, nodes: number): number {
	if (outcome.crashed || !outcome.done || outcome.error !== undefined)
		return outcome.inputs * nodes;
	return itemsOf(outcome).filter(
		({ item, failed }) => failed && !certainlyNotSent(item) && !claimsSent(item),
	).length;
}

/** The period a counted message's place is in: that of the round that claimed it, on its process's clock. */
function periodOfSend(played: Played, m: Facts['accepted'][number]): number {
	const s = played.schedule;
	if (m.periodStart !== undefined) return m.periodStart;
	const skew = played.world.processes.find((p) => p.name === m.process)?.skewMs ?? 0;
	return periodOf(m.firstTry + skew, s.period, s.zone).startMs;
}

/** Per node with a Send Limit and per period, the messages counted. */
function perPeriod(played: Played, facts: Facts, campaign: string): Map<number, number> {
	const periods = new Map<number, number>();
	for (const m of facts.accepted.filter((a) => a.message.startsWith(`${campaign}|`))) {
		const start = periodOfSend(played, m);
		periods.set(start, (periods.get(start) ?? 0) + 1);
	}
	return periods;
}

/** The Send Limit: never passed in a period, and reached before the probe (the schedule tests it). */
export function limitViolations(played: Played, facts: Facts): string[] {
	const { schedule: s, outcomes } = played;
	if (s.limit === undefined) return [];
	const found: string[] = [];
	for (const n of NODES.slice(0, s.nodes)) {
		for (const [start, count] of perPeriod(played, facts, n.campaign))
			if (count > s.limit)
				found.push(
					`${INVARIANTS.overLimit}: ${n.campaign} ${count} in the ${s.period} from ${new Date(start).toISOString()}, limit ${s.limit}`,
				);
	}
	const limited = outcomes.some((o) =>
		itemsOf(o).some(({ item }) => item.code === 'sendLimitReached'),
	);
	// Once another node's data stays in the lock's row, every send refuses: the limit is not reached.
	if (!limited && !played.foreign?.kept)
		found.push(`${INVARIANTS.limitUntested}: limit ${s.limit}`);
	return found;
}

/** No store fault, no crash, no stall. */
function faultFree(played: Played): boolean {
	const faults = [...played.world.sim.faults].filter(([kind, n]) => kind !== 'ok' && n > 0);
	return faults.length === 0 && played.schedule.crashes.size === 0 && !played.schedule.stall;
}

/** The probe runs with a healthy store and service once every send could have ended. */
export function probeViolations(played: Played, facts: Facts): string[] {
	const { probe, schedule: s, outcomes, fresh } = played;
	if (!probe.done) return [`${INVARIANTS.probeFailed}: it never ended`];
	if (probe.error !== undefined) return [`${INVARIANTS.probeFailed}: ${probe.error}`];
	const found: string[] = [];
	for (const { message, item } of itemsOf(probe)) {
		// In flight past the window: a claim whose start was found (at most LOOKUPS keys a round are
		// looked up, the others read in flight: docs/deduplication.md, "A key found claimed").
		if (item.code === 'earlierSendInProgress' && item.earlierSendStartedAt !== undefined)
			found.push(`${INVARIANTS.blocked}: ${message} ${String(item.message)}`);
		else if (item.code === 'deduplicationStoreFailed')
			found.push(`${INVARIANTS.probeFailed}: ${message} ${String(item.message)}`);
	}
	if (s.limit === undefined) return found;
	const probePeriod = periodOf(probe.startedAt, s.period, s.zone).startMs;
	for (const n of NODES.slice(0, s.nodes)) {
		const items = probe.items[n.name] ?? { ok: [], failed: [] };
		const sentNow = items.ok.filter((i) => i.status === 'sent').length;
		const freshLimited = items.failed.filter(
			(i) => i.code === 'sendLimitReached' && fresh.some((f) => i.phoneNumber === phone(f)),
		).length;
		const held = played.held.get(n.name) ?? 0;
		// The limit refuses only when the store holds its places: a round that failed keeps the
		// places it may have written until the period ends (docs/deduplication.md), never more.
		if (freshLimited > 0 && s.limit - held - sentNow > 0)
			found.push(
				`${INVARIANTS.stuckLimit}: ${n.campaign} limit ${s.limit}, ${held} held before the probe, ${sentNow} sent by the probe, yet ${freshLimited} fresh refused`,
			);
		// With no fault, every place held is a message's of the period that was or may have been sent.
		const accepted = perPeriod(played, facts, n.campaign).get(probePeriod) ?? 0;
		const doubtful = outcomes.reduce((sum, o) => sum + unclean(o, s.nodes), 0);
		const lost = played.world.lostPlaces.get(n.name) ?? 0;
		if (faultFree(played) && held > accepted + doubtful + lost)
			found.push(
				`${INVARIANTS.stuckLimit}: ${n.campaign} ${held} places held with no fault, ${accepted} accepted, ${doubtful} in doubt`,
			);
	}
	return found;
}

/** A conflict of an execution: its error, or a Failed item of it. */
function conflictOf(o: Outcome): string | undefined {
	if (o.error && CONFLICT.test(o.error)) return o.error;
	const item = itemsOf(o).find((i) => i.item.code === 'deduplicationConflict');
	return item === undefined ? undefined : String(item.item.message);
}

/**
 * Another node's data in the lock's row: conflicts only after it landed; while it stays, nothing
 * is sent any more and every execution refuses with the conflict. Data that did not stay (erased
 * by a heartbeat's whole-row write, or deleted with the lock between a release's count and its
 * delete: docs/deduplication.md, window 3) is not checked further.
 */
export function foreignViolations(played: Played, facts: Facts): string[] {
	const { outcomes, probe, foreign } = played;
	const found: string[] = [];
	for (const o of [...outcomes, probe].filter((x) => x.done && !x.crashed)) {
		const conflict = conflictOf(o);
		const who = o === probe ? 'the probe' : `execution ${o.id} of ${o.proc.name}`;
		if (
			conflict !== undefined &&
			(foreign === undefined || o === probe || (o.endedAt ?? 0) < foreign.at)
		)
			found.push(`${INVARIANTS.conflict}: ${who}: ${conflict}`);
	}
	if (!foreign?.kept) return found;
	// A round whose claim was written after the other node's data landed ends with a count that
	// sees it (stillHeld or the release): it fails with the conflict, nothing of it is sent.
	const late = (a: Facts['accepted'][number]) => a.claimAt !== undefined && a.claimAt > foreign.at;
	for (const m of facts.accepted.filter((a) => late(a) && a.execution !== probe.id))
		found.push(
			`${INVARIANTS.claimAfterForeign}: ${m.message} by execution ${m.execution}, its claim written at ${m.claimAt}, the data landed at ${foreign.at}`,
		);
	const from = foreign.at + REFUSE_MS;
	for (const m of facts.accepted.filter((a) => a.firstTry > from && a.execution !== probe.id))
		found.push(
			`${INVARIANTS.afterForeign}: ${m.message} by execution ${m.execution} at ${m.firstTry}, the data landed at ${foreign.at}`,
		);
	for (const o of outcomes.filter(
		(x) => x.startedAt >= from && x.done && !x.crashed && !x.stopped,
	)) {
		const items = itemsOf(o);
		const refused =
			(o.error && CONFLICT.test(o.error)) ||
			(items.length > 0 && items.every((i) => i.item.code === 'deduplicationConflict'));
		if (!refused)
			found.push(
				`${INVARIANTS.notRefused}: execution ${o.id} of ${o.proc.name}: ${o.error ?? JSON.stringify(items.map((i) => i.item.code ?? i.item.status))}`,
			);
	}
	return found;
}
