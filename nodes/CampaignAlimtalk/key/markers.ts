/**
 * What the store records about one message, and how long a send can take
 * (docs/deduplication.md, "Markers"). n8n's store only answers "was this value recorded?" (by
 * recording it), keeps values in the order they were first recorded and forgets the oldest
 * first. Per key:
 * - `sent`: the service answered success. The key's own stored form, as recorded by earlier
 *   versions of the node (which recorded a key when it was sent or might have been).
 * - `claim`: a request for it was about to leave and its answer is not recorded yet.
 * - `minute(m)`: the minute the claim was made, while its send may still be under way: a key
 *   found claimed is asked about the minutes of the longest send plus a clock margin
 *   (starts.ts), so a claim left by a crash reads "in flight" no longer than that.
 * - `hour(h)`: the hour the claim was made, kept with it, so that an unconfirmed send can be
 *   told when it started.
 * A claim is recorded with its own `sent`, one entry older (the ask that made it recorded it):
 * while the claim stands it wins over `sent`, and a confirmation only takes the claim and its
 * markers back, leaving `sent` (one remove call, no record call). A message whose `sent` was
 * forgotten reads as never sent, as the History Size says.
 */
import type { TransportSettings } from '../../shared/transport';
import { MAX_BACKOFF_MS } from '../../shared/transport';
import { storedKey } from './key-options';

export const MINUTE_MS = 60000;
const HOUR_MS = 3600000;
/** How far back the hour of an unconfirmed claim is looked for. */
export const HOURS_BACK = 48;
/** Time for the answer to be recorded after the request ended (a lock round), and clock skew. */
const RECORD_MARGIN_MS = 60000;
/** How far the clocks of two processes may disagree and still see each other's claims in flight. */
export const CLOCK_SKEW_MS = 60000;
/** Kept in every row of keys the node writes, so that such a row is never empty (store/lock.ts). */
export const KEYS_ROW_ENTRY = 'campaign-alimtalk-deduplication-keys';

/** The longest one send can take with these settings: every attempt timing out, every pause at its longest. */
export function longestSendMs(settings: TransportSettings): number {
	return (
		(settings.maxRetries + 1) * settings.timeoutMs +
		settings.maxRetries * MAX_BACKOFF_MS +
		RECORD_MARGIN_MS
	);
}

/** The store values of one key; the time-bound ones are made for the round's clock. */
export interface KeyMarkers {
	sent: string;
	claim: string;
	/** The hour marker of a claim made now. */
	hour: string;
	/** The minute marker of a claim made now. */
	minute: string;
}

export function markersOf(key: string, nowMs: number): KeyMarkers {
	const sent = storedKey(key);
	const claim = `claim:${sent}`;
	return {
		sent,
		claim,
		hour: hourMarker(claim, Math.floor(nowMs / HOUR_MS)),
		minute: minuteMarker(claim, Math.floor(nowMs / MINUTE_MS)),
	};
}

function hourMarker(claim: string, hour: number): string {
	return `${claim}:h${hour}`;
}

function minuteMarker(claim: string, minute: number): string {
	return `${claim}:m${minute}`;
}

/** A time a claim may have been made at, and the marker that would say so. */
export interface StartProbe {
	value: string;
	startMs: number;
	/** A minute marker: the claim may still be in flight. */
	inFlight: boolean;
}

/**
 * The markers of a claim found in the store: the minutes in which a send still under way may
 * have started (the longest send `longestMs` plus CLOCK_SKEW_MS each side, newest first), then
 * the hours of the last HOURS_BACK, newest first.
 */
export function startProbes(markers: KeyMarkers, nowMs: number, longestMs: number): StartProbe[] {
	const last = Math.floor((nowMs + CLOCK_SKEW_MS) / MINUTE_MS);
	const first = Math.floor((nowMs - longestMs - CLOCK_SKEW_MS) / MINUTE_MS);
	const minutes = Array.from({ length: last - first + 1 }, (_, i) => ({
		value: minuteMarker(markers.claim, last - i),
		startMs: (last - i) * MINUTE_MS,
		inFlight: true,
	}));
	const current = Math.floor(nowMs / HOUR_MS);
	const hours = Array.from({ length: HOURS_BACK }, (_, i) => ({
		value: hourMarker(markers.claim, current - i),
		startMs: (current - i) * HOUR_MS,
		inFlight: false,
	}));
	return [...minutes, ...hours];
}

/**
 * What a claim keeps in the store while its send is under way, oldest first: its markers, its own
 * `sent`, the claim. An ask's record call adds them in this order, so a claim made now outlives
 * its `sent`.
 */
export function claimed(markers: KeyMarkers): string[] {
	return [markers.hour, markers.minute, markers.sent, markers.claim];
}

/**
 * What the store said of a key, from the values its record call found new. `claimed`: another
 * claim stands; when it was made (starts.ts) tells `inFlight` from `unconfirmed`.
 */
export type Verdict = 'send' | 'sent' | 'claimed' | 'inFlight' | 'unconfirmed' | 'limited';

/**
 * A claim wins over `sent`: a `sent` probe left beside another execution's claim (its round cut
 * short) must never make the message read as sent. A confirmed send has `sent` and no claim.
 */
export function verdictOf(markers: KeyMarkers, isNew: (value: string) => boolean): Verdict {
	if (!isNew(markers.claim)) return 'claimed';
	return isNew(markers.sent) ? 'send' : 'sent';
}

/** Of what a record call added for a key, the values to take back (all but the claim it keeps). */
export function takeBack(
	markers: KeyMarkers,
	verdict: Verdict,
	isNew: (value: string) => boolean,
): string[] {
	const keep = new Set(verdict === 'send' ? claimed(markers) : []);
	return claimed(markers).filter((value) => isNew(value) && !keep.has(value));
}

/**
 * What the end of a claimed send writes: a confirmation takes the claim and its markers back,
 * leaving the claim's own `sent`; a kept claim (delivery unknown) loses its minute and its
 * `sent`, so that it reads unconfirmed at once and its `sent` cannot outlive it; a release takes
 * everything back.
 */
export function finished(markers: KeyMarkers, fate: 'confirm' | 'keep' | 'release'): string[] {
	if (fate === 'confirm') return [markers.hour, markers.minute, markers.claim];
	if (fate === 'keep') return [markers.minute, markers.sent];
	return claimed(markers);
}

/**
 * What the store said of a key, with the markers of the claim made (for `send`); an ask without
 * a key (a send limit only) has no markers. `limited`: the send limit had no place left.
 */
export interface Answer {
	verdict: Verdict;
	markers?: KeyMarkers;
	/** The send limit's slot given to this send (limit/places.ts). */
	slot?: string;
	/** When the send limit's period ends (for `limited`). */
	resetsAt?: string;
	/** For a claim found (in flight or unconfirmed): when it was made, to the minute or the hour (null: looked for, not found). */
	claimedAt?: number | null;
	/** Whether `claimedAt` is a minute (the claim may still be in flight) or only an hour. */
	claimedToMinute?: boolean;
}
