/**
 * Generators of the member properties: phone numbers, consents and names, each from a table
 * that states what the member APIs do with it (so models-members.ts stays small), the records
 * already stored, and the member items built from those tables.
 */
import fc from 'fast-check';

/**
 * Phone numbers with what each member API does with them:
 * - `normalized`: the hyphenated form the node sends with Normalize Phone Numbers on (null: the
 *   node refuses it);
 * - `v1`: with normalization off, member API v1: `ok` accepted as given, `node` refused by the
 *   node, `service` sent as given and refused by the service (-1007);
 * - `v2`: with normalization off, member API v2 accepts it as given (only 01X-XXX(X)-XXXX).
 */
export const PHONES: Array<{
	given: unknown;
	normalized: string | null;
	v1: 'ok' | 'node' | 'service';
	v2: boolean;
}> = [
	{ given: '010-1234-5678', normalized: '010-1234-5678', v1: 'ok', v2: true },
	{ given: '01012345678', normalized: '010-1234-5678', v1: 'ok', v2: false },
	{ given: '010 1234 5678', normalized: '010-1234-5678', v1: 'ok', v2: false },
	{ given: ' 010-1234-5678 ', normalized: '010-1234-5678', v1: 'ok', v2: true },
	{ given: '+82 10-1234-5678', normalized: '010-1234-5678', v1: 'service', v2: false },
	{ given: '821012345678', normalized: '010-1234-5678', v1: 'service', v2: false },
	{ given: '010-9999-0000', normalized: '010-9999-0000', v1: 'ok', v2: true },
	{ given: '011-123-4567', normalized: '011-123-4567', v1: 'ok', v2: true },
	{ given: '0111234567', normalized: '011-123-4567', v1: 'ok', v2: false },
	{ given: '010-1234-567', normalized: '010-123-4567', v1: 'ok', v2: false },
	{ given: '010\r\n1234-5678', normalized: '010-1234-5678', v1: 'ok', v2: false },
	{ given: 1012345678, normalized: null, v1: 'node', v2: false },
	{ given: '02-123-4567', normalized: null, v1: 'node', v2: false },
	{ given: '12345', normalized: null, v1: 'node', v2: false },
	{ given: 'abc', normalized: null, v1: 'node', v2: false },
	{ given: '😀', normalized: null, v1: 'node', v2: false },
	{ given: '010-1234-5678&x=1', normalized: null, v1: 'node', v2: false },
	{ given: '', normalized: null, v1: 'node', v2: false },
	{ given: null, normalized: null, v1: 'node', v2: false },
	{ given: { n: 1 }, normalized: null, v1: 'node', v2: false },
];

/** Consent values and what they mean (undefined: neither consent nor refusal, so refused by the node). */
export const CONSENTS: Array<{ given: unknown; value: boolean | undefined }> = [
	{ given: true, value: true },
	{ given: false, value: false },
	{ given: 'Y', value: true },
	{ given: 'n', value: false },
	{ given: 'true', value: true },
	{ given: 'FALSE', value: false },
	{ given: ' y ', value: true },
	{ given: 1, value: true },
	{ given: 0, value: false },
	{ given: '1', value: true },
	{ given: '', value: false },
	{ given: null, value: false },
	{ given: 'maybe', value: undefined },
	{ given: 2, value: undefined },
	{ given: { yes: true }, value: undefined },
	{ given: [], value: undefined },
];

/** Names and what is stored for them (`ok: false`: refused as too long or not text). */
export const NAMES: Array<{ given: unknown; ok: boolean; stored?: string }> = [
	{ given: '김철수', ok: true, stored: '김철수' },
	{ given: ' Kim ', ok: true, stored: 'Kim' },
	{ given: 'x'.repeat(20), ok: true, stored: 'x'.repeat(20) },
	{ given: 'x'.repeat(21), ok: false },
	{ given: '😀'.repeat(20), ok: true, stored: '😀'.repeat(20) },
	{ given: '👨‍👩‍👧'.repeat(5), ok: false },
	{ given: 'a&b=c #%', ok: true, stored: 'a&b=c #%' },
	{ given: '', ok: true },
	{ given: null, ok: true },
	{ given: 123, ok: true, stored: '123' },
	{ given: { first: 'Kim' }, ok: false },
];

/** Records already stored: a few members of the common pool, in both versions. */
export const initialMembers = fc.array(
	fc.tuple(
		fc.constantFrom('m1', 'm2', '김', 'other'),
		fc.constantFrom('010-1234-5678', '010-9999-0000', '011-123-4567', '010-5555-5555'),
	),
	{ maxLength: 4 },
);

export const MEMBER_IDS: unknown[] = [
	'm1',
	'm2',
	'김',
	'😀',
	' m1 ',
	'a&b=c #%',
	'x\r\ny',
	'L'.repeat(500),
	'',
	' ',
	null,
	12,
	true,
	{ id: 1 },
];

export interface MemberInput {
	memberId?: unknown;
	phoneNumber?: unknown;
	isReceive?: unknown;
	name?: unknown;
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { freq: 6, nil: undefined });

/** A member item and the table rows it was built from (consent -1: no isReceive field, which means refused). */
export const memberItem: fc.Arbitrary<{
	json: MemberInput;
	phone: number;
	consent: number;
	name: number | undefined;
}> = fc
	.record({
		memberId: maybe(fc.constantFrom(...MEMBER_IDS)),
		phone: fc.nat({ max: PHONES.length - 1 }),
		consent: fc.nat({ max: CONSENTS.length - 1 }),
		consentPresent: fc.oneof(
			{ weight: 4, arbitrary: fc.constant(true) },
			{ weight: 1, arbitrary: fc.constant(false) },
		),
		name: maybe(fc.nat({ max: NAMES.length - 1 })),
	})
	.map((r) => {
		const json: MemberInput = {};
		if (r.memberId !== undefined) json.memberId = r.memberId;
		json.phoneNumber = PHONES[r.phone].given;
		if (r.consentPresent) json.isReceive = CONSENTS[r.consent].given;
		if (r.name !== undefined) json.name = NAMES[r.name].given;
		return { json, phone: r.phone, consent: r.consentPresent ? r.consent : -1, name: r.name };
	});
