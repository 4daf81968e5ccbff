/**
 * One execution's use of the Deduplication Key and the Send Limit: repeats found up front, a claim
 * (and a place) just before each request leaves, each send's end written back (asks.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import type { Failure } from '../../shared/outcome';
import type { TransportSettings } from '../../shared/transport';
import {
	cancelSignalOf,
	isStopped,
	monotonicNow,
	pause,
	unlessStopped,
} from '../../shared/transport/pause';
import { stoppedError } from '../store/store-errors';
import type { KeyFate } from '../key/fate';
import { requireStore } from '../store/store-calls';
import type { LimitSettings } from '../limit/limit-options';
import type { StoreLimit } from '../limit/limit';
import { ExecutionPlaces, inStore, limitedFailure, roomFor } from '../limit/limit';
import type { Asked } from './asks';
import { StoreAsks } from './asks';
import { checkLayout } from './layout';
import type { Answer, KeyMarkers, Verdict } from '../key/markers';
import type { Reading } from './ledger';
import { Ledger } from './ledger';
import { keyMissingFailure, unconfirmedFields } from '../key/key-failures';
import { finished, longestSendMs } from '../key/markers';
import type { DedupSettings } from '../key/key-options';
import { keyOfRecipient, readKey } from '../key/key-options';

/** How soon an item waiting for another execution's send looks again (doubling up to WAIT_MAX_MS). */
const WAIT_POLL_MS = 500;
const WAIT_MAX_MS = 8000;

/** When an earlier claim found was made, to the minute or the hour (at null: not found in 48 hours). */
type Claimed = { at: number | null; toMinute: boolean };

export class DedupSession {
	private readonly ledger = new Ledger();

	private readonly places: ExecutionPlaces | undefined;

	/** Deduplicate per Recipient: each item's key with its resolved number, as the store records it. */
	private readonly recorded = new Map<number, string>();

