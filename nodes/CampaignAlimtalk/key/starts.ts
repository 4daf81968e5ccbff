/** When a found claim was made (docs/deduplication.md, "The engine": "A key found claimed"). */
import type { Answer, KeyMarkers } from './markers';
import { startProbes } from './markers';
import type { Lease, Row } from '../store/queue';

/** Keys looked up a round, at most: every probe recorded must be removed again. */
export const LOOKUPS = 10;

/** Resolves every `claimed` answer into `inFlight` or `unconfirmed` (`longestMs`: per answer). */
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
