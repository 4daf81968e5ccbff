/**
 * Korean mobile numbers, the one place for their rules. Mobile numbers start with 010, 011,
 * 016, 017, 018 or 019 and have 10 or 11 digits in the national form; the international
 * form replaces the leading 0 by 82.
 */

const SEPARATORS = /[\s\-.()]/g;

/** The national digits (01012345678) of a Korean mobile number, or undefined if it is not one. */
export function mobileDigits(input: unknown): string | undefined {
	if (typeof input !== 'string' && typeof input !== 'number') return undefined;
	let text = String(input).trim().replace(SEPARATORS, '');
	if (text.startsWith('+82')) text = `0${text.slice(3)}`;
	else if (text.startsWith('82') && text.length >= 11) text = `0${text.slice(2)}`;
	if (text.startsWith('00')) text = text.slice(1); // +82 010... written with the trunk 0 kept
	return /^01[016789]\d{7,8}$/.test(text) ? text : undefined;
}

/** 010-1234-5678 (11 digits) or 011-123-4567 (10 digits): the form member API v2 demands. */
export function hyphenatedMobile(input: unknown): string | undefined {
	const digits = mobileDigits(input);
	if (digits === undefined) return undefined;
	const middle = digits.length === 11 ? 4 : 3;
	return `${digits.slice(0, 3)}-${digits.slice(3, 3 + middle)}-${digits.slice(3 + middle)}`;
}

/** 821012345678: the 12-character international form (assumed by the send's length rule). */
export function internationalMobile(input: unknown): string | undefined {
	const digits = mobileDigits(input);
	return digits === undefined ? undefined : `82${digits.slice(1)}`;
}

/** Exactly the v2 member format: digits separated by single hyphens, 01X-XXX(X)-XXXX. */
export function isHyphenatedMobile(input: string): boolean {
	return /^01[016789]-\d{3,4}-\d{4}$/.test(input);
}

/**
 * The digits that name a number, however it was written (separators, spaces, full-width digits):
 * the 12-digit international form when they make a Korean mobile number, else the digits alone.
 */
export function numberDigits(input: string): string {
	const digits = input.normalize('NFKC').replace(/\D/g, '');
	return internationalMobile(digits) ?? digits;
}
