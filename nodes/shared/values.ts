/** Small value checks every part of the package needs. */

/** A plain object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Text of a scalar a workflow gives as an identifier (member id, phone number, name): text
 * trimmed, or the digits of a finite number; undefined for blank text, non-finite numbers and
 * anything else. The one member id rule of every node: see docs/service-rules.md#member-ids.
 */
export function scalarText(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return String(value);
	return undefined;
}
