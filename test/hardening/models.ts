/**
 * Reference models: what the sandbox state must be after a write, computed directly from the
 * inputs by the documented rules (the node's checks before sending, then the service's rules
 * as the sandbox implements them). Each model is meant to be small enough to check by eye.
 * This file: the rules the models share and the custom data writes and deletes; the member
 * upserts in models-members.ts, the sends in models-sends.ts.
 */
import { DATE_TIMES, KEY_FORMATS } from './arbitraries';

export type Wire = string | number;
export type Store = Map<string, Map<string, Wire>>;

/** Whether `key` is an own property of `obj` (`__proto__` included). */
export const hasOwn = (obj: object, key: string) => Object.prototype.hasOwnProperty.call(obj, key);
/** A control character (C0 or DEL): no member id may hold one. */
// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u001f\u007f]/;

export function cloneStore(store: Store): Store {
	return new Map([...store].map(([id, entries]) => [id, new Map(entries)]));
}

function entriesOf(store: Store, id: string): Map<string, Wire> {
	let entries = store.get(id);
	if (!entries) {
		entries = new Map();
		store.set(id, entries);
	}
	return entries;
}

/** Custom data member id: text trimmed (not blank, no control character), or a finite number. */
export function dataMemberId(value: unknown): string | undefined {
	if (typeof value === 'string')
		return value.trim() === '' || CONTROL.test(value.trim()) ? undefined : value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** What the node sends for a value (undefined: refused before sending, F02). */
export function wireValue(value: unknown): Wire | undefined {
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string') {
		if (NUMERIC.test(value) && String(Number(value)) === value) return Number(value);
		return hasOwn(DATE_TIMES, value) ? DATE_TIMES[value] : value;
	}
	return undefined;
}

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: unknown): boolean {
	const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
	if (!m) return false;
	const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
	return date.toISOString().slice(0, 10) === value;
}

/** What the service stores for a value of a key of this format (undefined: F02 / not stored). */
export function storedValue(format: 'string' | 'number' | 'date', value: Wire): Wire | undefined {
	if (format === 'number') {
		if (typeof value === 'number') return value;
		return /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)
			? Number(value)
			: undefined;
	}
	if (format === 'date') return isIsoDate(value) ? value : undefined;
	return typeof value === 'number' ? String(value) : value;
}

/**
 * create / update (both an upsert of each key): per member, the last sendable value of each key
 * wins; v2 stores registered keys whose value fits the format, legacy also stores unregistered
 * keys as text and drops values that do not fit silently.
 */
export interface DataInput {
	/** The member id as given (undefined when the item has none). */
	id: unknown;
	/** Key/value pairs in the order they are given. */
	pairs: Array<[string, unknown]>;
}

/** Map Automatically: the id field is the member, every other top-level field a pair. */
export const autoMapped = (
	items: Array<Record<string, unknown>>,
	idField = 'memberId',
): DataInput[] =>
	items.map((item) => ({
		id: item[idField],
		pairs: Object.entries(item).filter(([key]) => key !== idField),
	}));

export function expectedDataWrite(initial: Store, items: DataInput[], dialect: 'v2' | 'legacy') {
	const rows = new Map<string, Map<string, Wire>>();
	for (const item of items) {
		const id = dataMemberId(item.id);
		if (id === undefined) continue;
		const row = rows.get(id) ?? new Map<string, Wire>();
		rows.set(id, row);
		for (const [key, value] of item.pairs) {
			if (key.trim() === '') continue;
			const wire = wireValue(value);
			if (wire !== undefined) row.set(key, wire);
		}
	}
	const store = cloneStore(initial);
	/** Keys stored by this write, per member (what Success may claim). */
	const storedNow = new Map<string, Set<string>>();
	for (const [id, row] of rows) {
		for (const [key, wire] of row) {
			const format = KEY_FORMATS.get(key) ?? (dialect === 'legacy' ? 'string' : undefined);
			const value = format === undefined ? undefined : storedValue(format, wire);
			if (value === undefined) continue;
			entriesOf(store, id).set(key, value);
			storedNow.set(id, (storedNow.get(id) ?? new Set()).add(key));
		}
	}
	return { store, storedNow };
}

/** A comma-separated list (or an array) of key names: trimmed, blanks dropped. */
export function keyList(raw: unknown): string[] {
	const parts: unknown[] = Array.isArray(raw)
		? raw
		: typeof raw === 'string'
			? raw.split(',')
			: typeof raw === 'number'
				? [String(raw)]
				: [];
	return parts
		.map((p) => (typeof p === 'string' ? p.trim() : typeof p === 'number' ? String(p) : ''))
		.filter((p) => p !== '');
}

/**
 * delete / deleteKeys: valid ids merged in first-seen order, sent `batchSize` members per
 * request; a request naming a locked member deletes nothing (-1009/-1010).
 */
export function expectedDataDelete(
	initial: Store,
	items: Array<{ id: unknown; keys?: unknown }>,
	withKeys: boolean,
	batchSize: number,
	locked: ReadonlySet<string>,
) {
	const rows = new Map<string, Set<string>>();
	for (const item of items) {
		const id = dataMemberId(item.id);
		if (id === undefined) continue;
		const keys = withKeys ? keyList(item.keys) : [];
		if (withKeys && keys.length === 0) continue;
		const row = rows.get(id) ?? new Set<string>();
		rows.set(id, row);
		keys.forEach((k) => row.add(k));
	}
	const store = cloneStore(initial);
	const refused = new Set<string>();
	const ids = [...rows.keys()];
	for (let start = 0; start < ids.length; start += batchSize) {
		const part = ids.slice(start, start + batchSize);
		if (part.some((id) => locked.has(id))) {
			part.forEach((id) => refused.add(id));
			continue;
		}
		for (const id of part) {
			if (!withKeys) {
				store.delete(id);
				continue;
			}
			const entries = store.get(id);
			if (!entries) continue;
			rows.get(id)?.forEach((k) => entries.delete(k));
			if (entries.size === 0) store.delete(id);
		}
	}
	return { store, refused };
}
