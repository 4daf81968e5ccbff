/**
 * The invariants of the deduplication simulation, checked after every schedule (sim-run.ts)
 * against what the service really accepted. Each violation is one line naming the invariant.
 */
import type { IDataObject } from 'n8n-workflow';
import { phone } from './support';
import type { Outcome, Played } from './sim-run';
import { NODES } from './sim-run';

/** The invariant names, as violations start with them. */
export const INVARIANTS = {
	twice: 'a key sent twice',
	phantom: 'a never-sent message answered as sent or duplicate',
	overLimit: 'more messages than the Send Limit in its period',
	blocked: 'a key blocked after the longest send and the margin, with nothing in flight',
	stuckLimit: 'a Send Limit used up by places nothing took',
	hung: 'an execution of a live process that never ended',
	emptyRow: 'an empty row left in the store',
	conflict: 'a conflict reported with no other node in the workflow',
	probeFailed: 'the healthy check after the schedule failed',
} as const;

const messageOf = (campaign: string, item: IDataObject) => {
	const order = String(item.deduplicationKey ?? '').replace(/^order-/, '');
	const number = typeof item.phoneNumber === 'string' ? item.phoneNumber : phone(Number(order));
	return `${campaign}|${number}`;
};

/** Every item of a finished execution, with its node's campaign. */
function itemsOf(
	outcome: Outcome,
): Array<{ campaign: string; item: IDataObject; failed: boolean }> {
	return NODES.flatMap((n) => {
		const items = outcome.items[n.name];
		if (!items) return [];
		return [
			...items.ok.map((item) => ({ campaign: n.campaign, item, failed: false })),
			...items.failed.map((item) => ({ campaign: n.campaign, item, failed: true })),
		];
	});
}

const claimsSent = (item: IDataObject) => item.status === 'sent' || item.duplicate === true;

/** A Failed item that says for certain nothing left (it takes no place of the Send Limit). */
const certainlyNotSent = (item: IDataObject) => item.deliveryUnknown === false;

/** What an execution said of a message that did not end in a certain answer. */
function unclean(outcome: Outcome, nodes: number): number {
	if (outcome.crashed || !outcome.done || outcome.error !== undefined)
		return (outcome.spec?.orders.length ?? 0) * nodes;
	return itemsOf(outcome).filter(
		({ item, failed }) => failed && !certainlyNotSent(item) && !claimsSent(item),
	).length;
}

export function violations(played: Played): string[] {
	const { world, outcomes, probe, schedule: s } = played;
	const found: string[] = [];
	// With Retry When Delivery Is Unknown the user accepts that one execution's retries of a request
	// whose delivery was unknown may send it again: a message counts once per execution then.
	const counts = new Map<string, number>();
	const seen = new Set<string>();
	for (const m of world.sent) {
		const message = world.messageOf(m.campaignKey, m.phoneNumber);
		const once = `${message}#${m.execution}`;
		if (s.retryUnknown && seen.has(once)) continue;
		seen.add(once);
		counts.set(message, (counts.get(message) ?? 0) + 1);
	}
	for (const [message, n] of counts)
		if (n > 1) found.push(`${INVARIANTS.twice}: ${message} accepted ${n} times`);
	const finished = [...outcomes, probe].filter((o) => o.done && !o.crashed);
	for (const outcome of finished) {
		const who = outcome === probe ? 'the probe' : `an execution of ${outcome.proc.name}`;
		for (const { campaign, item } of itemsOf(outcome)) {
			const message = messageOf(campaign, item);
			if (claimsSent(item) && !counts.has(message))
				found.push(`${INVARIANTS.phantom}: ${who} answered ${message} ${JSON.stringify(item)}`);
			if (item.code === 'deduplicationConflict')
				found.push(`${INVARIANTS.conflict}: ${who}: ${String(item.message)}`);
		}
		if (outcome.error && /another node of this workflow/.test(outcome.error))
			found.push(`${INVARIANTS.conflict}: ${who}: ${outcome.error}`);
	}
	if (s.limit !== undefined) {
		for (const n of NODES.slice(0, s.nodes)) {
			const accepted = [...counts.entries()]
				.filter(([message]) => message.startsWith(`${n.campaign}|`))
				.reduce((sum, [, k]) => sum + k, 0);
			if (accepted > s.limit)
				found.push(`${INVARIANTS.overLimit}: ${n.campaign} ${accepted} accepted, limit ${s.limit}`);
		}
	}
	if (played.hung > 0) found.push(`${INVARIANTS.hung}: ${played.hung}`);
	found.push(...probeViolations(played, counts));
	for (const [id, row] of world.store.rows)
		if (Array.isArray(row.data) && row.data.length === 0)
			found.push(`${INVARIANTS.emptyRow}: ${JSON.stringify(id)}`);
	return found;
}

