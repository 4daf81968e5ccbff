/**
 * A round's Send Limit places (docs/deduplication.md, "The Send Limit"). Asks of one period share
 * one pool whatever their limit: a send with limit L takes a free slot n <= L.
 */
import type { StoreLimit } from './limit';
import { periodOf } from './limit';

/** Slots asked about beyond what the sends need. */
const SPARE = 3;
/** Record calls of slots beyond a round's first (the last asks about every slot left). */
export const MAX_CALLS = 3;

export function slotName(period: string, startMs: number, n: number, kind = 'limit'): string {
	return `${kind}:${period}:${startMs}:${n}`;
}

interface Pool {
	kind: string;
	period: 'hour' | 'day';
	startMs: number;
	max: number;
	resetsAt: string;
	twoBeforeMs: number;
	asked: Set<number>;
	/** Found free, not yet given. */
	free: number[];
	found: number;
	/** Slot 1 came back new: the first round of the period. */
	fresh: boolean;
}

export class Places {
	/** By the start of their slots' values (`slotName` without the slot). */
	private readonly pools = new Map<string, Pool>();

	/** undefined: no limit kept in the store. */
	private readonly ofAsk: Array<Pool | undefined>;

	readonly slots: Array<string | undefined>;

	/** Slot values found new this round (for session/round.ts `mayRemain`). */
	readonly added: string[] = [];

	constructor(
		private readonly limits: ReadonlyArray<StoreLimit | undefined>,
		nowMs: number,
		private readonly random: () => number = Math.random,
	) {
		this.ofAsk = limits.map((limit) => {
			if (!limit) return undefined;
			const { startMs, resetsAt } = periodOf(nowMs, limit.period, limit.zone);
			const kind = limit.lookups ? 'lookup' : 'limit';
			const name = `${kind}:${limit.period}:${startMs}`;
			let pool = this.pools.get(name);
			if (!pool) {
				const before = periodOf(startMs - 1, limit.period, limit.zone).startMs;
				const twoBeforeMs = periodOf(before - 1, limit.period, limit.zone).startMs;
				const fields = { kind, period: limit.period, startMs, max: 0, resetsAt, twoBeforeMs };
				pool = { ...fields, asked: new Set(), free: [], found: 0, fresh: false };
				this.pools.set(name, pool);
			}
			pool.max = Math.max(pool.max, limit.limit);
			return pool;
		});
		this.slots = limits.map(() => undefined);
	}

	resetsAt(n: number): string | undefined {
		return this.ofAsk[n]?.resetsAt;
	}

	/** `all`: every slot not asked about yet (a round's last call). */
	probe(waiting: readonly number[], all = false): string[] {
		const values: string[] = [];
		for (const pool of this.pools.values()) {
			const want = waiting.filter((n) => this.ofAsk[n] === pool).length;
			if (want === 0) continue;
			const left = Array.from({ length: pool.max }, (_, i) => i + 1).filter(
				(n) => !pool.asked.has(n),
			);
			const share = pool.asked.size === 0 ? 1 : pool.found / pool.asked.size;
			const count = all || share === 0 ? left.length : Math.ceil(want / share) + SPARE;
			const picked = left.includes(1) ? [1] : [];
			const others = left.filter((n) => n !== 1);
			while (picked.length < Math.min(count, left.length)) {
				picked.push(others.splice(Math.floor(this.random() * others.length), 1)[0]);
			}
			picked.forEach((n) => pool.asked.add(n));
			values.push(...picked.map((n) => slotName(pool.period, pool.startMs, n, pool.kind)));
		}
		return values;
	}

	note(values: readonly string[], isNew: (value: string) => boolean): void {
		for (const value of values) {
			if (!isNew(value)) continue;
			this.added.push(value);
			const at = value.lastIndexOf(':');
			const pool = this.pools.get(value.slice(0, at)) as Pool;
			const n = Number(value.slice(at + 1));
			pool.found++;
			pool.free.push(n);
			if (n === 1) pool.fresh = true;
		}
		for (const pool of this.pools.values()) pool.free.sort((x, y) => x - y);
	}

	/**
	 * The lowest free slot within each ask's limit, in order; returns the asks left without one. A
	 * probe takes none: it learns whether one is left.
	 */
	give(waiting: readonly number[]): number[] {
		return waiting.filter((n) => {
			const pool = this.ofAsk[n] as Pool;
			const limit = this.limits[n] as StoreLimit;
			const at = pool.free.findIndex((slot) => slot <= limit.limit);
			if (at === -1 || limit.probe) return at === -1;
			const [slot] = pool.free.splice(at, 1);
			this.slots[n] = slotName(pool.period, pool.startMs, slot, pool.kind);
			return false;
		});
	}

	limited(n: number): boolean {
		return this.ofAsk[n] !== undefined;
	}

	/**
	 * The free slots not given and, in a period's first round, the slots of the period two before
	 * (not the one before: a worker whose clock is behind may still count in it).
	 */
	takeBack(): string[] {
		return [...this.pools.values()].flatMap((pool) => [
			...pool.free.map((n) => slotName(pool.period, pool.startMs, n, pool.kind)),
			...(pool.fresh
				? Array.from({ length: pool.max }, (_, i) =>
						slotName(pool.period, pool.twoBeforeMs, i + 1, pool.kind),
					)
				: []),
		]);
	}
}
