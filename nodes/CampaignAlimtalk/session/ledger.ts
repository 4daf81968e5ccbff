/** Per item to be sent, what the key and the limit made of it (written by session.ts, read by helpers/report.ts). */
import type { IDataObject } from 'n8n-workflow';
import type { Failure } from '../../shared/outcome';
import type { KeyFate } from '../key/fate';
import type { KeyMarkers } from '../key/markers';

/** An item's state. `key`: its Deduplication Key, when the key is set and the item has one. */
export type Entry =
	/** The key is set and this item has none: not sent. */
	| { kind: 'keyless'; failure: Failure }
	/** The same key as the earlier item `first` of this execution: it reports that item's fate. */
	| { kind: 'repeat'; key: string; first: number }
	/** Sent before (a duplicate): skipped, not sent again. */
	| { kind: 'duplicate'; key: string | undefined }
	/** An earlier send of its message is unconfirmed or still under way: not sent. */
	| { kind: 'unconfirmed'; failure: Failure }
	/** The send limit kept it back: not sent. */
	| { kind: 'limited'; failure: Failure }
	/** Not claimed: not reached yet, or its claim round failed (`mayRemain`: after it may have recorded the claim). */
	| { kind: 'unclaimed'; key?: string; mayRemain: boolean }
	/** Claimed (its claim's markers, its place of the send limit) and, once its send ended, its fate. */
	| { kind: 'claimed'; key?: string; markers?: KeyMarkers; slot?: string; fate?: KeyFate };

/** What the report reads of an item: its entry, the item's own send carrying its key's fields. */
export type Reading =
	| Exclude<Entry, { kind: 'unclaimed' } | { kind: 'claimed' }>
	| { kind: 'own'; keyFields: IDataObject };

const UNCLAIMED: Entry = { kind: 'unclaimed', mayRemain: false };

export class Ledger {
	private readonly entries = new Map<number, Entry>();

	/** Set once the sends are done, when what they queued could not be written. */
	settleError: string | undefined;

	get(i: number): Entry {
		return this.entries.get(i) ?? UNCLAIMED;
	}

	set(i: number, entry: Entry): void {
		this.entries.set(i, entry);
	}

	keyOf(i: number): string | undefined {
		const entry = this.get(i);
		return 'key' in entry ? entry.key : undefined;
	}

	read(i: number): Reading {
		const entry = this.get(i);
		if (entry.kind !== 'unclaimed' && entry.kind !== 'claimed') return entry;
		return { kind: 'own', keyFields: this.keyFields(entry) };
	}

	/** The fields a Failed item of a sent-and-failed or unsent item carries about its key. */
	private keyFields(entry: Entry & { kind: 'unclaimed' | 'claimed' }): IDataObject {
		if (entry.key === undefined) return {};
		const fate = entry.kind === 'claimed' ? entry.fate : undefined;
		// An unwritten release, or a failed claim round, may leave the claim: a later run reads it unconfirmed.
		const kept =
			fate === 'keep' ||
			(entry.kind === 'unclaimed' && entry.mayRemain) ||
			(this.settleError !== undefined && fate === 'release');
		const claimed = entry.kind === 'claimed' && entry.markers !== undefined;
		const error = this.settleError && claimed ? this.settleError : undefined;
		return {
			deduplicationKey: entry.key,
			deduplicationKeyKept: kept,
			...(error ? { deduplicationError: error } : {}),
		};
	}
}
