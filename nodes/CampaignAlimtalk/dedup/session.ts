/**
 * One execution's use of the Deduplication Key and the send limit: which items repeat an earlier
 * one, a claim (and a place of the limit, limit.ts) just before each request leaves, and what
 * each send's answer means for its key (markers.ts) and its place. Every store call runs under
 * the workflow's deduplication lock (rounds.ts); one round writes every claim, confirmation and
 * release queued since the last one.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { TransportSettings } from '../../shared/transport';
import { cancelSignalOf, isStopped, monotonicNow, pause } from '../../shared/transport/pause';
import { stoppedError, storeError } from './errors';
import type { KeyFate } from './fate';
import { requireStore } from './fate';
import type { LimitSettings } from './limit';
import { ExecutionPlaces, inStore, limitedFailure, roomFor } from './limit';
import type { Asked, Owner } from './batch';
import type { Row } from './rounds';
import { ask, flush, queue } from './batch';
import { checkLayout } from './layout';
import type { KeyMarkers, Verdict } from './markers';
import { keyMissingFailure, unconfirmedFields } from './fields';
import { finished, longestSendMs } from './markers';
import type { DedupSettings } from './options';
export type { KeyFate } from './fate';
export { keyFate } from './fate';
import { readKey } from './options';
import type { Failure } from '../../shared/outcome';

export { IN_PROGRESS_CODE, NO_KEY_CODE, UNCONFIRMED_CODE } from './fields';
/** How soon an item waiting for another execution's send looks again (doubling up to WAIT_MAX_MS). */
const WAIT_POLL_MS = 500;
const WAIT_MAX_MS = 8000;

export class DedupSession {
	/** Item index -> its key (sendable items only). */
	private readonly keys = new Map<number, string>();

	/** Items to be sent that have no key: not sent. */
	private readonly keyless = new Set<number>();

	/** Item index -> the earlier item of this execution with the same key. */
	private readonly repeats = new Map<number, number>();

	/** Items this execution claimed, with the markers of their claim. */
	private readonly claims = new Map<number, KeyMarkers>();

	private readonly verdicts = new Map<number, Verdict | 'inProgress'>();

	/** Item index -> the send limit's slot its send holds (limit.ts). */
	private readonly slots = new Map<number, string>();

	/** For an item the send limit kept back: when the period ends. */
	private readonly resetsAt = new Map<number, string | undefined>();

	/** The places of a send limit per execution (limit.ts). */
	private readonly places: ExecutionPlaces | undefined;

	/** For an earlier claim found: when it was made, to the minute or the hour (at null: not found in 48 hours). */
	private readonly claimedAt = new Map<number, { at: number | null; toMinute: boolean }>();

	private readonly fates = new Map<number, KeyFate>();

	/** Items whose claim round failed after it may have recorded their claim. */
	private readonly mayRemain = new Set<number>();

	/** This execution's writes, as the rounds know them: `lost` once a round dropped them (batch.ts). */
	private readonly owner: Owner = {};

	/** Answers queued for the next round and not yet known to be written. */
	private queued = false;

	private settleError: string | undefined;

	private readonly longestMs: number;

