/**
 * When an unconfirmed claim was made (docs/deduplication.md, "Markers"): one more record call
 * over the hour markers it may have, and one to take the probes back. Bounded: at most
 * HOUR_LOOKUPS keys a round (n8n 2.41.1 removes one value at a time, about 1 ms each at 100,000
 * keys); the others are reported without their start.
 */
import type { Answer, KeyMarkers } from './markers';
import { hoursBack } from './markers';
import type { Lease, Row } from './rounds';

export const HOUR_LOOKUPS = 10;

/** Sets `claimedAt` on up to HOUR_LOOKUPS unconfirmed answers (null: not found); a failure leaves them without it. */
export async function findHours(
	lease: Lease,
	row: Row,
	answers: Answer[],
	now: number,
	historySize: number,
	remove: (values: string[]) => Promise<void>,
): Promise<void> {
	const unconfirmed = answers
		.filter((answer) => answer.verdict === 'unconfirmed' && answer.markers !== undefined)
		.slice(0, HOUR_LOOKUPS);
	if (unconfirmed.length === 0) return;
	const probes = unconfirmed.map((answer) => hoursBack(answer.markers as KeyMarkers, now));
	const values = [...new Set(probes.flat().map((probe) => probe.value))];
	const mode = { mode: 'entries' as const };
	try {
		const result = await lease.call(
			async () =>
				await row.ctx.helpers.checkProcessedAndRecord(values, row.scope, {
					...mode,
					maxEntries: historySize + values.length,
				}),
		);
		const fresh = new Set(result.new.map(String));
		unconfirmed.forEach(
			(answer, u) =>
				(answer.claimedAt = probes[u].find((probe) => !fresh.has(probe.value))?.startMs ?? null),
		);
		if (fresh.size > 0) await remove([...fresh]);
	} catch {
		// The verdicts stand (written under the lease); only the start of those sends is not known.
	}
}
