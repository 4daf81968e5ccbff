/**
 * When a claim found in the store was made (docs/deduplication.md, "Markers"): one more record
 * call over the start markers it may have (the minutes of the longest send plus a clock margin,
 * then the hours of the last two days), and one to take the probes back. A minute found: the
 * send may still be under way (`inFlight`); else it is `unconfirmed`, with its hour when found.
 * Bounded: at most LOOKUPS keys a round (n8n 2.41.1 removes one value at a time, about 1 ms each
 * at 100,000 keys); the others, and all of them when the call fails, are taken as in flight and
 * asked again in a later round. Probes that may have stayed (a call failed) stay: a minute probe
 * keeps that key's claim in flight until the minute leaves every window (docs/deduplication.md).
 */
import type { Answer, KeyMarkers } from './markers';
import { startProbes } from './markers';
import type { Lease, Row } from '../store/queue';

export const LOOKUPS = 10;

/** Resolves every `claimed` answer into `inFlight` or `unconfirmed` (`longestMs`: per answer, the asker's longest send). */
export async function findStarts(
	lease: Lease,
	row: Row,
	answers: Answer[],
	longestMs: readonly number[],
	now: number,
	historySize: number,
): Promise<void> {
	const claimed = answers.flatMap((answer, n) =>
		answer.verdict === 'claimed' && answer.markers ? [n] : [],
	);
	claimed.forEach((n) => (answers[n].verdict = 'inFlight'));
	const looked = claimed.slice(0, LOOKUPS);
	if (looked.length === 0) return;
	const probes = looked.map((n) =>
		startProbes(answers[n].markers as KeyMarkers, now, longestMs[n]),
	);
	const values = [...new Set(probes.flat().map((probe) => probe.value))];
	let fresh: Set<string>;
	try {
		fresh = await lease.record(row, values, historySize);
	} catch {
		return; // taken as in flight: asked again in a later round
	}
	looked.forEach((n, at) => {
		const found = probes[at].find((probe) => !fresh.has(probe.value));
		answers[n].verdict = found?.inFlight === true ? 'inFlight' : 'unconfirmed';
		answers[n].claimedAt = found?.startMs ?? null;
		answers[n].claimedToMinute = found?.inFlight === true;
	});
	if (fresh.size > 0) await lease.remove(row, [...fresh]).catch(() => undefined);
}
