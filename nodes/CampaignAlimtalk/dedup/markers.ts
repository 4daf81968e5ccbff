/**
 * What the store records about one message, and how long a send can take
 * (docs/deduplication.md, "Markers"). n8n's store only answers "was this value recorded?" (by
 * recording it), keeps values in the order they were first recorded and forgets the oldest
 * first. Per key:
 * - `sent`: the service answered success. The key's own stored form, as recorded by earlier
 *   versions of the node (which recorded a key when it was sent or might have been).
 * - `claim`: a request for it was about to leave and its answer is not recorded yet.
 * - `slot(s)`: that claim may still be in flight during the half hour `s`; a claim records every
 *   slot from a minute before its start to the end of the longest send (2 with the defaults, 5
 *   at the longest settings the node allows).
 * - `hour(h)`: the hour the claim was made, kept with it, so that an unconfirmed send can be
 *   told when it started.
 * `sent` is asked before `claim` is recorded and recorded after it, so it is forgotten last; a
 * message whose `sent` was forgotten reads as never sent, as the History Size says.
 */
import type { TransportSettings } from '../../shared/transport';
import { MAX_BACKOFF_MS } from '../../shared/transport';
import { storedKey } from './options';

export const SLOT_MS = 30 * 60000;
const HOUR_MS = 3600000;
/** How far back the hour of an unconfirmed claim is looked for. */
export const HOURS_BACK = 48;
/** Time for the answer to be recorded after the request ended (a lock round), and clock skew. */
const RECORD_MARGIN_MS = 60000;
/** How far the clocks of two processes may disagree and still see each other's claims in flight. */
export const CLOCK_SKEW_MS = 60000;
/** Kept in every row of keys the node writes, so that such a row is never empty (lock.ts). */
export const KEYS_ROW_ENTRY = 'campaign-alimtalk-deduplication-keys';

/** The longest one send can take with these settings: every attempt timing out, every pause at its longest. */
export function longestSendMs(settings: TransportSettings): number {
	return (
		(settings.maxRetries + 1) * settings.timeoutMs +
		settings.maxRetries * MAX_BACKOFF_MS +
		RECORD_MARGIN_MS
	);
}

/** The store values of one key; the time-bound ones are made for the round's clock (`at`). */
export interface KeyMarkers {
	sent: string;
	claim: string;
	/** The hour marker of a claim made now. */
	hour: string;
	/** The slot marker of the half hour it is now: present while a claim may be in flight. */
	now: string;
	/** The slot markers a claim made now records, from CLOCK_SKEW_MS before to the end of the longest send. */
	slots: string[];
}

export function markersOf(key: string, nowMs: number, longestMs: number): KeyMarkers {
	const sent = storedKey(key);
	const claim = `claim:${sent}`;
	const first = Math.floor((nowMs - CLOCK_SKEW_MS) / SLOT_MS);
	const last = Math.floor((nowMs + longestMs + CLOCK_SKEW_MS) / SLOT_MS);
	const slot = (s: number) => `${claim}:s${s}`;
	return {
		sent,
		claim,
		hour: hourMarker(claim, Math.floor(nowMs / HOUR_MS)),
		now: slot(Math.floor(nowMs / SLOT_MS)),
		slots: Array.from({ length: last - first + 1 }, (_, i) => slot(first + i)),
	};
}

function hourMarker(claim: string, hour: number): string {
	return `${claim}:h${hour}`;
}

/** The hour markers a claim made in the last HOURS_BACK hours may have, newest first, with their hours. */
export function hoursBack(
	markers: KeyMarkers,
	nowMs: number,
): Array<{ value: string; startMs: number }> {
	const current = Math.floor(nowMs / HOUR_MS);
	return Array.from({ length: HOURS_BACK }, (_, i) => ({
		value: hourMarker(markers.claim, current - i),
		startMs: (current - i) * HOUR_MS,
	}));
}

/** What a claim keeps in the store while its send is under way (all but `sent`), oldest first. */
export function claimed(markers: KeyMarkers): string[] {
	return [...markers.slots, markers.hour, markers.claim];
}

/** What the store said of a key, from the values its record call found new. */
export type Verdict = 'send' | 'sent' | 'inFlight' | 'unconfirmed' | 'limited';

/**
 * A claim wins over `sent`: a `sent` probe left beside another execution's claim (its round cut
 * short) must never make the message read as sent. A confirmed send has `sent` and no claim.
 */
export function verdictOf(markers: KeyMarkers, isNew: (value: string) => boolean): Verdict {
	if (!isNew(markers.claim)) return isNew(markers.now) ? 'unconfirmed' : 'inFlight';
	return isNew(markers.sent) ? 'send' : 'sent';
}

/** The values a record call adds for a key: `sent` first, so that a claim made now outlives it. */
export function asked(markers: KeyMarkers): string[] {
	return [markers.sent, markers.now, ...claimed(markers)];
}

/** Of what a record call added for a key, the values to take back (all but the claim it keeps). */
export function takeBack(
	markers: KeyMarkers,
	verdict: Verdict,
	isNew: (value: string) => boolean,
): string[] {
	const keep = new Set(verdict === 'send' ? claimed(markers) : []);
	return asked(markers).filter((value) => isNew(value) && !keep.has(value));
}

/**
 * What the end of a claimed send writes: a confirmation records `sent` and takes the claim
 * back; a kept claim (delivery unknown) loses its slots; a release takes everything back. Keep
 * and release also take back `sent`: while this claim stood nobody else could send the message,
 * so a `sent` there is a probe another round left behind, and must not outlive the claim.
 */
export function finished(
	markers: KeyMarkers,
	fate: 'confirm' | 'keep' | 'release',
): { facts: string[]; removals: string[] } {
	if (fate === 'confirm') return { facts: [markers.sent], removals: claimed(markers) };
	if (fate === 'keep') return { facts: [], removals: [...markers.slots, markers.sent] };
	return { facts: [], removals: [...claimed(markers), markers.sent] };
}

/**
 * What the store said of a key, with the markers of the claim made (for `send`); an ask without
 * a key (a send limit only) has no markers. `limited`: the send limit had no place left.
 */
export interface Answer {
	verdict: Verdict;
	markers?: KeyMarkers;
	/** The send limit's slot given to this send (limit.ts). */
	slot?: string;
	/** When the send limit's period ends (for `limited`). */
	resetsAt?: string;
	/** For an unconfirmed claim, the start of the hour it was made in (null: looked for, not found). */
	claimedAt?: number | null;
}
