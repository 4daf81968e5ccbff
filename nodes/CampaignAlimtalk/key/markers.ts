/**
 * What the store records about one message (`sent`, `claim`, `minute`, `hour`: the states and
 * transitions are in docs/deduplication.md, "The states of a key"), and how long a send can take.
 * `sent` is the key's own stored form, as earlier versions of the node recorded it.
 */
import type { TransportSettings } from '../../shared/transport';
import { MAX_BACKOFF_MS } from '../../shared/transport';
import { storedKey } from './key-options';

export const MINUTE_MS = 60000;
const HOUR_MS = 3600000;
/** How far back the hour of an unconfirmed claim is looked for. */
export const HOURS_BACK = 48;
/** Time to record the answer after the request ended, and clock skew. */
const RECORD_MARGIN_MS = 60000;
/** How far the clocks of two processes may disagree and still see each other's claims in flight. */
export const CLOCK_SKEW_MS = 60000;
/** Kept in every row of keys the node writes, so that it is never empty (store/lock.ts). */
export const KEYS_ROW_ENTRY = 'campaign-alimtalk-deduplication-keys';

/** The longest one send can take: every attempt timing out, every pause at its longest. */
export function longestSendMs(settings: TransportSettings): number {
	return (
		(settings.maxRetries + 1) * settings.timeoutMs +
		settings.maxRetries * MAX_BACKOFF_MS +
		RECORD_MARGIN_MS
	);
}

/** The store values of one key; `hour` and `minute` those of a claim made now. */
export interface KeyMarkers {
	sent: string;
	claim: string;
	hour: string;
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
 * The markers a claim found may have, newest first: the minutes of a send still under way
 * (`longestMs` plus CLOCK_SKEW_MS each side), then the hours of the last HOURS_BACK.
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

/** A claim's values, oldest first as recorded: the claim outlives its own `sent`. */
export function claimed(markers: KeyMarkers): string[] {
	return [markers.hour, markers.minute, markers.sent, markers.claim];
}

/** What the store said of a key (`claimed` becomes `inFlight` or `unconfirmed`: starts.ts). */
export type Verdict = 'send' | 'sent' | 'claimed' | 'inFlight' | 'unconfirmed' | 'limited';

/** A claim wins over `sent`: a message in flight never reads as sent. */
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

/** What the end of a claimed send takes back (docs/deduplication.md, "The transitions ..."). */
export function finished(markers: KeyMarkers, fate: 'confirm' | 'keep' | 'release'): string[] {
	if (fate === 'confirm') return [markers.hour, markers.minute, markers.claim];
	if (fate === 'keep') return [markers.minute, markers.sent];
	return claimed(markers);
}

/** An ask's answer, with the markers of the claim made (for `send`; none without a key). */
export interface Answer {
	verdict: Verdict;
	markers?: KeyMarkers;
	/** The send limit's slot given to this send (limit/places.ts). */
	slot?: string;
	/** When the send limit's period ends (for `limited`). */
	resetsAt?: string;
	/** For a claim found: when it was made (null: looked for, not found). */
	claimedAt?: number | null;
	/** Whether `claimedAt` is a minute (the claim may still be in flight) or only an hour. */
	claimedToMinute?: boolean;
}
