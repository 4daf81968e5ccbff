/**
 * One execution's store work, handed to the queue with round.ts's round function: asks (never
 * rejected) and removals, queued at once (a send's end waits for no pause and no next ask).
 */
import type { Answer } from '../key/markers';
import type { StoreLimit } from '../limit/limit';
import type { Row } from '../store/queue';
import { submit } from '../store/queue';
import { roundError } from '../store/store-errors';
import type { StoreItem } from './round';
import { mayRemain, storeRound } from './round';

/** An ask's outcome: the answer, or the round's error and whether its claim may be in the store. */
export type Asked = { answer: Answer } | { error: unknown; claimMayRemain: boolean };

export class StoreAsks {
	/** The rounds that carry this execution's removals. */
	private readonly writing: Array<Promise<void>> = [];

	/** The error of a round that may not have written this execution's removals. */
	private lost: unknown;

	constructor(
		private readonly row: Row,
		private readonly longestMs: number,
	) {}

	/** Asks the next round about `key` (claimed when free) and for a place of `limit`. */
	async ask(key: string | undefined, limit: StoreLimit | undefined): Promise<Asked> {
		const item: StoreItem = { ask: { key, longestMs: this.longestMs, limit } };
		try {
			return { answer: (await submit(this.row, item, storeRound)) as Answer };
		} catch (error) {
			const wrapped = roundError(this.row.ctx.getNode(), error);
			return { error: wrapped, claimMayRemain: mayRemain(item) };
		}
	}

	/** Takes `values` back in the next round; a round that may not have written them is noted. */
	remove(values: readonly string[]): void {
		if (values.length === 0) return;
		const item: StoreItem = { removals: [...values] };
		const sent = submit(this.row, item, storeRound).then(
			() => undefined,
			(error: unknown) => {
				if (!item.recorded?.written) this.lost ??= error;
			},
		);
		this.writing.push(sent);
	}

	/** Waits for every removal's round: the error of one that may not have written them. */
	async settled(): Promise<string | undefined> {
		await Promise.all(this.writing);
		return this.lost === undefined
			? undefined
			: roundError(this.row.ctx.getNode(), this.lost).message;
	}
}
