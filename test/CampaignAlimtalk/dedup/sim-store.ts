/**
 * The store of the deduplication simulation (sim-world.ts): the faithful stand-in of n8n
 * 2.41.1's store (test/support/dedup-store.ts), with each schedule's latency, and the faults of
 * its calls. A call can fail before it reaches the database, fail after it landed, hang, be slowed
 * between its read and its whole-row write (`slow`: past a holder's wait for it and the takeover
 * in some schedules), or answer late. During an outage every call fails, half of them after they
 * landed; it begins as a round's remove call lands. A stalled process starts no call, writes
 * nothing and hears no answer until its stall is over; its stall begins between the read and
 * the write of a call on a row of keys (it holds the lock then) or of its heartbeat on the lock's
 * row, so that write lands after the stall.
 */
import type { DeduplicationScope, ICheckProcessedContextData } from 'n8n-workflow';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay, env } from '../../support/node';
import { trueNow, unstalled } from './sim-clock';
import type { CallInfo } from './sim-watch';
import { callOf, StoreWatch } from './sim-watch';
import type { FaultRates } from './sim-draws';
import type { Process } from './sim-world';

/**
 * What happened to one store call: `slow` writes its whole row late (after reading it on time),
 * `lateAnswer` ran on time but its answer comes late (its caller acts on an old count).
 */
export type StoreFault = 'ok' | 'failBefore' | 'failAfter' | 'hang' | 'slow' | 'lateAnswer';

const never = <T>() => new Promise<T>(() => undefined);

/** Whether a call's values hold a heartbeat of a holder (holder.ts `entry`). */
const isBeat = (items: readonly string[]) => items.some((item) => /:beat:\d+$/.test(item));

const lostConnection = () => new Error('Connection terminated unexpectedly');

/**
 * One call's times as scripts/sim-trace-stats.js reads them (the same fields as a real queue
 * mode trace): when it was made, when it read and last wrote its row, when its answer came.
 */
function timingOf(
	info: CallInfo,
	row: 'keys' | 'lock',
	outcome: { held: boolean; ok: boolean; result?: number },
): string {
	const beat = isBeat(info.items);
	return JSON.stringify({
		proc: info.proc.name,
		op: info.kind,
		row,
		n: info.items.length,
		start: info.startedAt,
		read: info.readAt,
		write: info.wroteAt,
		end: trueNow(),
		ok: outcome.ok,
		result: outcome.result,
		...(beat ? { beat } : {}),
		...(outcome.held ? { held: true } : {}),
		...(info.created ? { created: true } : {}),
	});
}

/** The part of a store call's context the store reads. */
export type StoreContext = ICheckProcessedContextData;

export class SimStore {
	readonly store = new ProcessedDataStore();

	readonly watch: StoreWatch;

	/** How many store calls met each fault. */
	readonly faults = new Map<StoreFault, number>();

	/** Releases that found the lock's row rewritten: remove calls of its lock entries, beats included (lock.ts `release`). */
	releasesRewritten = 0;

	/**
	 * Every store call and its answer, by true time, when SIM_TRACE names a file to write it to
	 * (sim-suite.ts): what a failing seed did, call by call.
	 */
	readonly trace: string[] | undefined = env.SIM_TRACE ? [] : undefined;

	/** `<process>|<row>|<claim value>` of every claim a record call of that process found standing. */
	readonly claimsFound = new Set<string>();

	/** Per process, row and claim value: when its last record call that found it new wrote it. */
	readonly claimsWritten = new Map<string, number>();

	/** Per process, row and claim value: the period start of the slots its last record call of that claim asked about. */
	readonly claimPeriods = new Map<string, number>();

	/** Called once, at the next record call on a row of keys (another node's write during a round). */
	onKeysRecord: (() => void) | undefined;

	/** Set to false to heal every fault (the probe after a schedule). */
	faulty = false;

	/** When the store fails every call (true time). */
	outage: { from: number; to: number } | undefined;

	/** Process name -> when its stall may begin (true time), at a write of which row, and how long it lasts. */
	readonly stalls = new Map<string, { from: number; row: 'keys' | 'lock'; ms: number }>();

