/**
 * One execution's use of the Deduplication Key: which items repeat an earlier one, a claim just
 * before each request leaves, and what each send's answer means for its key (markers.ts). Every
 * store call runs under the workflow's deduplication lock (rounds.ts); one round writes every
 * claim, confirmation and release queued since the last one.
 */
import type { DeduplicationHelperFunctions, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { TransportSettings } from '../../shared/transport';
import { cancelSignalOf, isStopped, monotonicNow, pause } from '../../shared/transport/pause';
import { MIN_N8N_VERSION, storeError } from './errors';
import { STOPPED_CODE, STOPPED_INFO } from '../../shared/codes';
import type { Asked, Owner } from './batch';
import type { Row } from './rounds';
import { ask, flush, queue } from './batch';
import { checkLayout } from './layout';
import type { KeyMarkers, Verdict } from './markers';
import { unconfirmedFields } from './fields';
import { finished, longestSendMs } from './markers';
import type { DedupSettings } from './options';
import { readKey } from './options';
import type { Failure } from '../../shared/outcome';

/** What a send's outcome means for its key: sent, maybe sent (kept unconfirmed), certainly not sent. */
export type KeyFate = 'confirm' | 'keep' | 'release';

const HELPERS: Array<keyof DeduplicationHelperFunctions> = [
	'checkProcessedAndRecord',
	'removeProcessed',
	'clearAllProcessedItems',
	'getProcessedDataCount',
];

export const NO_KEY_CODE = 'noDeduplicationKey';
export { IN_PROGRESS_CODE, UNCONFIRMED_CODE } from './fields';
/** How often an item waiting for another execution's send looks again. */
const WAIT_POLL_MS = 500;

/**
 * Success confirms; an unknown delivery keeps the claim; an answer of the service that refused
 * the send, or a failure that proves the request never left, releases it. A thrown error that
 * names no service code (a stopped execution aborting the request, an unexpected failure) may
 * have come after the request reached the service: the claim is kept.
 */
export function keyFate(
	result: { code: string; deliveryUnknown: boolean } | Error | undefined,
): KeyFate {
	if (result === undefined) return 'release';
	if (result instanceof Error) {
		const context = (result as { context?: { campaignCode?: unknown } }).context;
		return typeof context?.campaignCode === 'string' ? 'release' : 'keep';
	}
	if (result.code === '0') return 'confirm';
	return result.deliveryUnknown ? 'keep' : 'release';
}

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

	/** For an unconfirmed earlier send: the start of the hour it was claimed in (null: not found in 48 hours). */
	private readonly claimedAt = new Map<number, number | null>();

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
		settings: DedupSettings,
		private readonly transport: TransportSettings,
	) {
		this.longestMs = longestSendMs(transport);
		this.row = { ctx, scope: settings.scope, historySize: settings.historySize };
	}

	/**
	 * Reads the key of every item to be sent (`sendable`) before anything is sent. Returns
	 * undefined when the option is off (`settings` undefined). An item without a key is not sent
	 * (`lacksKey`).
	 */
	static open(
		ctx: IExecuteFunctions,
		settings: DedupSettings | undefined,
		transport: TransportSettings,
		sendable: readonly number[],
	): DedupSession | undefined {
		if (!settings) return undefined;
		const helpers = ctx.helpers as Partial<DeduplicationHelperFunctions>;
		if (HELPERS.some((name) => typeof helpers[name] !== 'function')) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The Deduplication Key option needs n8n ${MIN_N8N_VERSION} or later`,
				{
					description: `This n8n gives nodes no deduplication store. Update n8n to ${MIN_N8N_VERSION} or later, or clear the Deduplication Key option (nothing was sent).`,
				},
			);
		}
		const workflowId = ctx.getWorkflow().id;
		if (workflowId === undefined || workflowId === null || String(workflowId) === '') {
			throw new NodeOperationError(
				ctx.getNode(),
				'The Deduplication Key option needs a saved workflow',
				{
					description:
						'Keys are kept per workflow: save the workflow, then run it again (nothing was sent).',
				},
			);
		}
		// Nodes that would share this node's records, refused before anything is sent (layout.ts).
		checkLayout(ctx, settings.scope);
		const session = new DedupSession(ctx, settings, transport);
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
		if (key === undefined || this.repeats.has(i)) return false;
		const deadline = monotonicNow() + this.transport.timeoutMs;
		for (;;) {
			const asked = await this.askUnlessStopped(i, key);
			if ('error' in asked) {
				if (asked.claimMayRemain) this.mayRemain.add(i);
				throw asked.error;
			}
			const { verdict, markers, claimedAt } = asked.answer;
			if (verdict === 'send') this.claims.set(i, markers);
			if (claimedAt !== undefined) this.claimedAt.set(i, claimedAt);
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
			await pause(Math.min(left, WAIT_POLL_MS * (0.5 + Math.random())), stop);
		}
	}

	/**
	 * Asks about item `i`'s key, or stops waiting when the execution is stopped: the ask stays in
	 * its round (it serves other executions too), and a claim it makes then is released, since
	 * nothing will be sent.
	 */
	private async askUnlessStopped(i: number, key: string): Promise<Asked> {
		const stop = cancelSignalOf(this.ctx);
		const asking = ask(this.row, key, this.longestMs);
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
			this.claims.set(i, late.answer.markers);
			this.finish(i, 'release');
			flush(this.row).catch(() => undefined); // a claim left on failure reads as unconfirmed
		});
		const error = new NodeOperationError(this.ctx.getNode(), STOPPED_INFO.message, {
			description: STOPPED_INFO.hint,
		});
		error.context.campaignCode = STOPPED_CODE;
		return { error, claimMayRemain: false };
	}

	/** Records what the send of claimed item `i` ended with; written in the next round. */
	finish(i: number, fate: KeyFate): void {
		const markers = this.claims.get(i);
		if (!markers) return;
		this.fates.set(i, fate);
		const { facts, removals } = finished(markers, fate);
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

	/** The Failed fields of item `i` when it was to be sent and has no key, or undefined. */
	keyMissing(i: number): Failure | undefined {
		if (!this.keyless.has(i)) return undefined;
		return {
			code: NO_KEY_CODE,
			message:
				'Deduplication Key is empty for this item: while the option is set, every item needs a key (not sent)',
		};
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
