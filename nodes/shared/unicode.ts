/**
 * The one rule for characters a reader does not see, and for names that read alike. By Unicode
 * property, not by list: a list of invisible characters always misses one. Every check that asks
 * "does this text hold something nobody sees" or "does this name read as that one" uses it (the
 * member id, phone number and campaign key of a send, through `paddingRule` and `unseenRule`; the names of a tool
 * answer, in tool.ts).
 */

/**
 * What nobody sees: white space and the space, line and paragraph separators (\p{White_Space},
 * \p{Z}), control characters (\p{Cc}), format characters (\p{Cf}: zero-width characters, a byte
 * order mark, bidirectional marks, tags), default-ignorable code points (variation selectors, the
 * Hangul fillers, the combining grapheme joiner), and the blank-looking characters that no
 * property holds: the braille pattern blank (U+2800) and the musical symbol null notehead
 * (U+1D159). The Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) are default-ignorable already;
 * they are named too, so the rule does not lean on which Unicode version the engine knows.
 */
const UNSEEN =
	/[\p{White_Space}\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}\u115F\u1160\u3164\uFFA0]/u;

/** Whether `char` (one code point) is one a reader does not see; the plain space is one. */
export const isUnseen = (char: string): boolean => UNSEEN.test(char);

/** `U+XXXX` of a character's code point, as a message names it. */
export const codePointOf = (char: string): string =>
	`U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The first character of `text` a reader does not see, other than the plain space; checked on the
 * text as given and after NFKC folding (a compatibility character folds to what it stands for).
 */
export function firstUnseen(text: string): string | undefined {
	for (const form of [text, text.normalize('NFKC')]) {
		const found = [...form].find((char) => char !== ' ' && isUnseen(char));
		if (found !== undefined) return found;
	}
	return undefined;
}

/**
 * Why a value that names one thing (a send's member ID, phone number or campaign key) is refused as
 * given, in words, or undefined: spaces around it (`paddingRule`: it is not trimmed) or a
 * character nobody sees inside it (`unseenRule`, by `firstUnseen`).
 */
export function paddingRule(text: string): string | undefined {
	if (text === text.trim()) return undefined;
	const end = text === text.trimStart() ? text.slice(-1) : text[0];
	return `must not start or end with a space (${codePointOf(end)}): it is not trimmed`;
}

export function unseenRule(text: string): string | undefined {
	const unseen = firstUnseen(text);
	if (unseen === undefined) return undefined;
	return `must not hold an invisible character or a space other than the plain space (${codePointOf(unseen)})`;
}

/**
 * Cyrillic and Greek letters that look like a Latin letter, each followed by its Latin twin (upper
 * and lower case: lower-casing first would turn Cyrillic В into в, which no longer looks like b).
 */
const LOOK_ALIKES = new Map(
	'АA ВB ЕE ЅS ІI ЈJ КK МM НH ОO РP СC ТT ХX УY аa еe іi јj ѕs оo рp сc уy хx һh ԁd ԛq ԝw ӏl ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX αa ιi κk νv οo ρp τt υu χx'
		.split(' ')
		.map((pair) => [pair[0], pair[1]]),
);

/**
 * A name as it reads, for telling whether two names look the same: NFKC folded (full-width
 * letters, ligatures), every character nobody sees removed (spaces too), look-alike Cyrillic and
 * Greek letters as their Latin twin, in lower case. `outcome` + U+200B, `ｍｅｓｓａｇｅ`, Cyrillic
 * `оutcome` and `whatToDo ` read as `outcome`, `message`, `outcome` and `whattodo`.
 */
export function readsAs(name: string): string {
	let folded = '';
	for (const char of name.normalize('NFKC'))
		if (!isUnseen(char)) folded += LOOK_ALIKES.get(char) ?? char;
	return folded.toLowerCase();
}
