/**
 * One execution's store work, handed to the queue with round.ts's round function: asks (never
 * rejected) and removals, which ride with the execution's next ask or its last round.
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
	private removals: string[] = [];

	/** The rounds that carry this execution's removals. */
	private readonly writing: Array<Promise<void>> = [];

	/** The error of a round that may not have written this execution's removals. */
	private lost: unknown;

	constructor(
		private readonly row: Row,
		/** The execution's longest send (key/markers.ts `longestSendMs`). */
		private readonly longestMs: number,
	) {}

	/** Asks the next round about `key` (claimed when free) and for a place of `limit`. */
	async ask(key: string | undefined, limit: StoreLimit | undefined): Promise<Asked> {
		this.send();
		const item: StoreItem = { ask: { key, longestMs: this.longestMs, limit } };
		try {
			return { answer: (await submit(this.row, item, storeRound)) as Answer };
		} catch (error) {
			const wrapped = roundError(this.row.ctx.getNode(), error);
			return { error: wrapped, claimMayRemain: mayRemain(item) };
		}
	}

	/** Values to take back in the execution's next round. */
	remove(values: readonly string[]): void {
		this.removals.push(...values);
	}

	/** Hands the removals not yet sent to the next round; one that may not have written them is noted. */
	send(): void {
		if (this.removals.length === 0) return;
		const item: StoreItem = { removals: this.removals };
		this.removals = [];
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
		this.send();
		await Promise.all(this.writing);
		return this.lost === undefined
			? undefined
			: roundError(this.row.ctx.getNode(), this.lost).message;
	}
}
