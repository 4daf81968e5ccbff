/**
 * What differs between member API v1 and v2 on the wire, in one place (`MEMBER_APIS`, one
 * `MemberApi` per version). Everything else (reading rows, checking them, chunking, finding a
 * refused row by halving, routing to the outputs) is written once in the operations and works
 * through this table.
 */
import type { IDataObject } from 'n8n-workflow';
import { isHyphenatedMobile, mobileDigits } from '../../shared/phone';
import type { ApiVersion } from '../../shared/members';
import { MEMBER_PATHS } from '../../shared/members';
import type { ApiCall } from '../../shared/transport';

export type { ApiVersion } from '../../shared/members';

/** The service's code for each rule the node checks before sending (docs/service-rules.md#codes). */
export interface RuleCodes {
	missingId: string;
	badPhone: string;
	/** No member id AND a bad phone number. */
	missingIdAndBadPhone: string;
	/** isReceive given in a form that is neither consent nor refusal. */
	badConsent: string;
	nameTooLong: string;
}

/** One member row after validation, in the node's own terms (not yet the wire form). */
export interface MemberRow {
	memberId: string;
	/** As it will be sent (hyphenated when normalisation is on). */
	phoneNumber: string;
	isReceive: boolean;
	/** Omitted when no name is given: the service then stores none (docs/service-rules.md#members). */
	name?: string;
}

/** One member API version: its path, its codes, and how its requests are written. */
export interface MemberApi {
	version: ApiVersion;
	path: string;
	codes: RuleCodes;
	/** The wire form of a save row: v1 sends isReceive as a boolean, v2 as the string "true"/"false". */
	saveRow(row: MemberRow): IDataObject;
	/** With phone normalisation off: whether a phone number may be sent exactly as given. */
	acceptsPhoneAsGiven(phone: string): boolean;
	/** What the node says when a phone number given as-is is refused (normalisation off). */
	phoneFormatHint: string;
	/** What a delete names a member by: the key of the version (also the parameter's name). */
	deleteKey: 'memberId' | 'phoneNumber';
	/** Whether a delete may remove all information of a member (the Delete All Information option). */
	deletesAllInformation: boolean;
	/** The request deleting the members of these keys (one key when `allInformation`). */
	deleteCall(keys: readonly string[], allInformation: boolean): ApiCall;
}

/**
 * Each rule's code in v1 and v2 (docs/service-rules.md#codes). v1 checks in the order of its
 * member codes: id -1006, phone -1007, consent -1012, name -1013; with both id and phone wrong,
 * the row gets the id's code. v2 has no row code for a consent value that is neither "true" nor
 * "false"; the service refuses such a request as "data is not valid" (-9997), so that is the code used.
 */
const RULE_CODES: Readonly<Record<keyof RuleCodes, Readonly<Record<ApiVersion, string>>>> = {
	missingId: { v1: '-1006', v2: 'F01' },
	badPhone: { v1: '-1007', v2: 'F02' },
	missingIdAndBadPhone: { v1: '-1006', v2: 'F00' },
	badConsent: { v1: '-1012', v2: '-9997' },
	nameTooLong: { v1: '-1013', v2: 'F03' },
};

/** One version's column of RULE_CODES. */
function codesOf(version: ApiVersion): RuleCodes {
	const codes = {} as RuleCodes;
	for (const rule of Object.keys(RULE_CODES) as Array<keyof RuleCodes>) {
		codes[rule] = RULE_CODES[rule][version];
	}
	return codes;
}

/** The wire form of a save row, with isReceive in the form the version sends. */
const saveRowAs =
	(isReceive: (consent: boolean) => boolean | string) =>
	(row: MemberRow): IDataObject => ({
		memberId: row.memberId,
		phoneNumber: row.phoneNumber,
		isReceive: isReceive(row.isReceive),
		...(row.name !== undefined ? { name: row.name } : {}),
	});

const v1Path = MEMBER_PATHS.v1;
const v1: MemberApi = {
	version: 'v1',
	path: v1Path,
	codes: codesOf('v1'),
	// v1 rejects a missing field with -1012 although it calls absence "refused": always sent.
	saveRow: saveRowAs((consent) => consent),
	// v1 reads any Korean mobile number (it answers in the hyphenated form whatever was stored).
	acceptsPhoneAsGiven: (phone) => mobileDigits(phone) !== undefined,
	phoneFormatHint: 'expected a Korean mobile number such as 010-1234-5678',
	deleteKey: 'memberId',
	deletesAllInformation: true,
	deleteCall: (keys, allInformation) =>
		allInformation
			? // Delete by POST takes the single field `memberId` (docs/service-rules.md#members): one member per request.
				{ method: 'POST', path: v1Path, qs: { delete: '' }, body: { memberId: keys[0] } }
			: { method: 'DELETE', path: v1Path, body: [...keys] },
};

const v2Path = MEMBER_PATHS.v2;
const v2: MemberApi = {
	version: 'v2',
	path: v2Path,
	codes: codesOf('v2'),
	saveRow: saveRowAs((consent) => (consent ? 'true' : 'false')),
	// v2: "-" is the only separator allowed (docs/service-rules.md#members).
	acceptsPhoneAsGiven: (phone) => isHyphenatedMobile(phone),
	phoneFormatHint:
		'member API v2 accepts only the hyphenated form such as 010-1234-5678 (turn on the Normalize Phone Numbers option to convert it)',
	deleteKey: 'phoneNumber',
	deletesAllInformation: false,
	// The body container is not documented (docs/service-rules.md#envelope): only the field
	// `phoneNumber` (a string) is documented, while the answer speaks of rows ("erroneous rows are
	// returned... correct rows are processed"), so one request may carry several. Several rows go
	// as an array of `{phoneNumber}` objects, the same container the save of the same resource
	// takes, which keeps each row in the documented field shape and lets deletes be batched like
	// saves; a single row goes as exactly the documented object, so Batch Size 1 never depends on
	// the guess. The query `delete` is sent with an empty value, as documented.
	deleteCall: (keys) => ({
		method: 'POST',
		path: v2Path,
		qs: { delete: '' },
		body:
			keys.length === 1 ? { phoneNumber: keys[0] } : keys.map((phoneNumber) => ({ phoneNumber })),
	}),
};

export const MEMBER_APIS: Readonly<Record<ApiVersion, MemberApi>> = { v1, v2 };
