/**
 * The store work of one round on the row of keys, while the workflow's lock is held (batch.ts
 * gathers the round, rounds.ts holds the lock): one record call that asks about every key and
 * Send Limit place and writes the confirmations, the verdicts, the places given, one remove call
 * that takes back the probes and the releases, and the start lookups of keys found claimed.
 * What the round wrote is noted in `Recorded`, for batch.ts to take back when the round fails.
 */
import { storeError } from './errors';
import { findStarts } from './starts';
import type { Answer, KeyMarkers, Verdict } from './markers';
import { asked, claimed, KEYS_ROW_ENTRY, markersOf, takeBack, verdictOf } from './markers';
import type { StoreLimit } from './limit';
import { MAX_CALLS, Places } from './places';
import type { Lease, Row } from './rounds';

/** A remove call of a round is tried this often while the lease holds. */
export const REMOVE_TRIES = 3;
/** At most this many values go in one remove call: n8n 2.41.1 removes one value at a time. */
const REMOVE_CHUNK = 250;

/** What a round works on: the asks (a key, a place, or both) and the writes queued for it. */
export interface RoundWork {
	asks: Array<{ key: string | undefined; longestMs: number; limit: StoreLimit | undefined }>;
	writes: Array<{ facts: string[]; removals: string[] }>;
	historySize: number;
}

/** What a round knows of what it wrote: whether its asks' claims may be in the store (batch.ts). */
export interface Recorded {
	/** Values the round's record calls found new (its claims, probes and places). */
	added: string[];
	/** A record call failed: it may still have written. */
	unknown: boolean;
	/** The round's record and remove calls all ended well: the writes it carried are in the store. */
	written: boolean;
}

export const recordedNothing = (): Recorded => ({ added: [], unknown: false, written: false });

/**
 * Of the round's asks, in order: a key claimed by an earlier ask of the same round is `claimed`
 * for the later ones. Returns, per key claimed in the round, the ask that claimed it.
 */
function judge(
	markers: Array<KeyMarkers | undefined>,
	isNew: (value: string) => boolean,
): { verdicts: Verdict[]; claimers: Map<string, number> } {
	const claimers = new Map<string, number>();
	const verdicts = markers.map((entry, n) => {
		if (!entry) return 'send';
		const fresh = (value: string) => isNew(value) && !claimers.has(value);
		const verdict = verdictOf(entry, fresh);
		if (verdict === 'send') claimers.set(entry.claim, n);
		return verdict;
	});
	return { verdicts, claimers };
}

/**
 * Judged again once the places are given: an ask that found its key claimed by an earlier ask of
 * the round that then got no place is `limited` too (the key stays free).
 */
function rejudge(
	markers: Array<KeyMarkers | undefined>,
	verdicts: Verdict[],
	claimers: Map<string, number>,
): void {
	markers.forEach((entry, n) => {
		const first = entry === undefined ? undefined : claimers.get(entry.claim);
		if (first === undefined || first === n || verdicts[n] !== 'claimed') return;
		if (verdicts[first] === 'limited') verdicts[n] = 'limited';
	});
}

/** `values` in pieces of at most REMOVE_CHUNK, one remove call each. */
export function removeChunks(values: string[]): string[][] {
	const chunks: string[][] = [];
	for (let at = 0; at < values.length; at += REMOVE_CHUNK)
		chunks.push(values.slice(at, at + REMOVE_CHUNK));
	return chunks;
}

/**
 * Removes `values` in calls of at most REMOVE_CHUNK, each tried up to REMOVE_TRIES times while
 * the lease holds: under the lock nobody else writes the row, so a remove that may have landed
 * can run again (after the lock its values may be another execution's: it never runs then).
 */
async function removeAll(lease: Lease, row: Row, values: string[]): Promise<void> {
	const mode = { mode: 'entries' as const };
	for (const chunk of removeChunks(values)) {
		for (let tries = 1; ; tries++) {
			const failure = await lease
				.call(async () => await row.ctx.helpers.removeProcessed(chunk, row.scope, mode))
				.then(
					() => undefined,
					(error: unknown) => error ?? new Error('the remove call failed'),
				);
			if (failure === undefined) break;
			if (tries >= REMOVE_TRIES || !lease.valid) throw storeError(row.ctx.getNode(), failure);
		}
	}
}