	/** An outage that begins at a round's first remove call on a row of keys from `from` (true time): that call lands, then fails. */
	outageArmed: { from: number; ms: number } | undefined;

	constructor(
		workflowId: string,
		private readonly rates: FaultRates,
		private readonly chance: () => number,
	) {
		this.store.latency = { ...rates.latency };
		const note = (line: string) => this.trace?.push(line);
		this.watch = new StoreWatch(this.store.rows, `${workflowId}\u0000`, note);
		this.store.beforeWrite = async (id) => await this.beforeWrite(id);
	}

	private between(min: number, max: number): number {
		return min + Math.floor(this.chance() * (max - min + 1));
	}

	private async beforeWrite(id: string): Promise<void> {
		const call = callOf.getStore();
		if (!call) return;
		if (call.slowMs !== undefined) await delay(call.slowMs);
		const stall = this.stalls.get(call.proc.name);
		const lockRow = id.endsWith('\u0000');
		const held = this.watch.holder === call.proc.name;
		const beat = isBeat(call.items);
		if (
			stall &&
			trueNow() >= stall.from &&
			(stall.row === 'lock' ? lockRow && held && beat : !lockRow)
		) {
			this.stalls.delete(call.proc.name);
			call.proc.stallUntil = trueNow() + stall.ms;
			this.trace?.push(
				`${trueNow()} ${call.proc.name} stalls for ${stall.ms} ms, between the read and the write of ${lockRow ? 'the lock' : 'a row of keys'}`,
			);
		}
		await unstalled(call.proc);
	}

	private draw(
		proc: string,
		kind: CallInfo['kind'],
		row: 'keys' | 'lock',
		items: string[],
	): StoreFault {
		const now = trueNow();
		if (!this.faulty) return 'ok';
		const armed = this.outageArmed;
		// A round's remove call that takes a key back whole (its claim and its `sent`: a release, or
		// an ask that does not send) or a place (not a confirmation only, nor a lookup's probes).
		const ofRound = items.some(
			(v) => v.startsWith('limit:') || (/^claim:[^:]+$/.test(v) && items.includes(v.slice(6))),
		);
		if (armed && now >= armed.from && kind === 'remove' && row === 'keys' && ofRound) {
			// The connection drops just as a round's remove call lands, and stays down a while.
			this.outageArmed = undefined;
			this.outage = { from: now, to: now + armed.ms };
			this.trace?.push(
				`${now} the store is down for ${armed.ms} ms, from a remove call that lands`,
			);
			return 'failAfter';
		}
		if (this.outage && now >= this.outage.from && now < this.outage.to)
			return this.chance() < 0.5 ? 'failAfter' : 'failBefore';
		const { lateCounts, slowBeats } = this.rates;
		const held = this.watch.holder === proc;
		if (
			lateCounts &&
			kind === 'count' &&
			row === 'lock' &&
			held &&
			this.chance() < lateCounts.chance
		)
			return 'lateAnswer';
		if (slowBeats && kind === 'record' && row === 'lock' && isBeat(items)) return 'slow';
		if (this.chance() >= this.rates.store) return 'ok';
		return this.rates.storeKinds[Math.floor(this.chance() * this.rates.storeKinds.length)];
	}

