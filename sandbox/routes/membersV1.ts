/**
 * Member records v1 (spec 4.3, `/v1/users/sms`).
 */
import { MAX_ROWS, isPlainObject, parseBody, type RequestContext } from '../context';
import { envelope, type Reply } from '../envelope';
import { hyphenatePhone, isV1Phone, nameTooLong, phoneDigits } from '../rules';
import type { MemberV1Record } from '../types';

const DATA_NOT_VALID = -9997;
const LIMIT_EXCEEDED = -1004;
const BAD_MEMBER_ID = -1006;
const BAD_PHONE = -1007;
const CONSENT_MISSING = -1012;
const NAME_TOO_LONG = -1013;

/**
 * GET with `memberId` and/or `phoneNumber` (neither, or both empty -> -9997). With both, a record
 * must match both. The phone lookup compares digits only, so 010-1234-5678 finds 01012345678.
 * Rows: `{memberId, phoneNumber (hyphenated), isReceive (boolean), name?}`; the `name` field is
 * left out when no name is stored (spec 2.4: "none is returned").
 */
export function readMembersV1(ctx: RequestContext): Reply {
	const memberId = ctx.query.memberId || undefined;
	const phone = ctx.query.phoneNumber || undefined;
	if (memberId === undefined && phone === undefined) return envelope(ctx, DATA_NOT_VALID, null);
	const rows: MemberV1Record[] = [];
	for (const record of ctx.state.membersV1.values()) {
		if (memberId !== undefined && record.memberId !== memberId) continue;
		if (phone !== undefined && phoneDigits(record.phoneNumber) !== phoneDigits(phone)) continue;
		const row: MemberV1Record = {
			memberId: record.memberId,
			phoneNumber: hyphenatePhone(record.phoneNumber),
			isReceive: record.isReceive,
		};
		if (record.name !== undefined) row.name = record.name;
		rows.push(row);
	}
	return envelope(ctx, 0, rows);
}

/**
 * isReceive on save (spec 2.4: boolean; Y = true, N = false). Accepted: true/false, "Y"/"N",
 * "true"/"false" (any case). Missing or null -> -1012 (the spec lists the field as required and
 * also says a missing value means refused; the sandbox takes the strict reading so a client has
 * to send it). Anything else -> -9997.
 */
function parseConsent(value: unknown): boolean | typeof CONSENT_MISSING | typeof DATA_NOT_VALID {
	if (value === undefined || value === null) return CONSENT_MISSING;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const v = value.trim().toLowerCase();
		if (v === 'y' || v === 'true') return true;
		if (v === 'n' || v === 'false') return false;
	}
	return DATA_NOT_VALID;
}

type RowCheck = { ok: true; record: MemberV1Record } | { ok: false; code: number };

/** The checks of one save row, in this order: member id, phone, consent, name, hidden rejections. */
function checkRow(ctx: RequestContext, row: unknown): RowCheck {
	if (!isPlainObject(row)) return { ok: false, code: DATA_NOT_VALID };
	const { memberId, phoneNumber, isReceive, name } = row;
	if (typeof memberId !== 'string' || memberId === '') return { ok: false, code: BAD_MEMBER_ID };
	if (!isV1Phone(phoneNumber)) return { ok: false, code: BAD_PHONE };
	const consent = parseConsent(isReceive);
	if (typeof consent !== 'boolean') return { ok: false, code: consent };
	if (name !== undefined && name !== null && typeof name !== 'string')
		return { ok: false, code: DATA_NOT_VALID };
	if (typeof name === 'string' && nameTooLong(name)) return { ok: false, code: NAME_TOO_LONG };
	const hidden = ctx.state.v1RejectMemberIds.get(memberId);
	if (hidden !== undefined) return { ok: false, code: hidden };
	const record: MemberV1Record = { memberId, phoneNumber, isReceive: consent };
	if (typeof name === 'string') record.name = name;
	return { ok: true, record };
}

