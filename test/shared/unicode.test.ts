/**
 * The one rule for characters a reader does not see (nodes/shared/unicode.ts), by Unicode
 * property and not by list, and where the package uses it: a member ID of a send holding one is
 * refused (readRecipientId, nodes/shared/members.ts), naming the character; a name is compared by
 * how it reads (`readsAs`, used by tool answers: test/shared/tool.answer-fields.test.ts).
 */
import { readRecipientId } from '../../nodes/shared/members';
import { readsAs } from '../../nodes/shared/unicode';

const pointOf = (char: string) =>
	`U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;

/** One character of each class the rule reads, and the blank-looking ones no class holds. */
const UNSEEN = {
	'a format character (Cf): zero-width space': '\u200b',
	'a format character (Cf): a tag character': '\u{e0020}',
	'a format character (Cf): the Mongolian vowel separator': '\u180e',
	'a space separator (Zs): no-break space': '\u00a0',
	'a space separator (Zs): ideographic space': '\u3000',
	'a line separator (Zl)': '\u2028',
	'a control character (Cc): next line': '\u0085',
	'a default-ignorable code point: combining grapheme joiner': '\u034f',
	'a default-ignorable code point: a variation selector': '\ufe00',
	'a default-ignorable code point: Khmer inherent vowel': '\u17b4',
	'blank-looking, in no class: braille pattern blank': '\u2800',
	'blank-looking, in no class: musical symbol null notehead': '\u{1d159}',
	'a Hangul filler': '\u3164',
	'a Hangul choseong filler': '\u115f',
	'a Hangul jungseong filler': '\u1160',
	'a halfwidth Hangul filler': '\uffa0',
};

describe('a member ID of a send holding a character nobody sees is refused', () => {
	it.each(Object.entries(UNSEEN))('%s', (_, char) => {
		for (const id of [`m-kim${char}`, `m-${char}kim`, `${char}m-kim`]) {
			const checked = readRecipientId(id);
			expect(checked).toEqual({ ok: false, reason: expect.stringContaining(pointOf(char)) });
			if (!checked.ok) expect(checked.reason).toMatch(/invisible|space/);
		}
	});

	it('visible ids pass as they are: Hangul, full-width letters, a plain space inside, accents', () => {
		for (const id of ['m-kim', '김민수', 'ｍ-kim', 'kim min', 'café', 'ㄱㄴ-1', 'a¨b'])
			expect(readRecipientId(id)).toEqual({ ok: true, value: id });
	});
});

describe('a name as it reads', () => {
	it('folds width, case, invisible characters, spaces and Cyrillic or Greek look-alikes', () => {
		const outcome = [
			'outcome',
			'outcome\u200b',
			'ＯＵＴＣＯＭＥ',
			'\u043eutcome',
			' out\u2800come ',
			'Οutcome',
		];
		expect(new Set(outcome.map(readsAs))).toEqual(new Set(['outcome']));
	});

	it('keeps apart what reads differently, Hangul included', () => {
		const names = ['outcome', 'outcomes', 'income', '결과', '겷과', 'ㄱ', 'code1'];
		expect(new Set(names.map(readsAs)).size).toBe(names.length);
	});
});
