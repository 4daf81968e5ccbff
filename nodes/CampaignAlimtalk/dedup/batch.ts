/**
 * The store work of every execution of one process on one row of keys, in rounds: a round takes
 * every claim asked, confirmation and release queued so far, by any execution, and writes them
 * with one record call and one remove call while the workflow's lock is held (rounds.ts). A
 * batch exists only while work waits: nothing outlives the executions that use it.
 */
import type { DeduplicationScope, IExecuteFunctions } from 'n8n-workflow';
import { storeError } from './errors';
import type { KeyMarkers, Verdict } from './markers';
import { asked, claimed, hoursBack, KEYS_ROW_ENTRY, takeBack, verdictOf } from './markers';
import { lockRowId, underLock } from './rounds';

export const STORE_FAILED_CODE = 'deduplicationStoreFailed';

/** What the store said of a key; for an unconfirmed claim, the start of the hour it was made in (when found). */
export interface Answer {
	verdict: Verdict;
	claimedAt?: number;
}

interface Ask {
	markers: KeyMarkers;
	resolve: (answer: Answer) => void;
	reject: (error: unknown) => void;
}

interface Waiter {
	resolve: () => void;
	reject: (error: unknown) => void;
}

interface Batch {
	asks: Ask[];
	/** Values to record that stay: the `sent` markers of confirmed sends. */
	facts: string[];
	/** Values to take back: finished claims and their windows. */
	removals: string[];
	/** Executions waiting for a round that carries what they queued. */
	waiters: Waiter[];
	historySize: number;
	queued: boolean;
}

const batches = new Map<string, Batch>();

export interface Row {
	ctx: IExecuteFunctions;
	scope: DeduplicationScope;
	historySize: number;
}

function batchOf(row: Row): Batch {
	const id = lockRowId(row.ctx, row.scope);
	let batch = batches.get(id);
	if (!batch) {
		batch = { asks: [], facts: [], removals: [], waiters: [], historySize: 0, queued: false };
		batches.set(id, batch);
	}
	batch.historySize = Math.max(batch.historySize, row.historySize);
	return batch;
}

/** Asks about one key in the next round (claiming it when it is free). */
export async function ask(row: Row, markers: KeyMarkers): Promise<Answer> {
	const batch = batchOf(row);
	const answer = new Promise<Answer>((resolve, reject) =>
		batch.asks.push({ markers, resolve, reject }),
	);
	queueRound(row, batch);
	return await answer;
}

/** Queues values to record and to take back; the next round writes them. */
export function queue(row: Row, facts: string[], removals: string[]): void {
	const batch = batchOf(row);
	batch.facts.push(...facts);
	batch.removals.push(...removals);
}

/** Resolves once a round has written everything queued before this call. */
export async function flush(row: Row): Promise<void> {
	const batch = batchOf(row);
	const written = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
	queueRound(row, batch);
	await written;
}

function queueRound(row: Row, batch: Batch): void {
	if (batch.queued) return;
	batch.queued = true;
	void round(row, batch);
}

/** Of the round's asks, in order: a key claimed by an earlier ask of the same round is in flight for the later ones. */
function judge(asks: Ask[], isNew: (value: string) => boolean, facts: Set<string>): Verdict[] {
	const claimed = new Set<string>();
	return asks.map((entry) => {
		const { markers } = entry;
		const fresh = (value: string) => isNew(value) && !facts.has(value) && !claimed.has(value);
		const verdict = verdictOf(markers, fresh);
		if (verdict === 'send') claimed.add(markers.claim).add(markers.now);
		return verdict;
	});
}

/**
 * For the unconfirmed claims of a round (rare: a send that got no answer or a crash), when they
 * were made: one more record call over their possible hour markers, and one to take them back.
 */
async function findHours(
	row: Row,
	asks: Ask[],
	answers: Answer[],
	historySize: number,
): Promise<void> {
	const unconfirmed = asks
		.map((entry, n) => ({ entry, n }))
		.filter(({ n }) => answers[n].verdict === 'unconfirmed');
	if (unconfirmed.length === 0) return;
	const now = Date.now();
	const probes = unconfirmed.map(({ entry }) => hoursBack(entry.markers, now));
	const values = [...new Set(probes.flat().map((probe) => probe.value))];
	const mode = { mode: 'entries' as const };
	const result = await row.ctx.helpers.checkProcessedAndRecord(values, row.scope, {
		...mode,
		maxEntries: historySize + values.length,
	});
	const fresh = new Set(result.new.map(String));
	unconfirmed.forEach(
		({ n }, u) =>
			(answers[n].claimedAt = probes[u].find((probe) => !fresh.has(probe.value))?.startMs),
	);
	if (fresh.size > 0) await row.ctx.helpers.removeProcessed([...fresh], row.scope, mode);
}

async function round(row: Row, batch: Batch): Promise<void> {
	let asks: Ask[] = [];
	let waiters: Waiter[] = [];
	const kept: string[] = [];
	const mode = { mode: 'entries' as const };
	const { ctx, scope } = row;
	try {
		const answers = await underLock(
			ctx,
			scope,
			async () => {
				({ asks, waiters } = batch);
				const facts = new Set(batch.facts);
				const removals = batch.removals;
				const historySize = batch.historySize;
				Object.assign(batch, { asks: [], facts: [], removals: [], waiters: [], queued: false });
				batches.delete(lockRowId(ctx, scope));
				const add = [
					...new Set([KEYS_ROW_ENTRY, ...facts, ...asks.flatMap((entry) => asked(entry.markers))]),
				];
				// Room for what this call adds, so that its probes never push out an older entry.
				const result =
					add.length > 1
						? await ctx.helpers.checkProcessedAndRecord(add, scope, {
								...mode,
								maxEntries: historySize + add.length,
							})
						: { new: [] };
				const fresh = new Set(result.new.map(String));
				const isNew = (value: string) => fresh.has(value);
				const judged = judge(asks, isNew, facts);
				const remove = new Set(removals);
				asks.forEach((entry, n) => {
					for (const value of takeBack(entry.markers, judged[n], isNew))
						if (!facts.has(value)) remove.add(value);
					if (judged[n] === 'send') kept.push(...claimed(entry.markers));
				});
				for (const value of kept) remove.delete(value);
				if (remove.size > 0) await ctx.helpers.removeProcessed([...remove], scope, mode);
				const answers: Answer[] = judged.map((verdict) => ({ verdict }));
				await findHours(row, asks, answers, historySize);
				return answers;
			},
			async () => {
				// The round was not exclusive: its claims are taken back, and nothing of them is sent.
				if (kept.length > 0) await ctx.helpers.removeProcessed(kept, scope, mode);
			},
		);
		// The answers are given only once the round was exclusive to the end (rounds.ts).
		asks.forEach((entry, n) => entry.resolve(answers[n]));
		waiters.forEach((waiter) => waiter.resolve());
	} catch (error) {
		if (asks.length === 0 && waiters.length === 0) {
			// The lock was never taken: what waits now fails, what is queued stays for a later round.
			({ asks, waiters } = batch);
			Object.assign(batch, { asks: [], waiters: [], queued: false });
		}
		const wrapped = storeError(ctx.getNode(), error);
		wrapped.context.campaignCode ??= STORE_FAILED_CODE;
		asks.forEach((entry) => entry.reject(wrapped));
		waiters.forEach((waiter) => waiter.reject(wrapped));
	}
}
