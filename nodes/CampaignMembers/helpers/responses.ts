/**
 * What the member endpoints answer, read with the shared reader (shared/answers.ts): the records
 * of a read (shared/members.ts), the failure rows of a v2 save or delete, and matching those failure rows back to the
 * rows that were sent.
 */
import type { FailureRow } from '../../shared/answers';
import { failureRowsIn, readFailureRows } from '../../shared/answers';
import { isObject } from '../../shared/values';
import type { Failure } from '../../shared/outcome';
import { phoneKey } from './rows';
import { ruleWords } from './advice';

/** The records of a read: written once for every node that reads members (shared/members.ts). */
export { recordsOf } from '../../shared/members';

/**
 * The failure rows in a processValue: a bare array, an object wrapping one (e.g.
 * `{failList: [...]}`) or one row object. A row counts when it carries a failure code, which is
 * read upper-cased; empty values (null, "", []) mean no failures. Every row given has its `code`.
 */
export function failureRowsOf(processValue: unknown): FailureRow[] {
	const rows =
		readFailureRows(processValue) ?? (isObject(processValue) ? failureRowsIn([processValue]) : []);
	const withCode: FailureRow[] = [];
	for (const row of rows) {
		const code = row.code?.trim() ?? '';
		if (code !== '') withCode.push({ ...row, code: code.toUpperCase() });
	}
	return withCode;
}

/** A row that was sent, as far as matching needs it. */
export interface SentRow {
	index: number;
	memberId?: string;
	phoneNumber?: string;
}

export interface MatchedFailures<R extends SentRow> {
	/** Failures matched to the row they belong to. */
	matched: Map<R, Failure>;
	/** Failure rows that name no row of the request (reported against the whole request). */
	unmatched: Failure[];
}

/**
 * Pairs each failure row with the sent row it is about: by phone number first (the unique key
 * of v2), then by member id. Rows repeat a phone number only in the duplicate case: F11 is the
 * answer for a LATER row whose phone number an earlier row of the same request already used
 * (docs/service-rules.md#codes), so an F11 never claims the first row with that number, and among the later
 * ones the one with the same member id, else the earliest unclaimed one, is taken. Every sent
 * row is claimed at most once.
 */
export function matchFailures<R extends SentRow>(
	failures: readonly FailureRow[],
	sent: readonly R[],
): MatchedFailures<R> {
	// Nothing to match (the usual answer): no index of the 1,000 rows sent is needed.
	if (failures.length === 0) return { matched: new Map(), unmatched: [] };
	const byPhone = new Map<string, R[]>();
	const byId = new Map<string, R[]>();
	for (const row of sent) {
		const phone = phoneKey(row.phoneNumber);
		if (phone !== undefined) byPhone.set(phone, [...(byPhone.get(phone) ?? []), row]);
		if (row.memberId !== undefined)
			byId.set(row.memberId, [...(byId.get(row.memberId) ?? []), row]);
	}
	const matched = new Map<R, Failure>();
	const unmatched: Failure[] = [];
	const free = (row: R) => !matched.has(row);
	const sameId = (failure: FailureRow) => (row: R) =>
		failure.memberId !== undefined && row.memberId === failure.memberId;

	for (const failure of failures) {
		const code = failure.code ?? '';
		const phone = phoneKey(failure.phoneNumber);
		const samePhone = phone === undefined ? [] : (byPhone.get(phone) ?? []);
		let candidates = samePhone;
		if (code === 'F11' && samePhone.length > 1) candidates = samePhone.slice(1);
		candidates = candidates.filter(free);
		let row = candidates.find(sameId(failure)) ?? candidates[0];
		if (row === undefined && failure.memberId !== undefined)
			row = (byId.get(failure.memberId) ?? []).filter(free)[0];

		let message = ruleWords(code, failure.message);
		if (row === undefined) {
			unmatched.push({
				code,
				message: `${message}. The service named a row that matches no row sent in this request.`,
				memberId: failure.memberId ?? null,
				phoneNumber: failure.phoneNumber ?? null,
			});
			continue;
		}
		const winner = samePhone[0];
		const extra: Failure = { code, message };
		if (code === 'F11' && winner !== undefined && winner !== row) {
			message += `. Input item ${winner.index}${winner.memberId !== undefined ? ` (member ID ${JSON.stringify(winner.memberId)})` : ''} has the same phone number earlier in the same request; the service kept that row and left this one out`;
			extra.message = message;
			extra.duplicateOfItem = winner.index;
		}
		matched.set(row, extra);
	}
	return { matched, unmatched };
}
