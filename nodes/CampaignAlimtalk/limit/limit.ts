/**
 * The send limit (docs/deduplication.md, "Send limit"): at most `limit` messages from this node
 * per period. Per hour or day the places are slot entries in the node's row of keys, taken in
 * the same round as the Deduplication Key (places.ts, session/round.ts); per execution they are
 * a count that lives only as long as the execution does.
 */
import { DateTime } from 'luxon';
import type { IExecuteFunctions } from 'n8n-workflow';
import type { Failure } from '../../shared/outcome';
import { cancelSignalOf } from '../../shared/transport/pause';
import type { LimitSettings } from './limit-options';
import { LIMIT_CODE } from './limit-options';

export type { LimitPeriod, LimitSettings } from './limit-options';
export { LIMIT_PERIODS } from './limit-options';

/** A limit kept in the store (per hour or day). */
export type StoreLimit = LimitSettings & { period: 'hour' | 'day' };

export function inStore(limit: LimitSettings | undefined): limit is StoreLimit {
	return limit !== undefined && limit.period !== 'execution';
}

/**
 * The period that holds `nowMs`, in `zone` (an unknown zone counts as UTC): an hour or a day of
 * the wall clock there, so a day lasts 23 or 25 hours on a daylight-saving change and an hour of
 * Asia/Kolkata starts at half past a UTC hour.
 */
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

/**
 * The Failed fields of an item the limit kept from being sent; with its Deduplication Key (`key`),
 * whose claim was taken back in its round: after the reset it can be sent.
 */
export function limitedFailure(
	limit: LimitSettings,
	resetsAt: string | undefined,
	key?: string,
): Failure {
	const when =
		limit.period === 'execution'
			? 'it resets with the next execution'
			: `it resets at ${resetsAt ?? 'the start of the next ' + limit.period}`;
	const per = limit.period === 'execution' ? 'per execution' : `per ${limit.period}`;
	return {
		code: LIMIT_CODE,
		message: `Not sent: the send limit of ${limit.limit} messages ${per} is used up; ${when}`,
		deliveryUnknown: false,
		sendLimit: limit.limit,
		sendLimitPeriod: limit.period,
		sendLimitResetsAt: limit.period === 'execution' ? null : (resetsAt ?? null),
		...(key === undefined ? {} : { deduplicationKey: key, deduplicationKeyKept: false }),
	};
}

/**
 * The places of an execution limit, per node, shared by every run of the node in one execution:
 * keyed by the execution's cancel signal, which n8n 2.41 creates once per execution
 * (WorkflowExecute) and hands to every run of a node in it, also to a tool node an AI Agent runs
 * several times. Without that signal (older n8n) the places are the node run's own. A WeakMap:
 * the count goes with the execution.
 */
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

	/** Takes a place for item `i`: false when none is left. */
	take(i: number): boolean {
		if (this.count.used >= this.limit) return false;
		this.count.used++;
		this.held.add(i);
		return true;
	}

	/** Gives item `i`'s place back (its message was certainly not sent). */
	giveBack(i: number): void {
		if (!this.held.delete(i)) return;
		this.count.used--;
	}
}

/**
 * Entries a row of keys may gain after a period's first slot, per place of the limit: the other
 * slots (1), a message of the period with its claim while in flight and its `sent` (at most 8,
 * key/markers.ts), and the `sent` of a message of the previous period confirmed now (1). The record
 * calls keep this much room beyond the History Size, so that no slot of the current period is
 * forgotten while it lasts (docs/deduplication.md, "Send limit").
 */
export const ROOM_PER_PLACE = 10;

export function roomFor(limit: LimitSettings | undefined): number {
	return inStore(limit) ? ROOM_PER_PLACE * limit.limit : 0;
}
