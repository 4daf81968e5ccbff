/**
 * A held deduplication lock (lock.ts): what its row holds, its heartbeat, and its lease.
 */
import type { LockEnv, LockStore } from './store-calls';
import { bounded } from './store-calls';

export const LOCK_ENTRY = 'campaign-alimtalk-deduplication-lock';
/** Beats of another lock beyond this holder's that a release takes for lock entries (200 s of beats). */
const EXTRA_BEATS = 100;
/** A holder whose last heartbeat is older than this starts no more work and keeps its hands off the row. */
export const LEASE_MS = 10000;
/** How often a holder adds a heartbeat entry. */
export const HEARTBEAT_MS = 2000;
/**
 * A store call given up on after its bound (store-calls.ts) may still land: its holder keeps the
 * lock, beating, until it settled, for at most this long, before it lets go.
 */
export const LATE_CALL_MS = 60000;
const BEAT_SLICE_MS = 100;

/** A held lock: what its row holds, and when its holder last proved alive. */
export class Holder {
	/** The row's entry count as this holder wrote it. */
	expected: number;

	/** When the last heartbeat (or the creation) started. */
	beatAt: number;

	/** `lost`: the row is not as this holder left it; `foreign`: another node added data to it. */
	state: 'held' | 'lost' | 'foreign' = 'held';

	private beats = 0;

	/** The last heartbeat's write failed and so did the count after it: it may have landed. */
	private mayHaveLanded = false;

	private stopped = false;

	private beating: Promise<void> | undefined;

	/** Store calls of this holder that have not settled (one given up on may still land). */
	private readonly pending = new Set<Promise<unknown>>();

	constructor(
		private readonly store: LockStore,
		private readonly env: LockEnv,
		readonly copies: number,
		startedAt: number,
	) {
		this.expected = copies;
		this.beatAt = startedAt;
	}

	/** True while the holder may start more work: the row is as it left it and the lease holds. */
	get valid(): boolean {
		return this.state === 'held' && this.env.now() - this.beatAt < LEASE_MS;
	}

	/**
	 * Runs one store call, bounded in time, and remembers it until it settled: a call given up on
	 * may still write its whole row later, so the lock is not let go while it may (`quiet`).
	 */
	async call<T>(work: () => Promise<T>): Promise<T> {
		const running = work();
		this.pending.add(running);
		const forget = () => this.pending.delete(running);
		running.then(forget, forget);
		return await bounded(this.env, async () => await running);
	}

	/** True while a store call of this holder may still land. */
	get busy(): boolean {
		return this.pending.size > 0;
	}

	/**
	 * Waits, still beating, until no store call of this holder may land any more, for at most
	 * LATE_CALL_MS. False: one may still land (the lock must then not be deleted).
	 */
	async quiet(): Promise<boolean> {
		const until = this.env.now() + LATE_CALL_MS;
		while (this.busy && this.env.now() < until) await this.env.sleep(BEAT_SLICE_MS);
		return !this.busy;
	}

	/**
	 * Its entries and every lock entry a late write of another process may have put beside them
	 * (`copies` more copies at most, the beats of a lock held EXTRA_BEATS beats longer): none of
	 * them is another node's data.
	 */
	lockEntries(copies: number): string[] {
		const beats = Array.from({ length: this.beats + EXTRA_BEATS }, (_, i) => this.entry(i));
		return [...Array.from({ length: this.copies + copies }, () => LOCK_ENTRY), ...beats];
	}

	/** Adds a heartbeat every HEARTBEAT_MS until `stop`. */
	start(): void {
		const loop = async () => {
			for (;;) {
				// In slices, so that a stopped holder leaves no timer behind for long.
				for (let slept = 0; slept < HEARTBEAT_MS && !this.stopped; slept += BEAT_SLICE_MS)
					await this.env.sleep(BEAT_SLICE_MS);
				if (this.stopped || this.state !== 'held') return;
				this.beating = this.beat();
				await this.beating;
				this.beating = undefined;
			}
		};
		void loop();
	}

	private async beat(): Promise<void> {
		const startedAt = this.env.now();
		try {
			if (!this.valid) return;
			const count = this.counted(await this.call(this.store.count));
			if (!this.valid) return; // an answer that came after the lease: the row may be another's by now
			if (count !== this.expected) {
				this.state = count > this.expected ? 'foreign' : 'lost';
				return;
			}
			// Counted as this holder's before it is written: a beat that lands but reports an error
			// is still one of its entries, and its release removes it.
			this.beats++;
			this.mayHaveLanded = true;
			const before = this.expected;
			try {
				await this.call(async () => await this.store.record([this.entry(this.beats - 1)]));
				// A count of the holder made while the answer was on its way may have adopted it already.
				if (this.mayHaveLanded) this.expected++;
				this.mayHaveLanded = false;
			} catch {
				// Did it land? The count tells (one more, or none); when that read fails too, the next
				// count does (`counted`). Anything else means the row changed.
				const after = this.counted(await this.call(this.store.count));
				if (after !== this.expected) {
					this.state = after > this.expected ? 'foreign' : 'lost';
					return;
				}
			}
			if (this.expected > before) this.beatAt = startedAt;
		} catch {
			// A failed heartbeat is a missed one: the lease runs out unless the next one lands.
		}
	}

	/**
	 * A count of the row, read by this holder: one more than expected right after a heartbeat
	 * that may have landed (its write and the count after it failed) is that heartbeat.
	 */
	counted(count: number): number {
		if (this.mayHaveLanded && count === this.expected + 1) this.expected++;
		this.mayHaveLanded = false;
		return count;
	}

	private entry(beat: number): string {
		return `${LOCK_ENTRY}:beat:${beat}`;
	}

	/** Stops the heartbeat (waiting for one under way; a sleeping one just ends). */
	async stop(): Promise<void> {
		this.stopped = true;
		await this.beating;
	}
}
