/**
 * Items -> values: key lists, dates and the value rules of custom data
 * (docs/service-rules.md#custom-data). Pure functions and a small class, no HTTP.
 */
import type { Checked } from '../../shared/values';
import { typeName } from '../../shared/values';

export type WireValue = string | number;

/**
 * A list given as comma-separated text or as an array of texts: each name trimmed, blanks
 * dropped, duplicates removed (first occurrence kept).
 */
export function splitList(raw: unknown): string[] {
	let parts: unknown[];
	if (Array.isArray(raw)) parts = raw;
	else if (typeof raw === 'string') parts = raw.split(',');
	else if (typeof raw === 'number' && Number.isFinite(raw)) parts = [String(raw)];
	else parts = [];
	const seen = new Set<string>();
	for (const part of parts) {
		const text =
			typeof part === 'string' ? part.trim() : typeof part === 'number' ? String(part) : '';
		if (text !== '') seen.add(text);
	}
	return [...seen];
}

/** Formats instants as YYYY-MM-DD in one time zone (the workflow's). */
export class DateFormatter {
	private readonly format: Intl.DateTimeFormat;

	constructor(readonly timeZone: string) {
		// Throws a RangeError for an unknown zone; the caller reports it.
		this.format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			era: 'short',
		});
	}

	/** The calendar date of an instant (ms since epoch) in the zone, or undefined outside years 1..9999. */
	day(instant: number): string | undefined {
		if (!Number.isFinite(instant)) return undefined;
		const parts: Record<string, string> = {};
		for (const part of this.format.formatToParts(new Date(instant))) parts[part.type] = part.value;
		const year = Number(parts.year);
		if (!/^A/i.test(parts.era ?? 'AD') || !Number.isInteger(year) || year < 1 || year > 9999)
			return undefined;
		return `${String(year).padStart(4, '0')}-${parts.month}-${parts.day}`;
	}
}

function isRealDate(year: number, month: number, day: number): boolean {
	const date = new Date(Date.UTC(2000, month - 1, day));
	date.setUTCFullYear(year);
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

/** ISO 8601 date-time: date, `T`, hours and minutes, optional seconds and fraction, optional zone. */
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * An ISO date-time text as the YYYY-MM-DD it means in the workflow zone: with a zone (`Z`,
 * `+09:00`) the instant is converted; without one the text is a wall-clock time, whose date is
 * kept. Undefined when the text is not a valid ISO date-time (it is then sent unchanged).
 */
export function isoDateTimeToDay(text: string, dates: DateFormatter): string | undefined {
	const m = ISO_DATE_TIME.exec(text);
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(
		Number,
	);
	if (!isRealDate(year, month, day) || hour > 24 || minute > 59 || second > 60) return undefined;
	if (hour === 24 && (minute !== 0 || second !== 0)) return undefined;
	const zone = m[8];
	if (zone === undefined) return hour === 24 ? undefined : `${m[1]}-${m[2]}-${m[3]}`;
	let offsetMinutes = 0;
	if (zone !== 'Z' && zone !== 'z') {
		const digits = zone.slice(1).replace(':', '');
		const hours = Number(digits.slice(0, 2));
		const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
		if (hours > 23 || minutes > 59) return undefined;
		offsetMinutes = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
	}
	const fraction = m[7] === undefined ? 0 : Number(`0.${m[7]}`) * 1000;
	const utc = new Date(
		Date.UTC(2000, month - 1, day, hour, minute, Math.min(second, 59), fraction),
	);
	utc.setUTCFullYear(year);
	return dates.day(utc.getTime() - offsetMinutes * 60000);
}

/** A decimal number written as text, e.g. "12", "-3.5", "1e3" (not "", " 1", "0x10", "Infinity"). */
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

interface LuxonLike {
	isLuxonDateTime: true;
	isValid: boolean;
	invalidReason?: string | null;
	toMillis(): number;
}

interface MomentLike {
	_isAMomentObject: true;
	isValid(): boolean;
	valueOf(): number;
}

/**
 * The value rules of custom data (docs/service-rules.md#custom-data): what is sent for a value, or why it is not
 * sent (without allocating anything for a value that is sent: called for every value twice).
 * - numbers pass as numbers (NaN and Infinity are rejected);
 * - a numeric text passes as a number when that changes nothing about it ("42", "-3.5"); a
 *   text whose digits would change ("007", "1.50", "1e3", 20-digit ids) stays text, so a
 *   string key never loses a leading zero or precision (a number key accepts numeric text
 *   anyway);
 * - JS Date, Luxon DateTime, Moment and ISO date-time text become YYYY-MM-DD in the workflow
 *   zone; a plain YYYY-MM-DD text stays as it is;
 * - booleans become "true" / "false";
 * - other text is sent as it is;
 * - null, undefined, objects and arrays are rejected.
 */
export function wireValue(
	value: unknown,
	dates: DateFormatter,
): WireValue | { ok: false; reason: string } {
	switch (typeof value) {
		case 'number':
			return Number.isFinite(value)
				? value
				: { ok: false, reason: `is not a finite number (${String(value)})` };
		case 'boolean':
			return value ? 'true' : 'false';
		case 'bigint':
			return value.toString();
		case 'string': {
			if (NUMERIC.test(value)) {
				const n = Number(value);
				if (Number.isFinite(n) && String(n) === value) return n;
				return value;
			}
			const day = value.length <= 40 ? isoDateTimeToDay(value, dates) : undefined;
			return day ?? value;
		}
		case 'undefined':
			return {
				ok: false,
				reason: 'has no value (undefined); a value must be text, a number, a boolean or a date',
			};
		case 'object': {
			if (value === null) {
				return {
					ok: false,
					reason: 'is null; a value must be text, a number, a boolean or a date',
				};
			}
			let instant: number | undefined;
			let invalid = '';
			if (value instanceof Date) {
				instant = value.getTime();
			} else if ((value as Partial<LuxonLike>).isLuxonDateTime === true) {
				const dt = value as LuxonLike;
				if (dt.isValid) instant = dt.toMillis();
				else invalid = dt.invalidReason ? ` (${dt.invalidReason})` : '';
			} else if ((value as Partial<MomentLike>)._isAMomentObject === true) {
				const mo = value as MomentLike;
				if (mo.isValid()) instant = mo.valueOf();
			} else {
				return {
					ok: false,
					reason: `is ${typeName(value)}, which cannot be stored; a value must be text, a number, a boolean or a date`,
				};
			}
			const day = instant === undefined ? undefined : dates.day(instant);
			if (day === undefined) return { ok: false, reason: `is not a valid date${invalid}` };
			return day;
		}
		default:
			return { ok: false, reason: `is ${typeName(value)}, which cannot be stored` };
	}
}

/** `wireValue` as a checked result (what a value is sent as, or why it is not sent). */
export function toWireValue(value: unknown, dates: DateFormatter): Checked<WireValue> {
	const result = wireValue(value, dates);
	return typeof result === 'object' ? result : { ok: true, value: result };
}

/**
 * Whether `toWireValue` accepts a value whatever it holds (text, booleans, finite numbers,
 * bigints), so that a check before sending can skip converting it.
 */
export function isAlwaysWritable(value: unknown): boolean {
	switch (typeof value) {
		case 'string':
		case 'boolean':
		case 'bigint':
			return true;
		case 'number':
			return Number.isFinite(value);
		default:
			return false;
	}
}
