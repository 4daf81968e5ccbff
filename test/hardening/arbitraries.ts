/**
 * Generators of the hardening properties: member ids, keys, values of every JSON type, each
 * hostile in its own way (empty, duplicate, Korean, emoji, very long, &=#% and spaces, CR/LF),
 * and the custom data items and stored entries built from them. Where the expected outcome is
 * not obvious, a value comes from a table that states its expected outcome next to it, so the
 * reference models stay small. Phone numbers, consents and names: arbitraries-members.ts; the
 * send's recipients, campaigns and variables: arbitraries-sends.ts.
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
