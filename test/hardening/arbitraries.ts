/**
 * Generators of the hardening properties: member ids, keys, values of every JSON type, phone
 * numbers, consents and names, each hostile in its own way (empty, duplicate, Korean, emoji,
 * very long, &=#% and spaces, CR/LF). Where the expected outcome is not obvious, a value comes
 * from a table that states its expected outcome next to it, so the reference models stay small.
 */
import fc from 'fast-check';

/** Ids that collide often (duplicates) and ids that are hostile. */
export const COMMON_IDS = ['a', 'b', 'm1', '김철수', '😀'];

export const HOSTILE_IDS = [
	'',
	' ',
	'\t',
	' a ',
	'a&b=c',
	'x#y',
	'100%',
	'%41',
	'sp ace',
	'cr\rlf',
	'line\nbreak',
	'a\r\nX-Evil: 1',
	'quote"s',
	"apos'",
	'back\\slash',
	'?q=1&memberId=other',
	'/path/../x',
	'__proto__',
	'constructor',
	'0',
	'007',
	'1e3',
	'null',
	'회원 번호 #3',
	'👨‍👩‍👧',
	'e\u0301',
	'\u200b',
	'\ud800',
	'a\udc00b',
	'L'.repeat(300),
	'가'.repeat(3000),
];

/** Any text, without strings that look like an ISO date-time (those come from DATE_TIMES). */
export const anyText = (maxLength = 8) =>
	fc
		.oneof(
			fc.string({ maxLength }),
			fc.string({ unit: 'grapheme', maxLength }),
			fc.string({ unit: 'binary', maxLength }),
		)
		.filter((s) => !/^\d{4}-\d{2}-\d{2}[Tt]/.test(s));

/** A member id as an item may hold it: mostly text, sometimes a number or something that is not an id. */
export const memberIdValue: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom(...COMMON_IDS) },
	{ weight: 4, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
	{ weight: 2, arbitrary: anyText(6) },
	{ weight: 1, arbitrary: fc.constantFrom(7, 0, -3, 12.5, 1e21, 2 ** 53 + 2) },
	{ weight: 1, arbitrary: fc.constantFrom(null, true, false, { id: 'a' }, ['a'], []) },
);

/**
 * ISO date-times and what the custom data nodes send for them in the workflow zone (UTC, the
 * harness default): the calendar date; an impossible date stays as it is.
 */
export const DATE_TIMES: Record<string, string> = {
	'2024-03-01T10:00:00Z': '2024-03-01',
	'2024-03-01T23:30:00-05:00': '2024-03-02',
	'2024-03-01T00:30:00+09:00': '2024-02-29',
	'2024-12-31T23:59:59.999Z': '2024-12-31',
	'2024-03-01T10:00': '2024-03-01',
	'2023-02-29T10:00:00Z': '2023-02-29T10:00:00Z',
};

export const DATES = ['2024-02-29', '2023-02-29', '2024-2-3', '1999-12-31', '2024-13-01'];

/** Numeric texts around the edges of the "numeric text becomes a number" rule. */
export const NUMERIC_TEXTS = [
	'42',
	'-3.5',
	'007',
	'1.50',
	'1e3',
	'0',
	'-0',
	' 7 ',
	'0x10',
	'Infinity',
	'12345678901234567890',
	'.5',
	'5.',
];

/** A value of any JSON type (what a workflow item may hold). */
export const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 2, arbitrary: fc.constant(null) },
	{ weight: 2, arbitrary: fc.boolean() },
	{ weight: 3, arbitrary: fc.integer() },
	{ weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(1e21, -1e21, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1.5e300, 5e-324),
	},
	{ weight: 5, arbitrary: anyText(10) },
	{ weight: 2, arbitrary: fc.constantFrom(...NUMERIC_TEXTS) },
	{ weight: 2, arbitrary: fc.constantFrom(...DATES, ...Object.keys(DATE_TIMES)) },
	{ weight: 1, arbitrary: fc.constantFrom('x'.repeat(5000), '한'.repeat(1000), 'a\r\nb', '=&#% ') },
	{
		weight: 1,
		arbitrary: fc.dictionary(
			fc.string({ maxLength: 3 }),
			fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
			{ maxKeys: 3 },
		),
	},
	{ weight: 1, arbitrary: fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }) },
	{ weight: 1, arbitrary: fc.constant({ nested: { deeper: [1, { x: null }] } }) },
);

/** Custom data keys registered in the sandbox, with their format (a Map: `__proto__` is one of them). */
export const KEY_FORMATS = new Map<string, 'string' | 'number' | 'date'>([
	['grade', 'string'],
	['points', 'number'],
	['joined', 'date'],
	['등급', 'string'],
	['emoji🎉', 'number'],
	['a b&c=d#%', 'string'],
	['__proto__', 'string'],
	['line\nkey', 'string'],
]);

/** Keys an item may carry: registered ones, unregistered ones, and names that are no key at all. */
export const DATA_KEYS = [
	...KEY_FORMATS.keys(),
	'unregistered',
	'constructor',
	'toString',
	'',
	' ',
];

