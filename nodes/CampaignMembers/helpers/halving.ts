/**
 * A refused row found by halving its request, so that one bad row never sinks the others.
 *
 * Member API v1 refuses a WHOLE save request for one row it does not like (-1006, -1007,
 * -1012, -1013; docs/service-rules.md#members), without reliably saying which one. The node
 * checks the documented rules before sending, but the service may still refuse a row for a
 * reason the node cannot see. Then the refused request is split in two halves and each half is
 * sent again (saves and deletes are idempotent, so resending rows that were fine is harmless),
 * recursively, until the refused rows stand alone. Valid rows are stored; only the refused ones
 * fail, with the service's code.
 *
 * Cost: a refused request of n rows with one bad row costs 2 more requests per level of
 * halving, so at most 2 * ceil(log2 n) extra requests per bad row (20 for 1000 rows). Halves
 * are sent in order, so when a request names the same member twice the later row still wins.
 * When the service refuses far more rows than that (for instance every row, for a reason no
 * single row causes), splitting stops after `maxExtraRequests` and the rows not yet found out
 * fail together, saying so, instead of costing up to 2n requests.
 */
import type { Failure } from '../../shared/outcome';

/** What one request did with the rows it carried. */
export type SendOutcome<R> =
	/** Accepted; the rows in `failures` were refused one by one, all the others were applied. */
	| { kind: 'applied'; failures: Map<R, Failure>; unmatched?: Failure[] }
	/** The whole request was refused because of (at least) one of its rows: find it by halving the request. */
	| { kind: 'rowRefused'; failure: Failure }
	/** The whole request was refused for a reason no row causes (e.g. a delete to retry later). */
	| { kind: 'allFailed'; failure: Failure };

export interface HalvingReport<R> {
	succeeded: R[];
	failed: Array<{ row: R; failure: Failure }>;
	/** Failures the service reported that match no row, with the rows of the request they came from. */
	unmatched: Array<{ rows: R[]; failure: Failure }>;
	/** Requests sent, including the halves sent to find refused rows. */
	requests: number;
	/**
	 * A request that failed as a whole (thrown by `send`): its error, and the rows of that request
	 * and of the halves after it, which were not sent. What earlier requests did stays reported.
	 */
	stopped?: { error: unknown; rows: R[] };
}

/** Extra requests one chunk may spend halving to find refused rows: 2 * log2(1000) for 10 bad rows. */
export const MAX_HALVING_REQUESTS = 200;

/**
 * Sends `rows` with `send`, halving every request refused for a row (`rowRefused`) until the
 * refused rows stand alone, and reports what happened to each row.
 */
export async function sendHalving<R>(
	rows: R[],
	send: (rows: R[]) => Promise<SendOutcome<R>>,
	maxExtraRequests = MAX_HALVING_REQUESTS,
): Promise<HalvingReport<R>> {
	const report: HalvingReport<R> = { succeeded: [], failed: [], unmatched: [], requests: 0 };
	const failAll = (part: R[], failure: Failure) => {
		for (const row of part) report.failed.push({ row, failure: { ...failure } });
	};
	const run = async (part: R[], refusedAs?: Failure): Promise<void> => {
		if (part.length === 0) return;
		if (report.stopped) {
			report.stopped.rows.push(...part);
			return;
		}
		if (refusedAs !== undefined && report.requests - 1 >= maxExtraRequests) {
			failAll(part, {
				...refusedAs,
				message: `${refusedAs.message}. Not stored: the service refused the request this row was in, and the node stopped splitting it after ${maxExtraRequests} extra requests; this row may itself be valid`,
			});
			return;
		}
		report.requests++;
		let outcome: SendOutcome<R>;
		try {
			outcome = await send(part);
		} catch (error) {
			report.stopped = { error, rows: [...part] };
			return;
		}
		if (outcome.kind === 'applied') {
			for (const row of part) {
				const failure = outcome.failures.get(row);
				if (failure === undefined) report.succeeded.push(row);
				else report.failed.push({ row, failure });
			}
			for (const failure of outcome.unmatched ?? []) report.unmatched.push({ rows: part, failure });
			return;
		}
		if (outcome.kind === 'allFailed' || part.length === 1) {
			failAll(part, outcome.failure);
			return;
		}
		const middle = Math.ceil(part.length / 2);
		await run(part.slice(0, middle), outcome.failure);
		await run(part.slice(middle), outcome.failure);
	};
	await run(rows);
	return report;
}
