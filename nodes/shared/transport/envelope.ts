/**
 * Reading the service's answer: the JSON text, and the envelope inside it, tolerantly
 * (docs/service-rules.md#envelope): codes as numbers or numeric text, the send's flat shape.
 */
import { isObject } from '../values';

export interface Envelope {
	code: string;
	processValue: unknown;
	message?: string;
}

/** A numeric code given as a number or a numeric string; anything else is not a code. */
export function toCode(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isInteger(value)) return String(value);
	if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return String(Number(value));
	return undefined;
}

/**
 * Reads the envelope tolerantly: `processCode` as number or numeric string; the send's body
 * (shape not documented) may instead carry `code` or `resultCode` at the top level.
 * `httpStatus.code` (or its `col` misspelling) is informational only and never decides.
 */
export function readEnvelope(body: unknown): Envelope | undefined {
	if (!isObject(body)) return undefined;
	const code = toCode(body.processCode) ?? toCode(body.resultCode) ?? toCode(body.code);
	if (code === undefined) return undefined;
	const messageField = [
		body.message,
		body.processMessage,
		body.resultMessage,
		body.errorMessage,
	].find((m) => typeof m === 'string' && m.trim() !== '') as string | undefined;
	return { code, processValue: body.processValue, message: messageField };
}

/** Far deeper than any answer of the service (a read page nests 4 levels: envelope, processValue, dataList, entry). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text nests deeper than `limit` arrays/objects, read from the text itself before
 * any parsing: one pass, no allocation, stopping at the first level too many. A 32 MB `[[[[...`
 * is refused in a few milliseconds instead of being parsed into millions of arrays. Brackets
 * inside strings do not count; for text that is not JSON the answer does not matter (it is not
 * parsed either way).
 */
export function textNestsDeeperThan(text: string, limit: number): boolean {
	let depth = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x22) {
			// A string: jump to its closing quote (native search; most of a page is string values).
			i = closingQuote(text, i);
			if (i < 0) return false;
		} else if (c === 0x5b || c === 0x7b) {
			if (++depth > limit) return true;
		} else if (c === 0x5d || c === 0x7d) {
			depth--;
		}
	}
	return false;
}

/** Where the string opened at `open` ends: the next quote not escaped by an odd run of backslashes; -1 if none. */
function closingQuote(text: string, open: number): number {
	let at = open;
	for (;;) {
		at = text.indexOf('"', at + 1);
		if (at < 0) return -1;
		let backslashes = 0;
		while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
		if (backslashes % 2 === 0) return at;
	}
}

/** The JSON in a body text, or undefined when it is empty or not JSON. */
export function parseJson(text: string | undefined): unknown {
	if (text === undefined || text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
