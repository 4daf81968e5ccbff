/**
 * Small value rules every node needs: plain objects, fields named like anything, type names
 * and JSON-safe values for messages and items, and the one member id rule.
 */
import type { IDataObject } from 'n8n-workflow';

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A plain object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Sets `obj[key]` as an own, enumerable field whatever the key is. A plain assignment of
 * `__proto__` would change the object's prototype instead of adding a field (and the key
 * would silently disappear from the JSON body).
 */
export function setField(obj: Record<string, unknown>, key: string, value: unknown): void {
	if (key === '__proto__') {
		Object.defineProperty(obj, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	} else {
		obj[key] = value;
	}
}

/** A short, readable name of a value's type for messages. */
export function typeName(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (value instanceof Date) return 'a date';
	if (typeof value === 'object') return 'an object';
	return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/** A value as it can appear in an item's JSON (undefined -> null, dates -> ISO text). */
export function jsonSafe(value: unknown): IDataObject[string] {
	if (value === undefined) return null;
	if (value instanceof Date)
		return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	if (isObject(value) && typeof value.toISO === 'function') return String(value.toString());
	return value as IDataObject[string];
}

/** Control characters (line breaks, tabs, NUL): never part of an identifier. */
// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The member id rule of every node (docs/service-rules.md#member-ids): text or a finite number,
 * surrounding spaces removed, not empty, no control characters. Inside, the id is sent exactly
 * as given: the service matches it exactly. No length limit is checked because the service
 * documents none.
 */
export function readMemberId(value: unknown): Checked<string> {
	let id: string;
	if (typeof value === 'string') id = value.trim();
	else if (typeof value === 'number') {
		if (!Number.isFinite(value))
			return {
				ok: false,
				reason: `is not a valid member ID (${String(value)}): it must be text or a finite number`,
			};
		id = String(value);
	} else if (value === undefined || value === null)
		return { ok: false, reason: 'is missing (empty)' };
	else return { ok: false, reason: `must be text or a number (got ${typeName(value)})` };
	if (id === '') return { ok: false, reason: 'is empty' };
	if (CONTROL.test(id))
		return { ok: false, reason: 'must not contain line breaks, tabs or other control characters' };
	return { ok: true, value: id };
}

/** Absent: undefined, null or text of spaces only. */
export const isBlank = (value: unknown): boolean =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Text of a scalar field (phone number, name): trimmed; a finite number's digits; undefined when absent or not a scalar. */
export function scalarText(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return String(value);
	return undefined;
}

/** A field the service sent, as text: text as it is, or a finite number's digits; undefined for anything else. */
export const answerText = (value: unknown): string | undefined =>
	typeof value === 'string'
		? value
		: typeof value === 'number' && Number.isFinite(value)
			? String(value)
			: undefined;

/** Rows in pieces of at most `size`, in order (one request each). */
export function chunk<T>(rows: readonly T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < rows.length; start += size)
		chunks.push(rows.slice(start, start + size));
	return chunks;
}
