/** The rows a store round writes, and the lease it writes them under. */
import type { DeduplicationScope, IExecuteFunctions } from 'n8n-workflow';
import type { Holder, LockStore } from './lock';
import { storeError } from './store-errors';

export interface Row {
	ctx: IExecuteFunctions;
	scope: DeduplicationScope;
	historySize: number;
}

/** The lock is the row the keys are not in (docs/deduplication.md, "The store it has to work with"). */
export function lockScopeFor(keyScope: DeduplicationScope): DeduplicationScope {
	return keyScope === 'node' ? 'workflow' : 'node';
}

/** The database row of `scope` for this node, as n8n names it (workflow id and context). */
export function rowId(ctx: IExecuteFunctions, scope: DeduplicationScope): string {
	const workflowId = String(ctx.getWorkflow().id);
	return scope === 'workflow' ? `${workflowId}|` : `${workflowId}|n:${ctx.getNode().id}`;
}

/** The database row the lock is. */
export function lockRowId(ctx: IExecuteFunctions, keyScope: DeduplicationScope): string {
	return rowId(ctx, lockScopeFor(keyScope));
}

/** n8n's deduplication helpers of `ctx`, bound to the lock's scope. */
export function lockStoreOf(ctx: IExecuteFunctions, lockScope: DeduplicationScope): LockStore {
	const mode = { mode: 'entries' as const };
	return {
		record: async (values) => await ctx.helpers.checkProcessedAndRecord(values, lockScope, mode),
		remove: async (values) => await ctx.helpers.removeProcessed(values, lockScope, mode),
		clear: async () => await ctx.helpers.clearAllProcessedItems(lockScope, mode),
		count: async () => await ctx.helpers.getProcessedDataCount(lockScope, mode),
	};
}

/** A remove call of a round is tried this often while the lease holds. */
export const REMOVE_TRIES = 3;
/** At most this many values go in one remove call: n8n 2.41.1 removes one value at a time. */
const REMOVE_CHUNK = 250;

export const LEASE_LOST = 'the deduplication lock was lost during the round';

/** The holder's lease as the work sees it: `call` starts no store call after it ran out, trusts no later answer. */
export class Lease {
	constructor(private readonly holder: Holder) {}

	get valid(): boolean {
		return this.holder.valid;
	}

	async call<T>(work: () => Promise<T>): Promise<T> {
		if (!this.holder.valid) throw new Error(LEASE_LOST);
		const value = await this.holder.call(work);
		if (!this.holder.valid) throw new Error(LEASE_LOST);
		return value;
	}

	/** One record call on `row`, with room for what it adds; the values found new. */
	async record(row: Row, values: string[], historySize: number): Promise<Set<string>> {
		const options = { mode: 'entries' as const, maxEntries: historySize + values.length };
		const call = async () =>
			await row.ctx.helpers.checkProcessedAndRecord(values, row.scope, options);
		return new Set((await this.call(call)).new.map(String));
	}

	/**
	 * Removes `values` in calls of at most REMOVE_CHUNK, each tried up to REMOVE_TRIES times while
	 * the lease holds: under the lock nobody else writes the row, so a repeat is safe.
	 */
	async remove(row: Row, values: string[]): Promise<void> {
		const mode = { mode: 'entries' as const };
		for (let at = 0; at < values.length; at += REMOVE_CHUNK) {
			const chunk = values.slice(at, at + REMOVE_CHUNK);
			for (let tries = 1; ; tries++) {
				const failure = await this.call(
					async () => await row.ctx.helpers.removeProcessed(chunk, row.scope, mode),
				).then(
					() => undefined,
					(error: unknown) => error ?? new Error('the remove call failed'),
				);
				if (failure === undefined) break;
				if (tries >= REMOVE_TRIES || !this.valid) throw storeError(row.ctx.getNode(), failure);
			}
		}
	}
}
