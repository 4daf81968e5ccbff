/**
 * The send limit (docs/deduplication.md, "Send limit"): at most `limit` messages from this node
 * per period. Per hour or day the places are slot entries in the node's row of keys, claimed in
 * the same round as the Deduplication Key (batch.ts); per execution they are a count that lives
 * only as long as the execution does.
 */
import { DateTime } from 'luxon';
import type { IExecuteFunctions } from 'n8n-workflow';
import type { Failure } from '../../shared/outcome';
import { cancelSignalOf } from '../../shared/transport/pause';

export const LIMIT_CODE = 'sendLimitReached';
export type LimitPeriod = 'execution' | 'hour' | 'day';
export const LIMIT_PERIODS: readonly LimitPeriod[] = ['execution', 'hour', 'day'];

export interface LimitSettings {
	limit: number;
	period: LimitPeriod;
	/** The workflow's time zone: where an hour or a day starts. */
	zone: string;
}

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

/** The slot entries of a period: one per message it may send, `limit:<period>:<start ms>:<n>`. */
export function slotsOf(limit: StoreLimit, startMs: number): string[] {
	return Array.from({ length: limit.limit }, (_, n) => `limit:${limit.period}:${startMs}:${n + 1}`);
}

/**
 * The slots of a round for one limit: the current period's, and those of the period two before
 * (taken back when the period is new). Not the period just before: a worker whose clock is a
 * little behind may still be counting in it (docs/deduplication.md, "Send limit").
 */
export interface Pool {
	slots: string[];
	previous: string[];
	resetsAt: string;
}

/** The pool of each ask (undefined: no store limit), the asks of one limit sharing one pool. */
export function poolsOf(
	limits: ReadonlyArray<StoreLimit | undefined>,
	nowMs: number,
): {
	pools: Pool[];
	ofAsk: Array<Pool | undefined>;
} {
	const byName = new Map<string, Pool>();
	const ofAsk = limits.map((limit) => {
		if (!limit) return undefined;
		const { startMs, resetsAt } = periodOf(nowMs, limit.period, limit.zone);
		const name = `${limit.limit}:${limit.period}:${startMs}`;
		let pool = byName.get(name);
		if (!pool) {
			const before = periodOf(startMs - 1, limit.period, limit.zone).startMs;
			const twoBefore = periodOf(before - 1, limit.period, limit.zone).startMs;
			pool = { slots: slotsOf(limit, startMs), previous: slotsOf(limit, twoBefore), resetsAt };
			byName.set(name, pool);
		}
		return pool;
	});
	return { pools: [...byName.values()], ofAsk };
}

/**
 * Gives the free slots (those the record call found new), lowest first, to the asks that would
 * send, in ask order; an ask that would send and finds none is `limited`. Returns each ask's slot
 * and the values to take back: the free slots not given and, in a period none of whose slots was
 * taken yet, the slots of the period two before (so that old periods do not fill the history).
 */
export function allocate(
	ofAsk: ReadonlyArray<Pool | undefined>,
	sends: readonly boolean[],
	isNew: (value: string) => boolean,
): { slots: Array<string | undefined>; limited: boolean[]; takeBack: string[] } {
	const free = new Map<Pool, string[]>();
	for (const pool of new Set(ofAsk)) if (pool) free.set(pool, pool.slots.filter(isNew));
	const slots: Array<string | undefined> = [];
	const limited: boolean[] = [];
	ofAsk.forEach((pool, n) => {
		const slot = pool && sends[n] ? free.get(pool)?.shift() : undefined;
		slots.push(slot);
		limited.push(pool !== undefined && sends[n] && slot === undefined);
	});
	const takeBack: string[] = [];
	for (const [pool, left] of free) {
		takeBack.push(...left);
		if (pool.slots.every(isNew)) takeBack.push(...pool.previous);
	}
	return { slots, limited, takeBack };
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
 * markers.ts), and the `sent` of a message of the previous period confirmed now (1). The record
 * calls keep this much room beyond the History Size, so that no slot of the current period is
 * forgotten while it lasts (docs/deduplication.md, "Send limit").
 */
export const ROOM_PER_PLACE = 10;

export function roomFor(limit: LimitSettings | undefined): number {
	return inStore(limit) ? ROOM_PER_PLACE * limit.limit : 0;
}
