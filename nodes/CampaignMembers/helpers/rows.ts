/**
 * Member rows: reading them from items, checking the service's documented rules before
 * anything is sent, and the one output shape of a member record. Written once for v1 and v2;
 * the codes and the phone rule come from the member API version (api-versions.ts).
 */
import type { Failure } from '../../shared/outcome';
import { hyphenatedMobile, mobileDigits } from '../../shared/phone';
import { isBlank, readMemberId, scalarText } from '../../shared/values';
import { parseConsent } from '../../shared/members';
import type { MemberApi, MemberRow } from './api-versions';
import { ruleWords } from './advice';

/** The documented name limit (docs/service-rules.md#limits), counted in characters. */
export const MAX_NAME_LENGTH = 20;

/** A row as given, before any check. */
export interface RawMemberRow {
	memberId: unknown;
	phoneNumber: unknown;
	isReceive: unknown;
	name: unknown;
}

/** A row refused before sending, with the identifying fields its Failed item carries. */
export interface RefusedRow {
	failure: Failure;
	memberId: string | null;
	phoneNumber: string | null;
}

export type CheckedRow = { row: MemberRow } | RefusedRow;

/** The four member fields of an object (an input item's JSON, or the values of a mapper). */
export function rawRowOf(json: Readonly<Record<string, unknown>>): RawMemberRow {
	return {
		memberId: json.memberId,
		phoneNumber: json.phoneNumber,
		isReceive: json.isReceive,
		name: json.name,
	};
}

/**
 * The service's code for a problem of one field of a save row (docs/service-rules.md#codes): the
 * code of that field's rule, whoever found the problem.
 */
export function fieldCode(field: keyof RawMemberRow, api: MemberApi): string {
	const { codes } = api;
	const byField = {
		memberId: codes.missingId,
		phoneNumber: codes.badPhone,
		isReceive: codes.badConsent,
		name: codes.nameTooLong,
	};
	return byField[field];
}

/** How a value is shown inside a message. */
export function shown(value: unknown): string {
	if (typeof value === 'string') return JSON.stringify(value);
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

/** Normalises a phone number for sending, or says why it cannot be one. */
export function sendablePhone(
	raw: unknown,
	api: MemberApi,
	normalize: boolean,
): { phone: string } | { problem: string } {
	const given = scalarText(raw);
	if (given === undefined) return { problem: 'no phone number given' };
	if (normalize) {
		const hyphenated = hyphenatedMobile(given);
		return hyphenated === undefined
			? {
					problem: `${shown(given)} cannot be a Korean mobile number (expected e.g. 010-1234-5678)`,
				}
			: { phone: hyphenated };
	}
	return api.acceptsPhoneAsGiven(given)
		? { phone: given }
		: { problem: `${shown(given)}: ${api.phoneFormatHint}` };
}

function failure(code: string, detail: string): Failure {
	return { code, message: `${ruleWords(code)}: ${detail}` };
}

function identityOf(
	id: ReturnType<typeof readMemberId>,
	phone: ReturnType<typeof sendablePhone>,
	raw: RawMemberRow,
): Pick<RefusedRow, 'memberId' | 'phoneNumber'> {
	return {
		memberId: id.ok ? id.value : null,
		phoneNumber: 'phone' in phone ? phone.phone : (scalarText(raw.phoneNumber) ?? null),
	};
}

/** The identifying fields of a row's Failed item (the phone number as it would be sent). */
export function rowIdentity(
	raw: RawMemberRow,
	api: MemberApi,
	normalize: boolean,
): Pick<RefusedRow, 'memberId' | 'phoneNumber'> {
	return identityOf(
		readMemberId(raw.memberId),
		sendablePhone(raw.phoneNumber, api, normalize),
		raw,
	);
}

/**
 * Checks one save row against the documented rules, in the order the service checks them, and
 * gives either the row to send or the failure with the service's own code for that rule.
 * Duplicate phone numbers are not checked here: the service decides which row wins (F11).
 */
export function checkSaveRow(raw: RawMemberRow, api: MemberApi, normalize: boolean): CheckedRow {
	const id = readMemberId(raw.memberId);
	const phone = sendablePhone(raw.phoneNumber, api, normalize);
	const refuse = (failure: Failure): CheckedRow => ({ failure, ...identityOf(id, phone, raw) });
	// keyFailure names every problem of the id and the phone: when it names none, both are usable.
	const keyProblem = keyFailure(raw, id, phone, api);
	if (keyProblem !== undefined || !id.ok || 'problem' in phone)
		return refuse(keyProblem as Failure);
	const consent = parseConsent(raw.isReceive);
	if (consent === undefined) {
		return refuse(
			failure(
				api.codes.badConsent,
				`isReceive is ${shown(raw.isReceive)}; use true/false, "true"/"false", Y/N or 1/0 (empty means refused)`,
			),
		);
	}
	const name = nameOf(raw.name, api);
	if (name !== undefined && typeof name !== 'string') return refuse(name);
	return {
		row: {
			memberId: id.value,
			phoneNumber: phone.phone,
			isReceive: consent.value,
			...(name !== undefined ? { name } : {}),
		},
	};
}

/** The failure of a row's member id and phone number (both, or either), if any. */
function keyFailure(
	raw: RawMemberRow,
	id: ReturnType<typeof readMemberId>,
	phone: ReturnType<typeof sendablePhone>,
	{ codes }: MemberApi,
): Failure | undefined {
	const idProblem = isBlank(raw.memberId)
		? 'no member ID given'
		: id.ok
			? undefined
			: `member ID ${id.reason}`;
	if (idProblem !== undefined && 'problem' in phone) {
		return failure(codes.missingIdAndBadPhone, `${idProblem}, and phone number: ${phone.problem}`);
	}
	if (idProblem !== undefined) return failure(codes.missingId, idProblem);
	if ('problem' in phone) return failure(codes.badPhone, phone.problem);
	return undefined;
}

/** The name to send (undefined: none given), or the failure of the name rule. */
function nameOf(given: unknown, { codes }: MemberApi): string | Failure | undefined {
	if (isBlank(given)) return undefined;
	const name = scalarText(given);
	if (name === undefined) {
		// The service's code for the name rule, with words that say what is wrong with this one.
		return { code: codes.nameTooLong, message: `The name must be text (got ${shown(given)})` };
	}
	const length = [...name].length;
	if (length <= MAX_NAME_LENGTH) return name;
	return failure(
		codes.nameTooLong,
		`${shown(name)} has ${length} characters, at most ${MAX_NAME_LENGTH} are allowed`,
	);
}

/** The national digits of a phone number for matching rows (falls back to the digits it has). */
export function phoneKey(phone: unknown): string | undefined {
	if (typeof phone !== 'string' && typeof phone !== 'number') return undefined;
	return mobileDigits(phone) ?? (String(phone).replace(/\D/g, '') || undefined);
}

/** The one output shape of a member record, and consent read in every form (shared/members.ts). */
export { memberRecord, parseConsent } from '../../shared/members';
