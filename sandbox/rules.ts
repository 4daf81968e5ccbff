/**
 * Value rules of the spec: phone numbers, dates, custom-data formats, name length.
 */
import type { KeyFormat } from './types';

/** Name limit of members v1 and v2 (spec 2.4, 2.5, section 8). */
export const MAX_NAME_LENGTH = 20;

/** Removes the separators a v1 client may use: hyphens and spaces. */
export function phoneDigits(phone: string): string {
	return phone.replace(/[-\s]/g, '');
}

/**
 * v1 member phone (spec 2.4 only says "phone number"; 7.2 -1007 "not valid"). Decision: a Korean
 * mobile number: after removing '-' and spaces, 01[016789] followed by 7 or 8 digits.
 */
export function isV1Phone(value: unknown): value is string {
	return typeof value === 'string' && /^01[016789]\d{7,8}$/.test(phoneDigits(value));
}

/**
 * v2 member phone (spec 2.5: "only `-` allowed as separator"). Decision: exactly
 * `01X-XXX(X)-XXXX` with both hyphens, X of the prefix one of 0,1,6,7,8,9 (the same mobile
 * prefixes as v1). Digits only, spaces or other separators are F02.
 */
export function isV2Phone(value: unknown): value is string {
	return typeof value === 'string' && /^01[016789]-\d{3,4}-\d{4}$/.test(value);
}

/** Hyphenated form returned on read: 010-1234-5678 (11 digits) or 010-123-4567 (10 digits). */
export function hyphenatePhone(phone: string): string {
	const digits = phoneDigits(phone);
	if (/^\d{11}$/.test(digits))
		return `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`;
	if (/^\d{10}$/.test(digits))
		return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
	return phone;
}

/** A real calendar date written exactly as YYYY-MM-DD (2024-02-30 and 2024-2-3 are not). */
export function isIsoDate(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	if (!m) return false;
	const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

/** A decimal number written as text, e.g. "12", "-3.5", " 7 ", "1e3". Not "", "0x10", "Infinity". */
export function isNumericString(value: string): boolean {
	return /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value);
}

export type CoerceResult = { ok: true; value: string | number } | { ok: false };

/**
 * Checks a custom-data value against its key's registered format (spec 2.2) and gives the stored form.
 * - number: a finite JSON number, or a numeric string (stored as a number).
 * - date: a string that is a real YYYY-MM-DD date (stored as that string).
 * - string: a string, or a JSON number (decision: stored as its decimal text).
 * null, booleans, objects and arrays never match (F02).
 */
export function coerceToFormat(format: KeyFormat, value: unknown): CoerceResult {
	switch (format) {
		case 'number':
			if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
			if (typeof value === 'string' && isNumericString(value))
				return { ok: true, value: Number(value) };
			return { ok: false };
		case 'date':
			return isIsoDate(value) ? { ok: true, value } : { ok: false };
		case 'string':
			if (typeof value === 'string') return { ok: true, value };
			if (typeof value === 'number' && Number.isFinite(value))
				return { ok: true, value: String(value) };
			return { ok: false };
	}
}

/** Length in characters (code points), not UTF-16 units. */
export function nameTooLong(name: string): boolean {
	return [...name].length > MAX_NAME_LENGTH;
}
