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
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 0x5c)
				i++; // a backslash: the next character is escaped
			else if (c === 0x22) inString = false;
		} else if (c === 0x22) {
			inString = true;
		} else if (c === 0x5b || c === 0x7b) {
			if (++depth > limit) return true;
		} else if (c === 0x5d || c === 0x7d) {
			depth--;
		}
	}
	return false;
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