/** One record call on the row of keys, with room for what it adds (its probes push out no older entry); the values found new. */
async function record(
	lease: Lease,
	row: Row,
	values: string[],
	historySize: number,
	recorded: Recorded,
): Promise<Set<string>> {
	recorded.unknown = true;
	const result = await lease.call(
		async () =>
			await row.ctx.helpers.checkProcessedAndRecord(values, row.scope, {
				mode: 'entries',
				maxEntries: historySize + values.length,
			}),
	);
	recorded.unknown = false;
	return new Set(result.new.map(String));
}

/**
 * Gives the send limit's places to the asks judged `send` (places.ts): from the slots the
 * round's first call asked about, then from further calls when those were not enough. An ask
 * left without one becomes `limited`.
 */
async function givePlaces(
	places: Places,
	verdicts: Verdict[],
	more: (values: string[]) => Promise<Set<string>>,
): Promise<void> {
	let waiting = places.give(
		verdicts.map((_, n) => n).filter((n) => verdicts[n] === 'send' && places.limited(n)),
	);
	for (let call = 1; waiting.length > 0 && call <= MAX_CALLS; call++) {
		const values = places.probe(waiting, call === MAX_CALLS);
		if (values.length === 0) break;
		const fresh = await more(values);
		places.note(values, (value) => fresh.has(value));
		waiting = places.give(waiting);
	}
	for (const n of waiting) verdicts[n] = 'limited';
}

/** The store work of one round, under the lock: record, judge, give places, take back, find starts. */
export async function work(
	row: Row,
	taken: RoundWork,
	lease: Lease,
	recorded: Recorded,
): Promise<Answer[]> {
	const { asks, writes, historySize } = taken;
	// The round's one clock: two asks of one round never straddle a slot or a period.
	const now = Date.now();
	const markers = asks.map((entry) =>
		entry.key === undefined ? undefined : markersOf(entry.key, now),
	);
	const probes = markers.flatMap((entry) => (entry ? asked(entry) : []));
	// The send limit's places (places.ts): a few slots in the same call.
	const places = new Places(
		asks.map((entry) => entry.limit),
		now,
	);
	const slots = places.probe(asks.map((_, n) => n).filter((n) => places.limited(n)));
	const facts = new Set(writes.flatMap((entry) => entry.facts));
	const add = [...new Set([KEYS_ROW_ENTRY, ...facts, ...probes, ...slots])];
	const fresh = add.length > 1 ? await record(lease, row, add, historySize, recorded) : new Set();
	// A value this round takes back (a release, a confirmation, a failed round's values) is
	// judged as gone already: a key released in the round is free, a confirmed one is sent.
	const removals = new Set(writes.flatMap((entry) => entry.removals));
	const isNew = (value: string) => (fresh.has(value) || removals.has(value)) && !facts.has(value);
	recorded.added.push(...probes.filter(isNew));
	places.note(slots, isNew);
	const { verdicts, claimers } = judge(markers, isNew);
	await givePlaces(
		places,
		verdicts,
		async (values) => await record(lease, row, values, historySize, recorded),
	);
	rejudge(markers, verdicts, claimers);
	recorded.added.push(...places.added);
	const freed = places.takeBack();
	const remove = new Set([...removals, ...freed]);
	const keep = new Set<string>();
	markers.forEach((entry, n) => {
		if (!entry) return;
		for (const value of takeBack(entry, verdicts[n], isNew)) remove.add(value);
		if (verdicts[n] === 'send') claimed(entry).forEach((value) => keep.add(value));
	});
	for (const value of [...keep, ...facts]) remove.delete(value);
	for (const slot of places.slots) if (slot !== undefined) remove.delete(slot);
	await removeAll(lease, row, [...remove]);
	recorded.written = true;
	const answers: Answer[] = verdicts.map((verdict, n) => ({
		verdict,
		markers: markers[n],
		slot: places.slots[n],
		resetsAt: places.resetsAt(n),
	}));
	const removeProbes = async (values: string[]) => await removeAll(lease, row, values);
	const longest = asks.map((entry) => entry.longestMs);
	await findStarts(lease, row, answers, longest, now, historySize, removeProbes);
	return answers;
}
