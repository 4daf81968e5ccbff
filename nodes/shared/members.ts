/**
 * Member records as the member API reads them, for every node that reads or writes them, or sends
 * to a member ID: the two versions' paths, which version a credential means, the member id rule of
 * a send, the records of a read's answer, and the one output shape of a record.
 */
import type { IDataObject } from 'n8n-workflow';
import { listIn } from './answers';
import type { Checked } from './values';
import { paddingRule, unseenRule } from './unicode';
import { isBlank, isObject, readMemberId, typeName } from './values';

export type ApiVersion = 'v1' | 'v2';

/** Where each version's member records live (docs/service-rules.md#members). */
export const MEMBER_PATHS: Readonly<Record<ApiVersion, string>> = {
	v1: '/v1/users/sms',
	v2: '/v2/users/sms',
};

/** The member API a credential's Member API Version names: v2 when it says Any. */
export const versionOf = (credentialVersion: 'any' | ApiVersion): ApiVersion =>
	credentialVersion === 'v1' ? 'v1' : 'v2';

/**
 * The member id rule of a send to a member (docs/ai-agents.md, "What holds against a hostile
 * model"): the one rule of shared/values.ts, but an id is refused, never trimmed, when it starts or
 * ends with a space or holds a character nobody sees (unicode.ts: by Unicode property, on the id
 * as given and NFKC folded). A key built from the id the caller gave
 * (`notice-{{ $fromAI('memberId') }}`) then names the one id that is looked up, and the lookup
 * (which must answer a record of exactly that id) one record.
 */
export function readRecipientId(value: unknown): Checked<string> {
	const id = readMemberId(value);
	if (!id.ok || typeof value !== 'string') return id;
	const reason = paddingRule(value) ?? unseenRule(value);
	return reason === undefined ? id : { ok: false, reason };
}

/**
 * Receive consent in every form a workflow is likely to hold: booleans, "true"/"false",
 * "Y"/"N" (the service's own wording) and 1/0, strings in any case. Absent (undefined,
 * null, empty text) means refused (docs/service-rules.md#members). Anything else: `undefined`.
 */
export function parseConsent(value: unknown): { value: boolean; given: boolean } | undefined {
	if (isBlank(value)) return { value: false, given: false };
	if (typeof value === 'boolean') return { value, given: true };
	if (typeof value === 'number') {
		if (value === 1) return { value: true, given: true };
		if (value === 0) return { value: false, given: true };
		return undefined;
	}
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (text === 'true' || text === 'y' || text === '1') return { value: true, given: true };
		if (text === 'false' || text === 'n' || text === '0') return { value: false, given: true };
	}
	return undefined;
}

/**
 * The one output shape of a member record, whichever version produced it:
 * `{ memberId, phoneNumber, isReceive: boolean, name: string | null, apiVersion }`.
 * v1 answers isReceive as a boolean, v2 as "true"/"false" (docs/service-rules.md#members).
 */
export function memberRecord(raw: IDataObject, version: ApiVersion): IDataObject {
	const consent = parseConsent(raw.isReceive);
	const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : null;
	return {
		memberId: raw.memberId === undefined || raw.memberId === null ? null : String(raw.memberId),
		phoneNumber:
			raw.phoneNumber === undefined || raw.phoneNumber === null ? null : String(raw.phoneNumber),
		isReceive: consent?.value ?? false,
		name,
		apiVersion: version,
	};
}

/**
 * The member records of a read: a bare array, an object wrapping one, or one record object; no
 * value (or an empty object) means none found. Anything else (a text, a number, an object that
 * is no record, a record without memberId and phoneNumber) is `invalid`, said in words: read as
 * "none found", it would silently hide what the service answered.
 */
export function recordsOf(processValue: unknown): IDataObject[] | { invalid: string } {
	if (processValue === null || processValue === undefined) return [];
	const list = listIn(processValue);
	let records: unknown[];
	if (list !== undefined) records = list;
	else if (isObject(processValue) && ('memberId' in processValue || 'phoneNumber' in processValue))
		records = [processValue];
	else if (isObject(processValue) && Object.keys(processValue).length === 0) return [];
	else return { invalid: `its processValue is ${typeName(processValue)}` };
	const blank = (value: unknown) => value === undefined || value === null || value === '';
	for (const [n, record] of records.entries()) {
		if (!isObject(record)) return { invalid: `record ${n + 1} is ${typeName(record)}` };
		if (blank(record.memberId) && blank(record.phoneNumber))
			return { invalid: `record ${n + 1} has neither memberId nor phoneNumber` };
	}
	return records as IDataObject[];
}
