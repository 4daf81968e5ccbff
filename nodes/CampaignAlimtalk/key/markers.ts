/**
 * A key's store values (docs/deduplication.md, "The states of a key"). `sent` is the key's stored
 * form as earlier versions of the node recorded it.
 */
import type { TransportSettings } from '../../shared/transport';
import { MAX_BACKOFF_MS } from '../../shared/transport';
import { storedKey } from './key-options';

export const MINUTE_MS = 60000;
const HOUR_MS = 3600000;
/** Hours looked back for the start of an unconfirmed claim. */
export const HOURS_BACK = 48;
/** Time to record the answer after the request ended, and clock skew. */
const RECORD_MARGIN_MS = 60000;
/** How far the clocks of two processes may disagree and still see each other's claims in flight. */
export const CLOCK_SKEW_MS = 60000;
/** Kept in every row of keys the node writes, so that it is never empty (store/lock.ts). */
export const KEYS_ROW_ENTRY = 'campaign-alimtalk-deduplication-keys';

export function longestSendMs(settings: TransportSettings): number {
	return (
		(settings.maxRetries + 1) * settings.timeoutMs +
		settings.maxRetries * MAX_BACKOFF_MS +
		RECORD_MARGIN_MS
	);
}

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

export interface StartProbe {
	value: string;
	startMs: number;
	/** A minute marker: the claim may still be in flight. */
	inFlight: boolean;
}

/** Minutes, then hours, newest first: starts.ts takes the first one found. */
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

/** starts.ts turns `claimed` into `inFlight` or `unconfirmed`. */
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

/** Per fate: docs/deduplication.md, "The transitions, and the store calls that make them". */
export function finished(markers: KeyMarkers, fate: 'confirm' | 'keep' | 'release'): string[] {
	if (fate === 'confirm') return [markers.hour, markers.minute, markers.claim];
	// A kept claim keeps its own older `sent`: a later ask's `sent` probe is never new, never left.
	if (fate === 'keep') return [markers.minute];
	return claimed(markers);
}

export interface Answer {
	verdict: Verdict;
	markers?: KeyMarkers;
	/** The Send Limit place given (limit/places.ts). */
	slot?: string;
	resetsAt?: string;
	/** null: looked for, not found. */
	claimedAt?: number | null;
	claimedToMinute?: boolean;
}