	/**
	 * One store call of `proc` (`kind` and `items` for the watch and the trace); `landed`: told what
	 * a call that wrote and then failed found (its answer lost).
	 */
	async call<T>(
		proc: Process,
		kind: CallInfo['kind'],
		row: 'keys' | 'lock',
		items: string[],
		what: string,
		work: () => Promise<T>,
		landed?: (value: T) => void,
	): Promise<T> {
		if (proc.dead) return await never<T>();
		const startedAt = trueNow();
		await unstalled(proc);
		const during = kind === 'record' && row === 'keys' ? this.onKeysRecord : undefined;
		this.onKeysRecord = during ? undefined : this.onKeysRecord;
		during?.();
		const fault = this.draw(proc.name, kind, row, items);
		this.faults.set(fault, (this.faults.get(fault) ?? 0) + 1);
		// More than one value: not the keeper alone (holder.ts `keeper`), taken back from a foreign row.
		if (kind === 'remove' && row === 'lock' && isBeat(items) && items.length > 1) {
			this.releasesRewritten++;
			this.watch.releaseFoundGrown(proc.name);
		}
		const info: CallInfo = { proc, kind, items, startedAt };
		const run = async () => await callOf.run(info, work);
		if (!this.trace) return await this.faulted(info, fault, run, landed);
		const n = this.trace.length;
		const held = this.watch.holder === proc.name;
		const note = (end: unknown, ok: boolean) => {
			this.trace?.push(`${trueNow()} ${proc.name} #${n} -> ${JSON.stringify(end)}`);
			const timing = timingOf(info, row, {
				held,
				ok,
				result: typeof end === 'number' ? end : undefined,
			});
			this.trace?.push(`${trueNow()} ${proc.name} #${n} timing ${timing}`);
		};
		this.trace.push(`${trueNow()} ${proc.name} #${n} ${fault} ${what}`);
		const outcome = this.faulted(info, fault, run, landed);
		outcome.then(
			(value) => note(value, true),
			(error: unknown) => note(String(error), false),
		);
		return await outcome;
	}

	private async faulted<T>(
		info: CallInfo,
		fault: StoreFault,
		work: () => Promise<T>,
		landed?: (value: T) => void,
	): Promise<T> {
		let value: T;
		if (fault === 'failBefore') {
			await delay(1);
			throw lostConnection();
		} else if (fault === 'hang') {
			return await never<T>();
		} else if (fault === 'slow') {
			// Read now, write the whole row later: stalling the caller, or past its bound on one call.
			const slow = isBeat(info.items) ? this.rates.slowBeats : undefined;
			const { min, max } = slow ?? this.rates.slowMs;
			info.slowMs = this.between(min, max);
			value = await work();
		} else {
			value = await work();
		}
		if (fault === 'lateAnswer') {
			const late = info.kind === 'count' ? this.rates.lateCounts : undefined;
			await delay(late ? this.between(late.min, late.max) : this.between(200, 9000));
		}
		if (fault === 'failAfter') {
			landed?.(value);
			await delay(1);
			throw lostConnection();
		}
		if (info.proc.dead) return await never<T>();
		await unstalled(info.proc);
		return value;
	}

	/** Notes the period of the slots a record call on a row of keys asks about, per claim it makes. */
	notePeriods(proc: Process, row: string, items: readonly string[]): void {
		const slot = items.find((item) => item.startsWith('limit:'));
		if (slot === undefined) return;
		const start = Number(slot.split(':')[2]);
		for (const item of items)
			if (/^claim:[^:]+$/.test(item)) this.claimPeriods.set(`${proc.name}|${row}|${item}`, start);
	}

	/** Notes when a record call on a row of keys wrote the claims it found new (called within the call). */
	noteWritten(proc: Process, row: string, fresh: readonly unknown[]): void {
		const at = callOf.getStore()?.wroteAt;
		for (const item of fresh)
			if (typeof item === 'string' && /^claim:[^:]+$/.test(item) && at !== undefined)
				this.claimsWritten.set(`${proc.name}|${row}|${item}`, at);
	}

	/** Notes the claims a record call on a row of keys found standing (not new). */
	noteFound(proc: Process, row: string, processed: readonly unknown[]): void {
		for (const item of processed)
			if (typeof item === 'string' && /^claim:[^:]+$/.test(item))
				this.claimsFound.add(`${proc.name}|${row}|${item}`);
	}

	/** Another node's write of its own data into the workflow's shared row (n8n's Remove Duplicates, scope Workflow): a healthy call. When it landed. */
	async foreignWrite(proc: Process, data: StoreContext, values: string[]): Promise<number> {
		const scope: DeduplicationScope = 'workflow';
		this.trace?.push(
			`${trueNow()} ${proc.name} records ${JSON.stringify(values)} into the workflow's shared row`,
		);
		const info: CallInfo = { proc, kind: 'record', items: values, startedAt: trueNow() };
		await callOf.run(info, async () => {
			await this.store.checkProcessedAndRecord(values, scope, data, { mode: 'entries' });
		});
		return info.wroteAt ?? trueNow();
	}
}