/**
 * POST (save or update): an array of member rows (anything else -> -9997), at most 1000 (-1004).
 * Every row is validated first; the FIRST offending row rejects the WHOLE request, nothing is
 * stored, and processValue carries that row as sent (spec 7.2: "failure responses can carry the
 * failed data"). On success processValue is null ("no value").
 * A save replaces the member's record: the phone becomes the one sent (spec 4.3 rule 1) and a
 * name not sent is no longer stored. When a request names the same member twice, the later row wins.
 */
function saveMembersV1(ctx: RequestContext): Reply {
	const parsed = parseBody(ctx.rawBody);
	if (parsed.kind !== 'json' || !Array.isArray(parsed.value))
		return envelope(ctx, DATA_NOT_VALID, null);
	const rows = parsed.value;
	if (rows.length > MAX_ROWS) return envelope(ctx, LIMIT_EXCEEDED, null);
	const records: MemberV1Record[] = [];
	for (const row of rows) {
		const check = checkRow(ctx, row);
		if (!check.ok) return envelope(ctx, check.code, row);
		records.push(check.record);
	}
	for (const record of records) ctx.state.membersV1.set(record.memberId, record);
	return envelope(ctx, 0, null);
}

function isMemberId(value: unknown): value is string {
	return typeof value === 'string' && value !== '';
}

/**
 * Member ids of a delete-by-POST body. The container is "not shown" (spec 4.4 last line), so all of
 * these are accepted: `{memberId: "a"}`, `{memberId: ["a","b"]}`, `{memberIds: [...]}`,
 * `[{memberId: "a"}, ...]`, `["a", ...]`.
 */
function deleteIdsFromBody(body: unknown): unknown[] | undefined {
	if (Array.isArray(body)) return body.map((item) => (isPlainObject(item) ? item.memberId : item));
	if (!isPlainObject(body)) return undefined;
	const value = body.memberIds ?? body.memberId;
	if (value === undefined || value === null) return [];
	return Array.isArray(value) ? value : [value];
}

/**
 * POST `?delete`: removes all information of the member ids named (spec 4.3 rule 2). No id, or an
 * id that is not a non-empty string -> -1006; a body that is not an object or array -> -9997; more
 * than 1000 ids -> -1004. Unknown ids are not an error.
 */
function deleteByPostV1(ctx: RequestContext): Reply {
	const parsed = parseBody(ctx.rawBody);
	if (parsed.kind === 'invalid') return envelope(ctx, DATA_NOT_VALID, null);
	if (parsed.kind === 'empty') return envelope(ctx, BAD_MEMBER_ID, null);
	const ids = deleteIdsFromBody(parsed.value);
	if (ids === undefined) return envelope(ctx, DATA_NOT_VALID, null);
	if (ids.length > MAX_ROWS) return envelope(ctx, LIMIT_EXCEEDED, null);
	if (ids.length === 0 || !ids.every(isMemberId)) return envelope(ctx, BAD_MEMBER_ID, parsed.value);
	for (const id of ids) ctx.state.membersV1.delete(id);
	return envelope(ctx, 0, null);
}

export function postMembersV1(ctx: RequestContext): Reply {
	return 'delete' in ctx.query ? deleteByPostV1(ctx) : saveMembersV1(ctx);
}

/**
 * DELETE: body array of member ids (anything else -> -9997), at most 1000 (-1004); an element that
 * is not a non-empty string -> -1006 (nothing deleted). processValue null.
 */
export function deleteMembersV1(ctx: RequestContext): Reply {
	const parsed = parseBody(ctx.rawBody);
	if (parsed.kind !== 'json' || !Array.isArray(parsed.value))
		return envelope(ctx, DATA_NOT_VALID, null);
	const ids = parsed.value;
	if (ids.length > MAX_ROWS) return envelope(ctx, LIMIT_EXCEEDED, null);
	if (!ids.every(isMemberId)) return envelope(ctx, BAD_MEMBER_ID, null);
	for (const id of ids) ctx.state.membersV1.delete(id);
	return envelope(ctx, 0, null);
}
