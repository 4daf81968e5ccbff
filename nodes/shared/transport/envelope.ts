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

/** Deeper than any answer of the service: such JSON is not read (walking it could exhaust the stack). */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed value nests deeper than `limit` arrays/objects (walked without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 0]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop() as [unknown, number];
		if (typeof current !== 'object' || current === null) continue;
		if (depth >= limit) return true;
		for (const child of Object.values(current)) stack.push([child, depth + 1]);
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
