/**
 * What the simulation sees of the store's rows (sim-store.ts): every read and whole-row write of
 * a call, by process, on the true clock. From it: who holds the lock (the process whose insert
 * made the lock's row), writes that landed after another process took the lock (docs window 1),
 * entries the History Size pushed out, and values a process removed a second time after another
 * process had recorded them again (a release written twice: the findings 1 and 2).
 */
import { ProcessedDataStore } from '../../support/dedup-store';
import { AsyncLocalStorage } from '../../support/node';
import { STALE_LOCK_MS } from '../../../nodes/CampaignAlimtalk/store/lock';
import { STORE_CALL_MS } from '../../../nodes/CampaignAlimtalk/store/store-calls';
import { trueNow } from './sim-clock';
import type { Process } from './sim-world';

/** One store call, as the watch sees it. */
export interface CallInfo {
	proc: Process;
	kind: 'record' | 'remove' | 'clear' | 'count';
	items: string[];
	/** When the process made the call (a stalled process may start it only once its stall is over). */
	startedAt: number;
	/** When its read of the row happened, and the hashes it read. */
	readAt?: number;
	snapshot?: string[];
	/** When its last write (an insert, an update or a delete) landed, and whether it made the row. */
	wroteAt?: number;
	created?: boolean;
	/** How long its write is held back between its read and its write (`slow`). */
	slowMs?: number;
}

export const callOf = new AsyncLocalStorage<CallInfo>();

/** A write that landed after a lock was made again since its call was made. */
export interface LateWrite {
	proc: string;
	row: string;
	startedAt: number;
	at: number;
	/** Values another process had recorded in the row that the write erased. */
	erased: number;
}

/** A value removed a second time by one process after another had recorded it again. */
export interface RemovedTwice {
	proc: string;
	at: number;
	/** Whether the process held the lock at its first removal, and at this one. */
	firstLocked: boolean;
	locked: boolean;
}

type Row = { mode: string; data: unknown };

/** A takeover deletes the lock's row after STALE_LOCK_MS of stillness (a few seconds less on a skewed clock); a release right after its own write. */
const TAKEOVER_MS = STALE_LOCK_MS - 5000;

const hashes = (row: Row | undefined): string[] =>
	row && Array.isArray(row.data) ? (row.data as string[]) : [];

/** `from` without one copy of each of `without` (a multiset difference). */
function minus(from: readonly string[], without: readonly string[]): string[] {
	const left = new Map<string, number>();
	for (const value of without) left.set(value, (left.get(value) ?? 0) + 1);
	return from.filter((value) => {
		const n = left.get(value) ?? 0;
		if (n > 0) left.set(value, n - 1);
		return n === 0;
	});
}

export class StoreWatch {
	/** The process whose write made the lock's row, while it stands. */
	holder: string | undefined;

	/**
	 * The lock's row as made last, while it stands: by whom, when, and whether anything but that
	 * process's own calls made since (written on time) wrote it: another process, another node, a
	 * late write.
	 */
	private made: { proc: string; at: number; othersWrote: boolean } | undefined;

	/** Releases that found the lock's row grown although only their holder wrote it: a holder that lost count of its own entries. */
	readonly miscounted: Array<{ proc: string; at: number }> = [];

	readonly lockMade: Array<{ proc: string; at: number }> = [];

	/** Deletes of the lock's row long after its last write (TAKEOVER_MS): rows left to a takeover. */
	takeovers = 0;

	/**
	 * Lock creates that read the row standing and wrote it back whole after a lock was made since
	 * their read (window 5), as scripts/sim-trace-stats.js counts them in a real trace.
	 */
	staleCreates = 0;

	private lockWrittenAt = 0;

	readonly late: LateWrite[] = [];

	/** Row id and hash (`<row>|<hash>`) -> when the History Size first pushed it out of that row of keys. */
	readonly evicted = new Map<string, number>();

	readonly removedTwice: RemovedTwice[] = [];

	/** The most values one round (the remove calls of a process between two record calls) asked to take back from a row of keys. */
	largestRemove = 0;

	private readonly removing = new Map<string, number>();

	/** Writes to a row of keys by a process that did not hold the lock (when its call read the row, and when it wrote). */
	readonly unlocked: Array<{ proc: string; startedAt: number; at: number }> = [];

	/** Per row and hash: who recorded it last, and who removed it last. */
	private readonly added = new Map<string, { proc: string; at: number }>();

	private readonly removed = new Map<string, { proc: string; at: number; locked: boolean }>();