/** The probe runs with a healthy store and service once every send could have ended. */
function probeViolations(played: Played, counts: Map<string, number>): string[] {
	const { probe, schedule: s, outcomes, fresh } = played;
	const found: string[] = [];
	if (!probe.done) return [`${INVARIANTS.probeFailed}: it never ended`];
	if (probe.error !== undefined) return [`${INVARIANTS.probeFailed}: ${probe.error}`];
	for (const { campaign, item } of itemsOf(probe)) {
		if (item.code === 'earlierSendInProgress')
			found.push(`${INVARIANTS.blocked}: ${messageOf(campaign, item)} ${String(item.message)}`);
		else if (item.code === 'deduplicationStoreFailed')
			found.push(`${INVARIANTS.probeFailed}: ${messageOf(campaign, item)} ${String(item.message)}`);
	}
	if (s.limit === undefined) return found;
	for (const n of NODES.slice(0, s.nodes)) {
		// Places the schedule may rightly have used: every accepted message, every item whose fate
		// is not certain (it may have left, or its round was cut), and the places record calls
		// wrote before failing (their answer lost: docs/deduplication.md, "Send limit").
		const accepted = [...counts.entries()]
			.filter(([message]) => message.startsWith(`${n.campaign}|`))
			.reduce((sum, [, k]) => sum + k, 0);
		const doubtful = outcomes.reduce((sum, o) => sum + unclean(o, s.nodes), 0);
		const items = probe.items[n.name] ?? { ok: [], failed: [] };
		const sentNow = items.ok.filter((i) => i.status === 'sent').length;
		const limited = items.failed.filter((i) => i.code === 'sendLimitReached');
		const freshLimited = limited.filter((i) =>
			fresh.some((f) => i.phoneNumber === phone(f)),
		).length;
		const held = played.held.get(n.name) ?? 0;
		// The limit refuses only when the store holds its places: a round that failed keeps the
		// places it may have written until the period ends (docs/deduplication.md), never more.
		if (freshLimited > 0 && s.limit - held - sentNow > 0)
			found.push(
				`${INVARIANTS.stuckLimit}: ${n.campaign} limit ${s.limit}, ${held} held before the probe, ${sentNow} sent by the probe, yet ${freshLimited} fresh refused`,
			);
		// With no store fault and no crash, every place held is a message's that was or may have been sent.
		const lost = played.world.lostPlaces.get(n.name) ?? 0;
		if (faultFree(played) && held > accepted + doubtful + lost)
			found.push(
				`${INVARIANTS.stuckLimit}: ${n.campaign} ${held} places held with no fault, ${accepted} accepted, ${doubtful} in doubt`,
			);
	}
	return found;
}

/** No store call met a fault and no process crashed. */
function faultFree(played: Played): boolean {
	const faults = [...played.world.storeFaults].filter(([kind, n]) => kind !== 'ok' && n > 0);
	return faults.length === 0 && played.schedule.crashes.size === 0;
}

/** A message the service accepted, then refused on a later try: a doubt released (finding 2). */
function releasedDoubt(played: Played): boolean {
	for (const faults of played.world.history.values()) {
		const doubt = faults.findIndex(
			(f) => f === 'droppedAfter' || f === 'noAnswer' || f === 'error7999',
		);
		if (doubt !== -1 && faults.slice(doubt + 1).includes('refused')) return true;
	}
	return false;
}

/** Which findings of issue 38 a schedule's violations most likely show (for the report: a guess, not a rule). */
export function findingsOf(played: Played, lines: string[]): string {
	const has = (name: string) => lines.some((l) => l.startsWith(name));
	const found: string[] = [];
	if (has(INVARIANTS.twice) || has(INVARIANTS.phantom) || has(INVARIANTS.overLimit)) {
		if (releasedDoubt(played)) found.push('2 (a doubt released)');
		if ((played.world.storeFaults.get('slow') ?? 0) > 0) found.push('1 (a late store write)');
		if (found.length === 0) found.push('a lost claim or place, cause unknown');
	}
	if (has(INVARIANTS.stuckLimit)) found.push('3 (a Send Limit stuck)');
	if (has(INVARIANTS.emptyRow) || has(INVARIANTS.conflict)) found.push('4 (an empty lock row)');
	if (has(INVARIANTS.blocked))
		found.push('7 (a claim in flight past the longest send: a crash, or a cut round, 3)');
	if (has(INVARIANTS.hung) || has(INVARIANTS.probeFailed))
		found.push('a wait or a probe that failed');
	return `finding ${found.join(', ')}`;
}
