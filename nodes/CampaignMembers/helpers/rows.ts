/**
 * Member rows: reading them from items, checking the service's documented rules before
 * anything is sent, and the one output shape of a member record. Written once for v1 and v2;
 * the codes and the phone rule come from the dialect.
 */
import type { Failure } from '../../shared/outcome';
import { hyphenatedMobile, mobileDigits } from '../../shared/phone';
import { isBlank, readMemberId, scalarText } from '../../shared/values';
import { parseConsent } from '../../shared/members';
import type { MemberDialect, MemberRow } from './dialects';
import { ruleWords } from './dialects';

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
export function fieldCode(field: keyof RawMemberRow, dialect: MemberDialect): string {
	const { codes } = dialect;
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
	dialect: MemberDialect,
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
	return dialect.acceptsPhoneAsGiven(given)
		? { phone: given }
		: { problem: `${shown(given)}: ${dialect.phoneFormatHint}` };
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
	dialect: MemberDialect,
	normalize: boolean,
): Pick<RefusedRow, 'memberId' | 'phoneNumber'> {
	return identityOf(
		readMemberId(raw.memberId),
		sendablePhone(raw.phoneNumber, dialect, normalize),
		raw,
	);
}

/**
 * Checks one save row against the documented rules, in the order the service checks them, and
 * gives either the row to send or the failure with the service's own code for that rule.
 * Duplicate phone numbers are not checked here: the service decides which row wins (F11).
 */
export function checkSaveRow(
	raw: RawMemberRow,
	dialect: MemberDialect,
	normalize: boolean,
): CheckedRow {
	const id = readMemberId(raw.memberId);
	const memberId = id.ok ? id.value : undefined;
	const phone = sendablePhone(raw.phoneNumber, dialect, normalize);
	const ids = identityOf(id, phone, raw);
	const { codes } = dialect;
	const idProblem = isBlank(raw.memberId)
		? 'no member ID given'
		: id.ok
			? undefined
			: `member ID ${id.reason}`;
	if (idProblem !== undefined && 'problem' in phone) {
		return {
			failure: failure(
				codes.missingIdAndBadPhone,
				`${idProblem}, and phone number: ${phone.problem}`,
			),
			...ids,
		};
	}
	if (idProblem !== undefined) return { failure: failure(codes.missingId, idProblem), ...ids };
	if ('problem' in phone) return { failure: failure(codes.badPhone, phone.problem), ...ids };

	const consent = parseConsent(raw.isReceive);
	if (consent === undefined) {
		return {
			failure: failure(
				codes.badConsent,
				`isReceive is ${shown(raw.isReceive)}; use true/false, "true"/"false", Y/N or 1/0 (empty means refused)`,
			),
			...ids,
		};
	}

	let name: string | undefined;
	if (!isBlank(raw.name)) {
		name = scalarText(raw.name);
		if (name === undefined) {
			// The service's code for the name rule, with words that say what is wrong with this one.
			return {
				failure: {
					code: codes.nameTooLong,
					message: `The name must be text (got ${shown(raw.name)})`,
				},
				...ids,
			};
		}
		const length = [...name].length;
		if (length > MAX_NAME_LENGTH) {
			return {
				failure: failure(
					codes.nameTooLong,
					`${shown(name)} has ${length} characters, at most ${MAX_NAME_LENGTH} are allowed`,
				),
				...ids,
			};
		}
	}
	return {
		row: {
			memberId: memberId as string,
			phoneNumber: phone.phone,
			isReceive: consent.value,
			...(name !== undefined ? { name } : {}),
		},
	};
}

/** The national digits of a phone number for matching rows (falls back to the digits it has). */
export function phoneKey(phone: unknown): string | undefined {
	if (typeof phone !== 'string' && typeof phone !== 'number') return undefined;
	return mobileDigits(phone) ?? (String(phone).replace(/\D/g, '') || undefined);
}

/** The one output shape of a member record, and consent read in every form (shared/members.ts). */
export { memberRecord, parseConsent } from '../../shared/members';
