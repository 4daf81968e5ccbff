/** Send Limit periods; per hour or day, see places.ts (docs/deduplication.md, "The Send Limit"). */
import { DateTime } from 'luxon';
import type { IExecuteFunctions } from 'n8n-workflow';
import type { Failure } from '../../shared/outcome';
import { cancelSignalOf } from '../../shared/transport/pause';
import type { LimitSettings } from './limit-options';
import { LIMIT_CODE, MEMBER_UNAVAILABLE_CODE } from './limit-options';

/** `lookups`: the bound of refused member lookups; `probe`: asks whether a place is left, takes none. */
export type StoreLimit = LimitSettings & { period: 'hour' | 'day'; lookups?: true; probe?: true };

export function inStore(limit: LimitSettings | undefined): limit is StoreLimit {
	return limit !== undefined && limit.period !== 'execution';
}

/** The wall-clock hour or day in `zone` (unknown: UTC) that holds `nowMs` (a day may last 23 or 25 hours). */
export function periodOf(
	nowMs: number,
	period: 'hour' | 'day',
	zone: string,
): { startMs: number; endMs: number; resetsAt: string } {
	let at = DateTime.fromMillis(nowMs, { zone });
	if (!at.isValid) at = DateTime.fromMillis(nowMs, { zone: 'UTC' });
	const start = at.startOf(period);
	const end = period === 'hour' ? start.plus({ hours: 1 }) : start.plus({ days: 1 });
	return { startMs: start.toMillis(), endMs: end.toMillis(), resetsAt: end.toISO() ?? '' };
}

/** The item's key claim was taken back: sendable after the reset (`lookups`: the lookups' bound). */
export function limitedFailure(
	limit: LimitSettings,
	resetsAt: string | undefined,
	key?: string,
	lookups = false,
): Failure {
	const when =
		limit.period === 'execution'
			? 'it resets with the next execution'
			: `it resets at ${resetsAt ?? 'the start of the next ' + limit.period}`;
	const per = limit.period === 'execution' ? 'per execution' : `per ${limit.period}`;
	const used = lookups
		? `member lookups are paused, ${limit.limit} member IDs ${per} could not be sent to (as many as the Send Limit)`
		: `the send limit of ${limit.limit} messages ${per} is used up`;
	return {
		code: lookups ? MEMBER_UNAVAILABLE_CODE : LIMIT_CODE,
		message: `Not sent: ${used}; ${when}`,
		deliveryUnknown: false,
		sendLimit: limit.limit,
		sendLimitPeriod: limit.period,
		sendLimitResetsAt: limit.period === 'execution' ? null : (resetsAt ?? null),
		...(key === undefined ? {} : { deduplicationKey: key, deduplicationKeyKept: false }),
	};
}

/** Per node, keyed by the execution's cancel signal (docs/deduplication.md, "The Send Limit"). */
const executionPlaces = new WeakMap<object, Map<string, { used: number }>>();

export class ExecutionPlaces {
	private readonly count: { used: number };

	private readonly held = new Set<number>();

	constructor(
		ctx: IExecuteFunctions,
		private readonly limit: number,
	) {
		const handle: object = cancelSignalOf(ctx) ?? ctx;
		let nodes = executionPlaces.get(handle);
		if (!nodes) executionPlaces.set(handle, (nodes = new Map()));
		const id = ctx.getNode().id ?? ctx.getNode().name;
		let count = nodes.get(id);
		if (!count) nodes.set(id, (count = { used: 0 }));
		this.count = count;
	}

	take(i: number): boolean {
		if (this.count.used >= this.limit) return false;
		this.count.used++;
		this.held.add(i);
		return true;
	}

	/** Only for a message certainly not sent. */
	giveBack(i: number): void {
		if (!this.held.delete(i)) return;
		this.count.used--;
	}
}

/**
 * Room kept beyond the History Size per place, so no slot of the current period is forgotten: the
 * other slots (1), a message's claim and markers (at most 8), a late confirmation's `sent` (1), a
 * refused member lookup's place (1, as a tool).
 */
export const ROOM_PER_PLACE = 11;

export function roomFor(limit: LimitSettings | undefined): number {
	return inStore(limit) ? ROOM_PER_PLACE * limit.limit : 0;
}