	private readonly asks: StoreAsks;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly store: DedupSettings,
		private readonly transport: TransportSettings,
		/** A Deduplication Key is set: every item to be sent needs one. */
		private readonly keyed: boolean,
		private readonly limit: LimitSettings | undefined,
	) {
		const historySize = store.historySize + roomFor(limit);
		this.asks = new StoreAsks({ ctx, scope: store.scope, historySize }, longestSendMs(transport));
		if (limit?.period === 'execution') this.places = new ExecutionPlaces(ctx, limit.limit);
	}

	/** A key, or a send limit per hour or day: the session writes to n8n's store. */
	private get stored(): boolean {
		return this.keyed || inStore(this.limit);
	}

	/** Undefined when neither a key nor a send limit is set; keys are read later (`readKeys`). */
	static open(
		ctx: IExecuteFunctions,
		settings: DedupSettings | undefined,
		transport: TransportSettings,
		limit: { settings: LimitSettings | undefined; store: DedupSettings },
	): DedupSession | undefined {
		if (!settings && !limit.settings) return undefined;
		const store = settings ?? limit.store;
		const session = new DedupSession(ctx, store, transport, !!settings, limit.settings);
		if (!session.stored) return session;
		requireStore(ctx, settings ? 'The Deduplication Key option' : 'The Send Limit option');
		checkLayout(ctx, store.scope);
		return session;
	}

	/** Before anything is sent. `recipientOf`: item `i`'s number (Deduplicate per Recipient). */
	readKeys(sendable: readonly number[], recipientOf: (i: number) => string): void {
		if (!this.keyed) return;
		const firstOfKey = new Map<string, number>();
		for (const i of sendable) {
			const key = readKey(this.ctx, i);
			const perRecipient = key !== undefined && this.store.perRecipient;
			const stored = perRecipient ? keyOfRecipient(key, recipientOf(i)) : key;
			if (stored !== key) this.recorded.set(i, stored as string);
			const first = stored === undefined ? undefined : firstOfKey.get(stored);
			if (key === undefined) this.ledger.set(i, { kind: 'keyless', failure: keyMissingFailure() });
			else if (first !== undefined) this.ledger.set(i, { kind: 'repeat', key, first });
			else {
				firstOfKey.set(stored as string, i);
				this.ledger.set(i, { kind: 'unclaimed', key, mayRemain: false });
			}
		}
	}

	/**
	 * Claims item `i`'s key just before its request. True: send it. An earlier send still under way
	 * elsewhere is waited for, up to the request timeout.
	 */
	async claim(i: number): Promise<boolean> {
		const key = this.ledger.keyOf(i);
		if (this.keyed && (key === undefined || this.ledger.get(i).kind === 'repeat')) return false;
		// A send limit per execution: a place first, given back unless the message goes out.
		if (this.places && !this.places.take(i)) {
			this.setLimited(i, undefined);
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
		let claimed: Claimed | undefined;
		for (;;) {
			const asked = await this.askUnlessStopped(i, this.recorded.get(i) ?? key);
			if ('error' in asked) {
				if (asked.claimMayRemain) this.ledger.set(i, { kind: 'unclaimed', key, mayRemain: true });
				throw asked.error;
			}
			const { verdict, claimedAt } = asked.answer;
			const toMinute = asked.answer.claimedToMinute === true;
			if (claimedAt !== undefined) claimed = { at: claimedAt, toMinute };
			if (verdict !== 'inFlight') {
				this.decide(i, key, verdict, asked.answer, claimed);
				return verdict === 'send';
			}
			const left = deadline - monotonicNow();
			const stop = cancelSignalOf(this.ctx);
			if (left <= 0 || isStopped(stop)) {
				this.decide(i, key, 'inProgress', asked.answer, claimed);
				return false;
			}
			// Waits back off: each look is a lock round for every process of the workflow.
			await pause(Math.min(left, wait * (0.5 + Math.random())), [stop]);
			wait = Math.min(WAIT_MAX_MS, wait * 2);
		}
	}

	/** Asks about item `i`'s key; a stopped execution stops waiting, and a claim made then is released. */
	private async askUnlessStopped(i: number, key: string | undefined): Promise<Asked> {
		const limit = inStore(this.limit) ? this.limit : undefined;
		const asking = this.asks.ask(this.keyed ? key : undefined, limit);
		const first = await unlessStopped(asking, cancelSignalOf(this.ctx));
		if (first !== 'stopped') return first;
		void asking.then((late) => {
			if (!('answer' in late) || late.answer.verdict !== 'send') return;
			this.hold(i, late.answer);
			this.finish(i, 'release'); // the claim and the send limit's slot; left on failure, it reads unconfirmed
		});
		return { error: stoppedError(this.ctx.getNode()), claimMayRemain: false };
	}

	private decide(
		i: number,
		key: string | undefined,
		verdict: Verdict | 'inProgress',
		answer: Answer,
		claimed: Claimed | undefined,
	): void {
		if (verdict === 'send') this.hold(i, answer);
		else if (verdict === 'limited') this.setLimited(i, answer.resetsAt);
		else if (verdict === 'sent') this.ledger.set(i, { kind: 'duplicate', key });
		else if (verdict === 'unconfirmed' || verdict === 'inProgress') {
			const timeoutMs = this.transport.timeoutMs;
			const failure = unconfirmedFields(verdict, key as string, claimed, timeoutMs);
			this.ledger.set(i, { kind: 'unconfirmed', failure });
		}
	}

	/**
	 * As a tool, before any lookup or key: the failure of every item when the Send Limit per hour or
	 * day, or for a send to members the bound of refused lookups, is used up (a probe takes no place).
	 */
	async usedUp(members: boolean): Promise<Failure | undefined> {
		const limit = this.limit;
		if (!inStore(limit)) return undefined;
		const probe = { ...limit, probe: true as const };
		const answers = await this.askPlaces(members ? [probe, { ...probe, lookups: true }] : [probe]);
		const used = answers.find((answer) => answer.verdict === 'limited');
		return used && limitedFailure(limit, used.resetsAt, undefined, used === answers[1]);
	}

	/** As a tool, each refused member lookup takes a place of its own bound, never a message's. */
	async countRefused(indexes: readonly number[]): Promise<void> {
		const limit = this.limit;
		if (inStore(limit)) await this.askPlaces(indexes.map(() => ({ ...limit, lookups: true })));
	}

	private async askPlaces(limits: StoreLimit[]): Promise<Answer[]> {
		const asked = await Promise.all(limits.map(async (l) => await this.asks.ask(undefined, l)));
		for (const answer of asked) if ('error' in answer) throw answer.error;
		return asked.map((answer) => (answer as { answer: Answer }).answer);
	}

	/** Item `i` kept back by the send limit (`resetsAt`: when its period ends). */
	private setLimited(i: number, resetsAt: string | undefined): void {
		if (!this.limit) return;
		const failure = limitedFailure(this.limit, resetsAt, this.ledger.keyOf(i));
		this.ledger.set(i, { kind: 'limited', failure });
	}

	private hold(i: number, answer: { markers?: KeyMarkers; slot?: string }): void {
		const { markers, slot } = answer;
		this.ledger.set(i, { kind: 'claimed', key: this.ledger.keyOf(i), markers, slot });
	}

	/** Records how claimed item `i`'s send ended, queued at once. Only a release frees its place. */
	finish(i: number, fate: KeyFate): void {
		if (fate === 'release') this.places?.giveBack(i);
		const entry = this.ledger.get(i);
		if (entry.kind !== 'claimed') return;
		const { markers, slot } = entry;
		if (!markers && slot === undefined) return;
		this.ledger.set(i, { ...entry, fate });
		const place = slot !== undefined && fate === 'release' ? [slot] : [];
		this.asks.remove([...(markers ? finished(markers, fate) : []), ...place]);
	}

	/** After the sends: waits until what this execution queued is written. */
	async settle(): Promise<void> {
		this.ledger.settleError = await this.asks.settled();
	}

	read(i: number): Reading {
		return this.ledger.read(i);
	}
}
