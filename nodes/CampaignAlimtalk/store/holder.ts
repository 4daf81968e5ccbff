/** A held deduplication lock (lock.ts): what its row holds, its heartbeat, and its lease. */
import type { LockEnv, LockStore } from './store-calls';
import { bounded } from './store-calls';

export const LOCK_ENTRY = 'campaign-alimtalk-deduplication-lock';
/** Beats beyond this holder's that a release takes for lock entries (200 s of another lock's). */
const EXTRA_BEATS = 100;
/** A holder whose last heartbeat is older than this starts no more work and keeps its hands off the row. */
export const LEASE_MS = 10000;
/** How often a holder adds a heartbeat entry. */
export const HEARTBEAT_MS = 2000;
/** How long a holder keeps the lock, beating, for a call given up on that may still land. */
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

	/** A beat's write is under way or was not settled: a count one higher is that beat (`counted`). */
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
		/** The count of this process's lock released just before (0: none): its write-back is no one's lock. */
		readonly previous = 0,
	) {
		this.expected = copies;
		this.beatAt = startedAt;
	}

	/** True while the holder may start more work: the row is as it left it and the lease holds. */
	get valid(): boolean {
		return this.state === 'held' && this.env.now() - this.beatAt < LEASE_MS;
	}

	/** Runs one store call, bounded, and remembers it until it settled (`busy`, `quiet`). */
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

	/** Waits, beating, up to LATE_CALL_MS until no call may land. False: one still may. */
	async quiet(): Promise<boolean> {
		const until = this.env.now() + LATE_CALL_MS;
		while (this.busy && this.env.now() < until) await this.env.sleep(BEAT_SLICE_MS);
		return !this.busy;
	}

	/** Its entries and every lock entry a late write of another process may have added. */
	lockEntries(copies: number): string[] {
		const beats = Array.from({ length: this.beats + EXTRA_BEATS }, (_, i) => this.entry(i));
		return [...Array.from({ length: this.copies + copies }, () => LOCK_ENTRY), ...beats];
	}

	/** A beat entry `lockEntries` never lists: what a release keeps in the row while it cleans it. */
	get keeper(): string {
		return this.entry(this.beats + EXTRA_BEATS);
	}

	/** Adds a heartbeat every HEARTBEAT_MS until `stop`. */
	start(): void {
		const loop = async () => {
			for (;;) {
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
			// Counted before it is written: a beat that lands but reports an error is still its own.
			this.beats++;
			this.mayHaveLanded = true;
			const before = this.expected;
			try {
				await this.call(async () => await this.store.record([this.entry(this.beats - 1)]));
				// A count made while the answer was on its way may have adopted it already.
				if (this.mayHaveLanded) this.expected++;
				this.mayHaveLanded = false;
			} catch {
				// Did it land? The count tells: read after the failure, it settles the beat either way.
				const after = this.counted(await this.call(this.store.count));
				this.mayHaveLanded = false;
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
	 * A count read by this holder: one more than expected while a beat may have landed is that beat.
	 * Any other count leaves the beat open: it may have been read before the beat's write landed.
	 */
	counted(count: number): number {
		if (this.mayHaveLanded && count === this.expected + 1) {
			this.expected++;
			this.mayHaveLanded = false;
		}
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
