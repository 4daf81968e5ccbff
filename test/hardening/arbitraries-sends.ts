/**
 * Generators of the send properties: recipient numbers from a table that states what the send
 * does with each (so models-sends.ts stays small), campaign keys, template variable keys and
 * values, and the send items built from them.
 */
import fc from 'fast-check';

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
		{ given: '8210\r\n12345678', asIs: null, converted: null },
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
