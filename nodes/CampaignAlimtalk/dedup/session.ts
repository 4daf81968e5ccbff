/**
 * One execution's use of the Deduplication Key: which items repeat an earlier one, recording
 * each key just before its request leaves, and releasing the keys of messages that certainly
 * did not go out. Every store call runs under the workflow's deduplication lock (see lock.ts).
 */
import type { DeduplicationHelperFunctions, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { MIN_N8N_VERSION, storeError } from './errors';
import { underLock } from './lock';
import type { DedupSettings } from './options';
import { readDedupSettings, readKey, storedKey } from './options';

/** What a send's outcome means for its key. */
export type KeyFate = 'keep' | 'release';

const HELPERS: Array<keyof DeduplicationHelperFunctions> = [
	'checkProcessedAndRecord',
	'removeProcessed',
	'clearAllProcessedItems',
	'getProcessedDataCount',
];

export const NO_KEY_CODE = 'noDeduplicationKey';

/**
 * Keep the key of a message that went out or may have gone out (success, delivery unknown);
 * release it when the message certainly did not go out: the service rejected it, the account
 * failed before the request, or the request never started (`undefined`).
 */
export function keyFate(result: { code: string; deliveryUnknown: boolean } | Error | undefined): KeyFate {
	if (result === undefined || result instanceof Error) return 'release';
	return result.code === '0' || result.deliveryUnknown ? 'keep' : 'release';
}

interface Pending {
	stored: string;
	resolve: (isNew: boolean) => void;
	reject: (error: unknown) => void;
}

export class DedupSession {
	/** Item index -> its key (sendable items only). */
	private readonly keys = new Map<number, string>();

	/** Item index -> the earlier item of this execution with the same key. */
	private readonly repeats = new Map<number, number>();

	/** Items whose key this execution recorded as new. */
	private readonly claimed = new Set<number>();

	/** Items not sent because their key was seen before. */
	private readonly duplicates = new Set<number>();

	private pending: Pending[] = [];

	private releaseError: string | undefined;

	private flushQueued = false;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly settings: DedupSettings,
	) {}

	/**
	 * Reads every sendable item's key before anything is sent. Returns undefined when the option
	 * is off. `sendable(i)` tells which items will be sent; `reject(i, failure)` turns an item
	 * without a key into a Failed row.
	 */
	static open(
		ctx: IExecuteFunctions,
		options: Record<string, unknown>,
		count: number,
		sendable: (index: number) => boolean,
		reject: (index: number, failure: IDataObject & { code: string; message: string }) => void,
	): DedupSession | undefined {
		const settings = readDedupSettings(ctx, options);
		if (!settings) return undefined;
		const helpers = ctx.helpers as Partial<DeduplicationHelperFunctions>;
		if (HELPERS.some((name) => typeof helpers[name] !== 'function')) {
			throw new NodeOperationError(ctx.getNode(), `The Deduplication Key option needs n8n ${MIN_N8N_VERSION} or later`, {
				description: `This n8n gives nodes no deduplication store. Update n8n to ${MIN_N8N_VERSION} or later, or clear the Deduplication Key option (nothing was sent).`,
			});
		}
		const workflowId = ctx.getWorkflow().id;
		if (workflowId === undefined || workflowId === null || String(workflowId) === '') {
			throw new NodeOperationError(ctx.getNode(), 'The Deduplication Key option needs a saved workflow', {
				description: 'Keys are kept per workflow: save the workflow, then run it again (nothing was sent).',
			});
		}
		const session = new DedupSession(ctx, settings);
		const firstOfKey = new Map<string, number>();
		for (let i = 0; i < count; i++) {
			if (!sendable(i)) continue;
			const key = readKey(ctx, i);
			if (key === undefined) {
				reject(i, {
					code: NO_KEY_CODE,
					message: 'Deduplication Key is empty for this item: while the option is set, every item needs a key (not sent)',
				});
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
	 * Records item `i`'s key, just before its request. True: the key is new, send it. False: it
	 * was seen before (earlier in this execution or in an earlier one), do not send it.
	 */
	async claim(i: number): Promise<boolean> {
		const key = this.keys.get(i);
		if (key === undefined) return true;
		if (this.repeats.has(i)) {
			this.duplicates.add(i);
			return false;
		}
		const isNew = await new Promise<boolean>((resolve, reject) => {
			this.pending.push({ stored: storedKey(key), resolve, reject });
			if (!this.flushQueued) {
				this.flushQueued = true;
				this.flush().catch(() => undefined);
			}
		});
		(isNew ? this.claimed : this.duplicates).add(i);
		return isNew;
	}

	/** One store call for every claim this execution queued since the last one. */
	private async flush(): Promise<void> {
		let batch: Pending[] = [];
		try {
			await underLock(this.ctx, this.settings.scope, async () => {
				batch = this.pending;
				this.pending = [];
				this.flushQueued = false;
				const result = await this.ctx.helpers.checkProcessedAndRecord(
					batch.map((p) => p.stored),
					this.settings.scope,
					{ mode: 'entries', maxEntries: this.settings.historySize },
				);
				const fresh = new Set(result.new.map(String));
				for (const p of batch) p.resolve(fresh.has(p.stored));
			});
		} catch (error) {
			const failed = batch.length > 0 ? batch : this.pending.splice(0);
			this.flushQueued = false;
			const wrapped = storeError(this.ctx.getNode(), error);
			for (const p of failed) p.reject(wrapped);
		}
	}

	/**
	 * After the sends: releases the keys of claimed items whose message certainly did not go out,
	 * so a later run can send them. `fate(i)` says what each claimed item's outcome means.
	 */
	async settle(fate: (index: number) => KeyFate): Promise<void> {
		const release = [...this.claimed].filter((i) => fate(i) === 'release');
		if (release.length === 0) return;
		const stored = release.map((i) => storedKey(this.keys.get(i) as string));
		try {
			await underLock(this.ctx, this.settings.scope, async () => {
				await this.ctx.helpers.removeProcessed(stored, this.settings.scope, { mode: 'entries', maxEntries: this.settings.historySize });
			});
			release.forEach((i) => this.claimed.delete(i));
		} catch (error) {
			// The sends are done: their items must still come out. The Failed items say the key was kept.
			this.releaseError = storeError(this.ctx.getNode(), error).message;
		}
	}

	/** True when item `i` was not sent because its key was seen before. */
	isDuplicate(i: number): boolean {
		return this.duplicates.has(i);
	}

	/** The fields a Success item of a duplicate carries. */
	duplicateFields(i: number): IDataObject {
		const earlier = this.repeats.get(i);
		return {
			status: 'skipped',
			duplicate: true,
			deduplicationKey: this.keys.get(i) ?? null,
			...(earlier !== undefined ? { duplicateOfItem: earlier } : {}),
		};
	}

	/** The fields a Failed item carries about its key: kept (not sent again) or released. */
	failureFields(i: number): IDataObject {
		if (!this.keys.has(i)) return {};
		const kept = this.claimed.has(i);
		return {
			deduplicationKey: this.keys.get(i) as string,
			deduplicationKeyKept: kept,
			...(kept && this.releaseError ? { deduplicationError: this.releaseError } : {}),
		};
	}
}