/** An object from [key, value] pairs, exactly as JSON.parse would build it (own `__proto__` keys included). */
export function objectOf(pairs: Array<[string, unknown]>): Record<string, unknown> {
	return JSON.parse(
		`{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`,
	) as Record<string, unknown>;
}

/** Data items: a member id field (sometimes missing), 0..4 key fields. */
export const dataItem: fc.Arbitrary<Record<string, unknown>> = fc
	.tuple(
		fc.option(memberIdValue, { freq: 8, nil: undefined }),
		fc.array(fc.tuple(fc.constantFrom(...DATA_KEYS), jsonValue), { maxLength: 4 }),
	)
	.map(([id, pairs]) =>
		objectOf([...(id === undefined ? [] : [['memberId', id] as [string, unknown]]), ...pairs]),
	);

/** A batch size: mostly small enough that inputs span several requests, sometimes anything up to 1000. */
export const batchSize = fc.oneof(
	fc.integer({ min: 1, max: 4 }),
	fc.integer({ min: 1, max: 1000 }),
);

/** Entries already stored before a write: members from the common pool, registered keys. */
export const initialEntries = fc.array(
	fc.tuple(
		fc.constantFrom(...COMMON_IDS, ' a ', 'a&b=c', '7'),
		fc.constantFrom('grade', 'points', 'joined', '등급'),
		fc.constantFrom<string | number>('old', 1, '2020-01-01'),
	),
	{ maxLength: 8 },
);

// ----- members -----

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

// ----- sends -----

/**
 * Recipient numbers with what the send does with them: `asIs` the number sent with Convert Phone
 * Numbers off, `converted` with it on (null: refused before sending, 7012). The service's rule is
 * "exactly 12 characters", whatever they are.
 */
export const SEND_PHONES: Array<{ given: unknown; asIs: string | null; converted: string | null }> =
	[
		{ given: '821012345678', asIs: '821012345678', converted: '821012345678' },
		{ given: '821099990000', asIs: '821099990000', converted: '821099990000' },
		{ given: 821012345677, asIs: '821012345677', converted: '821012345677' },
		{ given: ' 821012345679 ', asIs: '821012345679', converted: '821012345679' },
		{ given: '010-1234-5678', asIs: null, converted: '821012345678' },
		{ given: '01012345678', asIs: null, converted: '821012345678' },
		{ given: '+82 10 1234 5678', asIs: null, converted: '821012345678' },
		{ given: '8210\r\n12345678', asIs: null, converted: '821012345678' },
		{ given: '011-123-4567', asIs: '011-123-4567', converted: null },
		{ given: '😀😀😀😀😀😀', asIs: '😀😀😀😀😀😀', converted: '😀😀😀😀😀😀' },
		{ given: 'abcdefghijkl', asIs: 'abcdefghijkl', converted: 'abcdefghijkl' },
		{ given: '8210-1234-56', asIs: '8210-1234-56', converted: '8210-1234-56' },
		{ given: '82101234567\r\n', asIs: null, converted: null },
		{ given: '', asIs: null, converted: null },
		{ given: null, asIs: null, converted: null },
	];

/** Campaigns of the send properties (set up in the sandbox by the test). */
export const CAMPAIGNS: unknown[] = [
	'WELCOME',
	'DATED',
	'PLAIN',
	' PLAIN ',
	'캠페인',
	'BLOCKED',
	'NOPE',
	'',
	'W\r\nX-Evil: 1',
	5,
	null,
];

export const VARIABLE_KEYS = ['name', 'day', 'coupon', '이름', '🎉', 'x&y=z', ' name '];
export const BAD_VARIABLE_KEYS = ['', ' ', 'a\r\nb', 'ref', 'k\nX-Evil: 1'];

export const VARIABLE_VALUES: unknown[] = [
	'Kim',
	'',
	' ',
	null,
	0,
	12.5,
	true,
	'2024-02-29',
	'2024-2-3',
	'2023-02-29',
	{ a: 1 },
	[1, 2],
	'한글',
	'x'.repeat(2000),
	'a\r\nb',
	'{{ $json.phone }}',
];

const pick = <T>(good: readonly T[], bad: readonly T[], badWeight = 1) =>
	fc.oneof(
		{ weight: 6, arbitrary: fc.constantFrom(...good) },
		{ weight: badWeight, arbitrary: fc.constantFrom(...bad) },
	);

/** Mostly sendable items (so that most cases send something), with every kind of broken one. */
export const sendItem = fc.record({
	campaign: pick(CAMPAIGNS.slice(0, 5), CAMPAIGNS.slice(5), 2),
	phone: fc.oneof(
		{ weight: 5, arbitrary: fc.nat({ max: 3 }) },
		{ weight: 3, arbitrary: fc.nat({ max: SEND_PHONES.length - 1 }) },
	),
	k1: pick(VARIABLE_KEYS, BAD_VARIABLE_KEYS),
	v1: fc.constantFrom(...VARIABLE_VALUES),
	k2: pick(VARIABLE_KEYS, BAD_VARIABLE_KEYS),
	v2: fc.constantFrom(...VARIABLE_VALUES),
});
