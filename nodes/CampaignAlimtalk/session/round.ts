/**
 * The round function of a row of keys, called under the lock (docs/deduplication.md, "The
 * engine"): one record call for every key and place, the places given, one remove call, and the
 * start lookups of keys found claimed. What it wrote is noted in `Recorded`, read on failure.
 */
import { findStarts } from '../key/starts';
import type { Answer, KeyMarkers, Verdict } from '../key/markers';
import { claimed, KEYS_ROW_ENTRY, markersOf, takeBack, verdictOf } from '../key/markers';
import type { StoreLimit } from '../limit/limit';
import { MAX_CALLS, Places } from '../limit/places';
import type { Lease, Row } from '../store/queue';

/** An ask: about a key (claimed when free), for a place of the Send Limit, or both. */
export interface Ask {
	key: string | undefined;
	/** The asker's longest send (key/markers.ts `longestSendMs`). */
	longestMs: number;
	limit: StoreLimit | undefined;
}

/** What a round knows of what it wrote, shared by its items. */
export interface Recorded {
	/** Values the round's record calls found new (its claims, probes and places). */
	added: string[];
	/** A record call failed: it may still have written. */
	unknown: boolean;
	/** The round's record and remove calls all ended well: the removals it carried are done. */
	written: boolean;
}

/** One item of a round: an ask, or values to take back (a send's end); `recorded` once it ran. */
export type StoreItem = ({ ask: Ask } | { removals: string[] }) & { recorded?: Recorded };

/** Whether a failed round's claim may be in the store (it then reads in flight, then unconfirmed). */
export function mayRemain(item: StoreItem): boolean {
	const recorded = item.recorded;
	return recorded !== undefined && (recorded.unknown || recorded.added.length > 0);
}

/** The asks' verdicts in order (a key claimed earlier in the round is `claimed`), and who claimed each key. */
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

/** Once places are given: an ask whose key's claimer got no place is `limited` too (the key stays free). */
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

/** One record call of the round, noted in `recorded` (a call that failed may still have written). */
async function record(
	lease: Lease,
	row: Row,
	values: string[],
	historySize: number,
	recorded: Recorded,
): Promise<Set<string>> {
	recorded.unknown = true;
	const fresh = await lease.record(row, values, historySize);
	recorded.unknown = false;
	return fresh;
}

/** Gives places to the asks judged `send`, with further calls if needed; one left without is `limited`. */
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

/** The round function of a row of keys: each ask's answer (undefined for a removal). */
export async function storeRound(
	lease: Lease,
	row: Row,
	items: StoreItem[],
): Promise<Array<Answer | undefined>> {
	const recorded: Recorded = { added: [], unknown: false, written: false };
	items.forEach((item) => (item.recorded = recorded));
	const asks = items.flatMap((item) => ('ask' in item ? [item.ask] : []));
	const removals = new Set(items.flatMap((item) => ('removals' in item ? item.removals : [])));
	const answers = await work(lease, row, asks, removals, recorded);
	let n = 0;
	return items.map((item) => ('ask' in item ? answers[n++] : undefined));
}

/** Record, judge, give places, take back, find starts. */
async function work(
	lease: Lease,
	row: Row,
	asks: Ask[],
	removals: Set<string>,
	recorded: Recorded,
): Promise<Answer[]> {
	const historySize = row.historySize;
	// The round's one clock: two asks of one round never straddle a slot or a period.
	const now = Date.now();
	const markers = asks.map((entry) =>
		entry.key === undefined ? undefined : markersOf(entry.key, now),
	);
	const probes = markers.flatMap((entry) => (entry ? claimed(entry) : []));
	const places = new Places(
		asks.map((entry) => entry.limit),
		now,
	);
	const slots = places.probe(asks.map((_, n) => n).filter((n) => places.limited(n)));
	const add = [...new Set([KEYS_ROW_ENTRY, ...probes, ...slots])];
	const fresh = add.length > 1 ? await record(lease, row, add, historySize, recorded) : new Set();
	// A value this round takes back is judged as gone already: released is free, confirmed is sent.
	const isNew = (value: string) => fresh.has(value) || removals.has(value);
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
	for (const value of keep) remove.delete(value);
	for (const slot of places.slots) if (slot !== undefined) remove.delete(slot);
	await lease.remove(row, [...remove]);
	recorded.written = true;
	const answers: Answer[] = verdicts.map((verdict, n) => ({
		verdict,
		markers: markers[n],
		slot: places.slots[n],
		resetsAt: places.resetsAt(n),
	}));
	const longest = asks.map((entry) => entry.longestMs);
	await findStarts(lease, row, answers, longest, now, historySize);
	return answers;
}