	constructor(
		private readonly rows: Map<string, Row>,
		private readonly lockRow: string,
		private readonly note: (line: string) => void,
	) {
		const get = rows.get.bind(rows);
		const set = rows.set.bind(rows);
		const remove = rows.delete.bind(rows);
		rows.get = (id: string) => {
			const call = callOf.getStore();
			const row = get(id);
			if (call && call.readAt === undefined) {
				call.readAt = trueNow();
				call.snapshot = [...hashes(row)];
			}
			return row;
		};
		rows.set = (id: string, row: Row) => {
			this.wrote(id, get(id), row);
			return set(id, row);
		};
		rows.delete = (id: string) => {
			const call = callOf.getStore();
			if (call) call.wroteAt = trueNow();
			if (id === this.lockRow && get(id)) this.holder = undefined;
			if (id === this.lockRow && get(id) && trueNow() - this.lockWrittenAt >= TAKEOVER_MS)
				this.takeovers++;
			if (id === this.lockRow) this.made = undefined;
			return remove(id);
		};
	}

	/** A release of `proc` found the lock's row grown (lock.ts `release`): only fair when someone else wrote it. */
	releaseFoundGrown(proc: string): void {
		if (this.made?.proc !== proc || this.made.othersWrote) return;
		this.miscounted.push({ proc, at: trueNow() });
		this.note(
			`${trueNow()} ${proc} found its lock's row grown, with nothing but its own writes in it`,
		);
	}

	private wrote(id: string, before: Row | undefined, after: Row): void {
		const call = callOf.getStore();
		if (!call) return;
		const now = trueNow();
		call.wroteAt = now;
		if (before === undefined) call.created = true;
		if (id === this.lockRow) this.lockWrittenAt = now;
		const { readAt } = call;
		const stale = readAt !== undefined && this.lockMade.some((m) => m.at > readAt && m.at < now);
		if (id === this.lockRow && call.kind === 'record' && before !== undefined && stale)
			this.staleCreates++;
		const proc = call.proc.name;
		// A lock made after this call was made (by any process, this one too once it let its lock
		// go): the write lands in another holder's time.
		const { startedAt } = call;
		if (this.lockMade.some((m) => m.at > startedAt && m.at <= now)) {
			const erased = minus(hashes(before), call.snapshot ?? []).length;
			this.late.push({ proc, row: id, startedAt, at: now, erased });
			this.note(
				`${now} ${proc} a write of a call made at ${startedAt} landed after the lock was taken again (${erased} values written since erased)`,
			);
		}
		if (id === this.lockRow && hashes(before).length === 0) {
			this.holder = proc;
			this.lockMade.push({ proc, at: now });
			this.made = { proc, at: now, othersWrote: false };
		} else if (id === this.lockRow && this.made) {
			// Anything but the holder's own calls made since, written while the holder still waited
			// for them (store-calls.ts STORE_CALL_MS, less a margin): another process, another node,
			// a write its holder gave up on.
			const onTime = now - startedAt < STORE_CALL_MS - 1000;
			const own = proc === this.made.proc && startedAt >= this.made.at && onTime;
			if (!own) this.made.othersWrote = true;
		}
		if (id === this.lockRow) {
			// A holder that removes its entries (a release beside other data) lets the lock go.
			if (call.kind === 'remove' && this.holder === proc) this.holder = undefined;
			return;
		}
		if (this.holder !== proc) {
			this.unlocked.push({ proc, startedAt, at: now });
			this.note(
				`${now} ${proc} wrote a row of keys without the lock (${this.holder ?? 'nobody'} held it)`,
			);
		}
		const read = call.snapshot ?? [];
		const written = hashes(after);
		if (call.kind === 'record') {
			this.removing.delete(`${proc}|${id}`);
			const dropped = minus(read, written);
			for (const hash of dropped)
				if (!this.evicted.has(`${id}|${hash}`)) this.evicted.set(`${id}|${hash}`, now);
			if (dropped.length > 0)
				this.note(`${now} ${proc} the History Size pushed out ${dropped.length} entries`);
			for (const hash of minus(written, read)) this.added.set(`${id}|${hash}`, { proc, at: now });
		} else if (call.kind === 'remove') {
			const sum = (this.removing.get(`${proc}|${id}`) ?? 0) + call.items.length;
			this.removing.set(`${proc}|${id}`, sum);
			this.largestRemove = Math.max(this.largestRemove, sum);
			const asked = new Set(call.items.map((item) => ProcessedDataStore.hash(item)));
			for (const hash of minus(read, written).filter((h) => asked.has(h)))
				this.removedOnce(id, hash, proc, now);
		}
	}

	private removedOnce(id: string, hash: string, proc: string, now: number): void {
		const key = `${id}|${hash}`;
		const last = this.removed.get(key);
		const added = this.added.get(key);
		const locked = this.holder === proc;
		if (last?.proc === proc && added && added.proc !== proc && added.at > last.at) {
			this.removedTwice.push({ proc, at: now, firstLocked: last.locked, locked });
			const how = (held: boolean) => (held ? 'under its lock' : 'without the lock');
			this.note(
				`${now} ${proc} removed again (${how(locked)}) a value ${added.proc} recorded after its first removal (${how(last.locked)})`,
			);
		}
		this.removed.set(key, { proc, at: now, locked });
	}
}
