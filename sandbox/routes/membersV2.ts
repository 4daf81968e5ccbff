/**
 * Member records v2 (spec 4.4, `/v2/users/sms`). The unique key of a record is the phone number.
 */
import { MAX_ROWS, isPlainObject, parseBody, type RequestContext } from '../context';
import { envelope, type Reply } from '../envelope';
import { isV2Phone, nameTooLong, phoneDigits } from '../rules';
import type { MemberV2Record } from '../types';

const DATA_NOT_VALID = -9997;
const LIMIT_EXCEEDED = -1004;

type SaveFailureCode = 'F00' | 'F01' | 'F02' | 'F03' | 'F11';

const FAILURE_MESSAGES: Record<SaveFailureCode, string> = {
	F00: 'memberId is missing and phoneNumber does not match the format 01X-XXXX-XXXX',
	F01: 'memberId is missing',
	F02: 'phoneNumber does not match the format 01X-XXXX-XXXX',
	F03: 'name is longer than 20 characters',
	F11: 'phoneNumber repeats an earlier row of this request',
};

/**
 * GET with `memberId` and/or `phoneNumber` (neither -> -9997). By memberId: every record of that id;
 * by phone: that record (decision: the lookup compares digits, so 01012345678 finds 010-1234-5678);
 * both: records matching both. isReceive is the string "true"/"false"; no `name` field when none is
 * stored. Rows come in record creation order.
 */
export function readMembersV2(ctx: RequestContext): Reply {
	const memberId = ctx.query.memberId || undefined;
	const phone = ctx.query.phoneNumber || undefined;
	if (memberId === undefined && phone === undefined) return envelope(ctx, DATA_NOT_VALID, null);
	const rows: MemberV2Record[] = [];
	for (const [digits, record] of ctx.state.membersV2) {
		if (memberId !== undefined && record.memberId !== memberId) continue;
		if (phone !== undefined && digits !== phoneDigits(phone)) continue;
		const row: MemberV2Record = {
			memberId: record.memberId,
			phoneNumber: record.phoneNumber,
			isReceive: record.isReceive,
		};
		if (record.name !== undefined) row.name = record.name;
		rows.push(row);
	}
	return envelope(ctx, 0, rows);
}

/** Container keys accepted around the rows (spec: "container shape not shown"). */
const SAVE_CONTAINERS = ['rows', 'users', 'data', 'list'] as const;

/**
 * Rows of a save body: a bare array, `{rows|users|data|list: [...]}`, or a single row object (an
 * object with none of the container keys). A container key whose value is not an array, or a body
 * that is neither an object nor an array -> undefined (-9997).
 */
function rowsFromBody(body: unknown, containers: readonly string[]): unknown[] | undefined {
	if (Array.isArray(body)) return body;
	if (!isPlainObject(body)) return undefined;
	const key = containers.find((k) => k in body);
	if (key === undefined) return [body];
	const rows = body[key];
	return Array.isArray(rows) ? rows : undefined;
}

/** isReceive on save: "true"/"false" or a boolean; missing/null -> "false" (spec 2.5 default). */
function parseConsent(value: unknown): 'true' | 'false' | undefined {
	if (value === undefined || value === null || value === false || value === 'false') return 'false';
	if (value === true || value === 'true') return 'true';
	return undefined;
}

interface SaveFailureRow {
	memberId: unknown;
	phoneNumber: unknown;
	isReceive: unknown;
	name: unknown;
	failureCode: SaveFailureCode;
	failureMessage: string;
}

function failures<T>(ctx: RequestContext, rows: T[]): Reply {
	return envelope(ctx, 0, ctx.options.v2FailureShape === 'object' ? { failList: rows } : rows);
}

type SaveRowCheck = { ok: true; record: MemberV2Record } | { ok: false; code: SaveFailureCode };

/** One save row; `seenPhones` collects the well-formed phones of the rows before it (for F11). */
function checkSaveRow(
	row: Record<string, unknown>,
	consent: 'true' | 'false',
	seenPhones: Set<string>,
): SaveRowCheck {
	const { memberId, phoneNumber, name } = row;
	const idOk = typeof memberId === 'string' && memberId !== '';
	const phoneOk = isV2Phone(phoneNumber);
	if (!idOk && !phoneOk) return { ok: false, code: 'F00' };
	if (!phoneOk) return { ok: false, code: 'F02' };
	const digits = phoneDigits(phoneNumber);
	const repeated = seenPhones.has(digits);
	seenPhones.add(digits);
	if (!idOk) return { ok: false, code: 'F01' };
	if (repeated) return { ok: false, code: 'F11' };
	if (name !== undefined && name !== null && (typeof name !== 'string' || nameTooLong(name)))
		return { ok: false, code: 'F03' };
	const record: MemberV2Record = { memberId, phoneNumber, isReceive: consent };
	if (typeof name === 'string') record.name = name;
	return { ok: true, record };
}