	/** The row of keys, as the store rounds of this process know it (batch.ts). */
	private readonly row: Row;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		store: DedupSettings,
		private readonly transport: TransportSettings,
		/** A Deduplication Key is set: every item to be sent needs one. */
		private readonly keyed: boolean,
		private readonly limit: LimitSettings | undefined,
	) {
		this.longestMs = longestSendMs(transport);
		// Room beyond the History Size, so that the current period's slots are never forgotten.
		const historySize = store.historySize + roomFor(limit);
		this.row = { ctx, scope: store.scope, historySize };
		if (limit?.period === 'execution') this.places = new ExecutionPlaces(ctx, limit.limit);
	}

	/** Whether the session writes to n8n's store: a key, or a send limit per hour or day. */
	private get stored(): boolean {
		return this.keyed || inStore(this.limit);
	}

	/**
	 * Reads the key of every item to be sent (`sendable`) before anything is sent. Returns
	 * undefined when neither a key (`settings`) nor a send limit (`limit`) is set; `store` is
	 * where a limit without a key is kept. An item without a key, when keys are on, is not sent.
	 */
	static open(
		ctx: IExecuteFunctions,
		settings: DedupSettings | undefined,
		transport: TransportSettings,
		sendable: readonly number[],
		limit?: { settings: LimitSettings | undefined; store: DedupSettings },
	): DedupSession | undefined {
		if (!settings && !limit?.settings) return undefined;
		const store = settings ?? (limit as { store: DedupSettings }).store;
		const session = new DedupSession(ctx, store, transport, !!settings, limit?.settings);
		if (!session.stored) return session;
		requireStore(ctx, settings ? 'The Deduplication Key option' : 'The Send Limit option');
		// Nodes that would share this node's records, refused before anything is sent (layout.ts).
		checkLayout(ctx, store.scope);
		if (!settings) return session;
		const firstOfKey = new Map<string, number>();
		for (const i of sendable) {
			const key = readKey(ctx, i);
			if (key === undefined) {
				session.keyless.add(i);
				continue;
			}
			session.keys.set(i, key);
			const first = firstOfKey.get(key);
			if (first === undefined) firstOfKey.set(key, i);
			else session.repeats.set(i, first);
		}
		return session;
	}

	/**
	 * Claims item `i`'s key just before its request. True: send it. False: do not (no key, a repeat
	 * of an earlier item, sent before, or an earlier send of it is unconfirmed or still under way). An
	 * earlier send still under way in another execution is waited for, up to the request timeout.
	 */
	async claim(i: number): Promise<boolean> {
		const key = this.keys.get(i);
		if (this.keyed && (key === undefined || this.repeats.has(i))) return false;
		// A send limit per execution: a place first, given back unless the message goes out.
		if (this.places && !this.places.take(i)) {
			this.verdicts.set(i, 'limited');
			return false;
		}
		let send = false;
		try {
			send = !this.stored || (await this.claimInStore(i, key));
		} finally {
			if (!send) this.places?.giveBack(i);
		}
		return send;
	}

	private async claimInStore(i: number, key: string | undefined): Promise<boolean> {
		const deadline = monotonicNow() + this.transport.timeoutMs;
		let wait = WAIT_POLL_MS;
		for (;;) {
			const asked = await this.askUnlessStopped(i, key);
			if ('error' in asked) {
				if (asked.claimMayRemain) this.mayRemain.add(i);
				throw asked.error;
			}
			const { verdict, claimedAt } = asked.answer;
			if (verdict === 'send') this.hold(i, asked.answer);
			if (verdict === 'limited') this.resetsAt.set(i, asked.answer.resetsAt);
			const toMinute = asked.answer.claimedToMinute === true;
			if (claimedAt !== undefined) this.claimedAt.set(i, { at: claimedAt, toMinute });
			if (verdict !== 'inFlight') {
				this.verdicts.set(i, verdict);
				return verdict === 'send';
			}
			const left = deadline - monotonicNow();
			const stop = cancelSignalOf(this.ctx);
			if (left <= 0 || isStopped(stop)) {
				this.verdicts.set(i, 'inProgress');
				return false;
			}
			// Waits back off: each look is a lock round for every process of the workflow.
			await pause(Math.min(left, wait * (0.5 + Math.random())), stop);
			wait = Math.min(WAIT_MAX_MS, wait * 2);
		}
	}

	/**
	 * Asks about item `i`'s key, or stops waiting when the execution is stopped: the ask stays in
	 * its round (it serves other executions too), and a claim it makes then is released, since
	 * nothing will be sent.
	 */
	private async askUnlessStopped(i: number, key: string | undefined): Promise<Asked> {
		const stop = cancelSignalOf(this.ctx);
		const limit = inStore(this.limit) ? this.limit : undefined;
		const asking = ask(this.row, this.keyed ? key : undefined, this.longestMs, limit);
		if (!stop) return await asking;
		let onStop: () => void = () => undefined;
		const stopped = new Promise<'stopped'>((resolve) => (onStop = () => resolve('stopped')));
		if (stop.aborted) onStop();
		else stop.addEventListener('abort', onStop, { once: true });
		try {
			const first = await Promise.race([asking, stopped]);
			if (first !== 'stopped') return first;
		} finally {
			stop.removeEventListener('abort', onStop);
		}
		void asking.then((late) => {
			if (!('answer' in late) || late.answer.verdict !== 'send') return;
			this.hold(i, late.answer);
			this.finish(i, 'release'); // the claim and the send limit's slot

			flush(this.row).catch(() => undefined); // a claim left on failure reads as unconfirmed
		});
		return { error: stoppedError(this.ctx.getNode()), claimMayRemain: false };
	}

	/** What a `send` answer gave item `i`: its claim and its slot of the send limit. */
	private hold(i: number, answer: { markers?: KeyMarkers; slot?: string }): void {
		if (answer.markers) this.claims.set(i, answer.markers);
		if (answer.slot !== undefined) this.slots.set(i, answer.slot);
	}

	/**
	 * Records what the send of claimed item `i` ended with; written in the next round. A message
	 * certainly not sent gives its place of the send limit back; one sent or maybe sent keeps it.
	 */
	finish(i: number, fate: KeyFate): void {
		if (fate === 'release') this.places?.giveBack(i);
		const markers = this.claims.get(i);
		const slot = this.slots.get(i);
		if (!markers && slot === undefined) return;
		this.fates.set(i, fate);
		const { facts, removals } = markers ? finished(markers, fate) : { facts: [], removals: [] };
		if (slot !== undefined && fate === 'release') removals.push(slot);
		if (facts.length + removals.length === 0) return;
		queue(this.row, this.owner, facts, removals);
		this.queued = true;
	}

	/** After the sends: waits until what this execution queued is written (one round). */
	async settle(): Promise<void> {
		if (!this.queued) return;
		try {
			await flush(this.row);
		} catch (error) {
			// The sends are done: their items must still come out; they say what was not recorded.
			this.settleError = storeError(this.ctx.getNode(), error).message;
		}
		if (this.owner.lost !== undefined && this.settleError === undefined)
			this.settleError = storeError(this.ctx.getNode(), this.owner.lost).message;
	}

	/** The Failed fields of item `i` when the send limit kept it back, or undefined. */
	limitedFields(i: number): Failure | undefined {
		if (this.verdicts.get(i) !== 'limited' || !this.limit) return undefined;
		return limitedFailure(this.limit, this.resetsAt.get(i), this.keys.get(i));
	}

	/** The Failed fields of item `i` when it was to be sent and has no key, or undefined. */
	keyMissing(i: number): Failure | undefined {
		if (!this.keyless.has(i)) return undefined;
		return keyMissingFailure();
	}

	/** Item `i`'s Deduplication Key, if it has one. */
	keyOf(i: number): string | undefined {
		return this.keys.get(i);
	}

	/** The earlier item of this execution with the same key, if any. */
	repeatOf(i: number): number | undefined {
		return this.repeats.get(i);
	}

	/** Success fields of an item not sent because its message was sent before, or undefined. */
	duplicateFields(i: number): IDataObject | undefined {
		if (this.verdicts.get(i) !== 'sent') return undefined;
		return { status: 'skipped', duplicate: true, deduplicationKey: this.keys.get(i) ?? null };
	}

	/** Failed fields of an item not sent because an earlier send of it is unconfirmed, or undefined. */
	unconfirmedFields(i: number): Failure | undefined {
		const verdict = this.verdicts.get(i);
		if (verdict !== 'unconfirmed' && verdict !== 'inProgress') return undefined;
		const key = this.keys.get(i) as string;
		return unconfirmedFields(verdict, key, this.claimedAt.get(i), this.transport.timeoutMs);
	}

	/** The fields a Failed item of a sent-and-failed or unsent item carries about its key. */
	failureFields(i: number): IDataObject {
		if (!this.keys.has(i)) return {};
		const fate = this.fates.get(i);
		// A release that could not be written leaves the claim, and so may a claim round that failed
		// after its record call: a later run reports it as unconfirmed.
		const kept =
			fate === 'keep' ||
			this.mayRemain.has(i) ||
			(this.settleError !== undefined && fate === 'release');
		const error = this.settleError && this.claims.has(i) ? this.settleError : undefined;
		return {
			deduplicationKey: this.keys.get(i) as string,
			deduplicationKeyKept: kept,
			...(error ? { deduplicationError: error } : {}),
		};
	}
}
