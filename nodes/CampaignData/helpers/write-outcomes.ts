/**
 * A write's outcomes: one register/change answer -> the outcomes of the members it carried
 * (done: stored, failed: not stored or not known). Pure: the result and the rows in, new outcomes
 * out.
 */
import { ROW_CODES } from './advice';
import type { IDataObject } from 'n8n-workflow';
import { describeRowCode } from '../../shared/codes';
import type { Outcome } from '../../shared/outcome';
import { done, failed } from '../../shared/outcome';
import type { ApiResult } from '../../shared/transport';
import { jsonSafe, setField } from '../../shared/values';
import type { FailureRow } from '../../shared/answers';
import { readFailureRows } from '../../shared/answers';
import type { DataApi } from './api-versions';
import { failChunk, readCount } from './results';
import type { MergedMember } from './write-plan';
import { keySources } from './write-plan';

const hasKey = (row: MergedMember, key: string): boolean =>
	Object.prototype.hasOwnProperty.call(row.values, key);

/** The `{ key: value }` object of some of a member's keys. */
function valuesOf(row: MergedMember, keys: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const key of keys) setField(out, key, row.values[key]);
	return out;
}

export function reportWrite(
	api: DataApi,
	rows: readonly MergedMember[],
	result: ApiResult,
): Outcome[] {
	if (result.code !== '0' && result.code !== '1') {
		return failChunk(
			rows.map((row) => ({
				memberId: row.memberId,
				sources: row.sources,
				fields: { keys: row.keys },
			})),
			result,
		);
	}
	const failures = readFailureRows(result.processValue);
	if (failures !== undefined && failures.length > 0) return reportFailureRows(rows, failures);
	if (result.code === '1') {
		// "Partial success" without a readable list: nothing can be claimed as stored.
		return rows.map((row) =>
			failed(
				{
					code: '1',
					message:
						'The service answered "partial success" without saying which entries failed: these entries may or may not be stored',
					memberId: row.memberId,
					keys: row.keys,
				},
				row.sources,
			),
		);
	}
	const count = readCount(result.processValue);
	if (api.writeResult === 'count' || count !== undefined) return reportCount(rows, count);
	return rows.map((row) =>
		done({ memberId: row.memberId, keys: row.keys, values: row.values }, row.sources),
	);
}

/** What the failure rows of one answer said, member by member (reportFailureRows). */
interface FailureTally {
	/** The keys of a member that failed, or 'all' when a row named none of the keys sent. */
	failedKeys: Map<string, Set<string> | 'all'>;
	/** The first failure of a member, with the items paired to it so far. */
	firstFailure: Map<string, { outcome: Outcome; indexes: Set<number> }>;
	/** A failure row named no member of the request: no member's outcome can be claimed. */
	unattributed: boolean;
}

/**
 * v2 partial success: each failure row fails, paired to the items that gave that key of that
 * member; the keys not listed were stored and are done, one outcome per member.
 */
function reportFailureRows(rows: readonly MergedMember[], failures: FailureRow[]): Outcome[] {
	const byId = new Map(rows.map((row) => [row.memberId, row]));
	const everySource = [...new Set(rows.flatMap((row) => row.sources))];
	const tally: FailureTally = {
		failedKeys: new Map(),
		firstFailure: new Map(),
		unattributed: false,
	};
	const out: Outcome[] = [];
	for (const failure of failures) {
		const member = failure.memberId === undefined ? undefined : byId.get(failure.memberId);
		const known =
			member && failure.key !== undefined && hasKey(member, failure.key) ? failure.key : undefined;
		const outcome = failureOutcome(failure, member, known, everySource);
		out.push(outcome);
		tallyFailure(tally, outcome, member, known);
	}
	for (const row of rows) {
		const stored = storedOf(row, tally);
		if (stored !== undefined) out.push(stored);
	}
	return out;
}

/** The Failed outcome of one failure row, paired to the items of its key, member or request. */
function failureOutcome(
	failure: FailureRow,
	member: MergedMember | undefined,
	known: string | undefined,
	everySource: number[],
): Outcome {
	const code = failure.code ?? '1';
	const sources = member
		? known !== undefined
			? keySources(member, known)
			: member.sources
		: everySource;
	const unknownMember = member
		? ''
		: '. The service named no member of this request, so which entries of this request were stored is unknown';
	const value =
		failure.value !== undefined
			? failure.value
			: known !== undefined && member
				? member.values[known]
				: undefined;
	return failed(
		{
			code,
			message: `${describeRowCode(ROW_CODES, code, failure.message)}${unknownMember}`,
			memberId: failure.memberId ?? null,
			key: failure.key ?? null,
			value: jsonSafe(value),
		},
		sources,
	);
}

/** Records which keys of a member failed, and its first failure with the items paired to it. */
function tallyFailure(
	tally: FailureTally,
	outcome: Outcome,
	member: MergedMember | undefined,
	known: string | undefined,
): void {
	if (!member) {
		tally.unattributed = true;
		return;
	}
	const failedSoFar = tally.failedKeys.get(member.memberId);
	if (known === undefined) {
		// A row that names no key we sent: the member's outcome is unknown, claim nothing for it.
		tally.failedKeys.set(member.memberId, 'all');
	} else if (failedSoFar !== 'all') {
		tally.failedKeys.set(member.memberId, (failedSoFar ?? new Set<string>()).add(known));
	}
	const sources = typeof outcome.inputs === 'number' ? [outcome.inputs] : outcome.inputs;
	const first = tally.firstFailure.get(member.memberId);
	if (first) sources.forEach((s) => first.indexes.add(s));
	else tally.firstFailure.set(member.memberId, { outcome, indexes: new Set(sources) });
}

/**
 * The Success outcome of a member's keys not listed as failed. When nothing of it was stored,
 * the items of this member that no failure row is paired to yet (e.g. an item that gave only the
 * member id) are paired to its first failure instead.
 */
function storedOf(row: MergedMember, tally: FailureTally): Outcome | undefined {
	const notStored = tally.failedKeys.get(row.memberId);
	const stored =
		notStored === 'all' || tally.unattributed ? [] : row.keys.filter((key) => !notStored?.has(key));
	if (stored.length > 0) {
		const values = stored.length === row.keys.length ? row.values : valuesOf(row, stored);
		return done({ memberId: row.memberId, keys: stored, values }, row.sources);
	}
	const first = tally.firstFailure.get(row.memberId);
	if (!first) return undefined;
	const missing = row.sources.filter((s) => !first.indexes.has(s));
	if (missing.length > 0)
		first.outcome.inputs = [...first.indexes, ...missing].sort((a, b) => a - b);
	return undefined;
}

/**
 * v1: the service tells how many entries it stored, not which. Each member is done, with what
 * was sent and what the request's count confirms; a short count is said plainly.
 */
function reportCount(rows: readonly MergedMember[], count: number | undefined): Outcome[] {
	const sent = rows.reduce((sum, row) => sum + row.keys.length, 0);
	const confirmed = count !== undefined && count >= sent;
	const warning =
		count === undefined
			? `The service did not say how many of the ${sent} entries sent in this request it stored`
			: count < sent
				? `The service confirmed storing ${count} of the ${sent} entries sent in this request, without saying which: some entries of this member may not be stored (a key the service does not know, or a value that does not match the key's format)`
				: undefined;
	return rows.map((row) => {
		const json: IDataObject = {
			memberId: row.memberId,
			keys: row.keys,
			values: row.values,
			confirmed,
			batchSentCount: sent,
			batchStoredCount: count ?? null,
			...(warning ? { warning } : {}),
		};
		return done(json, row.sources);
	});
}