/**
 * POST (save): at most 1000 rows (-1004, nothing applied: spec 4.4 rule 4, the error is "not
 * shown"). Each row gets at most one code, checked in this order:
 *   F00 no member id AND bad phone; F01 no member id; F02 bad phone; F11 the phone of an EARLIER
 *   row of this request (the first row wins, whatever became of it); F03 name over 20 characters.
 * A member id must be a non-empty string (decision: a number is F01, the field is a string).
 * A name that is not a string counts as F03 (decision: no better code exists).
 * isReceive other than "true"/"false"/true/false/missing -> -9997 for the whole request (no row
 * code fits; decision).
 * Correct rows create the record of their phone or change it (memberId, isReceive and name are
 * replaced; a name not sent is no longer stored). processCode is always 0; processValue holds the
 * failure rows in request order (fields as sent, null when absent), an empty array when none.
 */
function saveMembersV2(ctx: RequestContext): Reply {
	const parsed = parseBody(ctx.rawBody);
	if (parsed.kind !== 'json') return envelope(ctx, DATA_NOT_VALID, null);
	const rows = rowsFromBody(parsed.value, SAVE_CONTAINERS);
	if (rows === undefined) return envelope(ctx, DATA_NOT_VALID, null);
	if (rows.length > MAX_ROWS) return envelope(ctx, LIMIT_EXCEEDED, null);

	const seenPhones = new Set<string>();
	const failed: SaveFailureRow[] = [];
	const records: Array<[string, MemberV2Record]> = [];
	for (const raw of rows) {
		const row = isPlainObject(raw) ? raw : {};
		const consent = parseConsent(row.isReceive);
		if (consent === undefined) return envelope(ctx, DATA_NOT_VALID, raw);
		const check = checkSaveRow(row, consent, seenPhones);
		if (check.ok) {
			records.push([phoneDigits(check.record.phoneNumber), check.record]);
			continue;
		}
		failed.push({
			memberId: row.memberId ?? null,
			phoneNumber: row.phoneNumber ?? null,
			isReceive: row.isReceive ?? null,
			name: row.name ?? null,
			failureCode: check.code,
			failureMessage: FAILURE_MESSAGES[check.code],
		});
	}
	for (const [digits, record] of records) ctx.state.membersV2.set(digits, record);
	return failures(ctx, failed);
}

interface DeleteFailureRow {
	memberId?: unknown;
	phoneNumber: unknown;
	failureCode: 'F02';
	failureMessage: string;
}

/** Container keys accepted around delete rows. */
const DELETE_CONTAINERS = ['phoneNumbers', 'rows', 'users', 'data', 'list'] as const;

/**
 * POST `?delete`: the container is "not shown", so all of these are accepted: `{phoneNumber}`,
 * `{phoneNumber: [..]}`, `[{phoneNumber}, ...]`, `["010-...", ...]`, `{phoneNumbers: [...]}`,
 * `{rows|users|data|list: [...]}`. More than 1000 rows -> -1004; a body that is not JSON, or neither
 * object nor array -> -9997. Each row whose phone is missing or not `01X-XXX(X)-XXXX` is a failure
 * row `{memberId? (when the row had one), phoneNumber, failureCode: 'F02', failureMessage}`.
 * A well-formed phone without a record is not an error (nothing to delete).
 */
function deleteMembersV2(ctx: RequestContext): Reply {
	const parsed = parseBody(ctx.rawBody);
	if (parsed.kind !== 'json') return envelope(ctx, DATA_NOT_VALID, null);
	const body = parsed.value;
	let rows: unknown[] | undefined;
	if (isPlainObject(body) && Array.isArray(body.phoneNumber)) rows = body.phoneNumber;
	else rows = rowsFromBody(body, DELETE_CONTAINERS);
	if (rows === undefined) return envelope(ctx, DATA_NOT_VALID, null);
	if (rows.length > MAX_ROWS) return envelope(ctx, LIMIT_EXCEEDED, null);

	const failed: DeleteFailureRow[] = [];
	for (const raw of rows) {
		const row: Record<string, unknown> = isPlainObject(raw) ? raw : { phoneNumber: raw };
		const phone = row.phoneNumber;
		if (!isV2Phone(phone)) {
			const failure: DeleteFailureRow = {
				phoneNumber: phone ?? null,
				failureCode: 'F02',
				failureMessage: FAILURE_MESSAGES.F02,
			};
			if (row.memberId !== undefined) failure.memberId = row.memberId;
			failed.push(failure);
			continue;
		}
		ctx.state.membersV2.delete(phoneDigits(phone));
	}
	return failures(ctx, failed);
}

export function postMembersV2(ctx: RequestContext): Reply {
	return 'delete' in ctx.query ? deleteMembersV2(ctx) : saveMembersV2(ctx);
}
