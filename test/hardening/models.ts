/**
 * Reference models: what the sandbox state must be after a write, computed directly from the
 * inputs by the documented rules (the node's checks before sending, then the service's rules
 * as the sandbox implements them). Each model is meant to be small enough to check by eye.
 */
import { CONSENTS, DATE_TIMES, KEY_FORMATS, NAMES, PHONES, SEND_PHONES } from './arbitraries';

export type Wire = string | number;
export type Store = Map<string, Map<string, Wire>>;

const hasOwn = (obj: object, key: string) => Object.prototype.hasOwnProperty.call(obj, key);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

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

function isIsoDate(value: unknown): boolean {
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

// ----- members -----

export interface MemberV1 {
	memberId: string;
	phoneNumber: string;
	isReceive: boolean;
	name?: string;
}

export interface MemberV2 {
	memberId: string;
	phoneNumber: string;
	isReceive: 'true' | 'false';
	name?: string;
}

/** A member id, phone or name as text: trimmed text, or a number's text. */
export function memberText(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** A member id as every node reads it: trimmed text or a number's text, no control character. */
export function memberIdText(value: unknown): string | undefined {
	const id = memberText(value);
	return id !== undefined && CONTROL.test(id) ? undefined : id;
}

const RULE_CODES = {
	v1: { both: '-1006', id: '-1006', phone: '-1007', consent: '-1012', name: '-1013' },
	v2: { both: 'F00', id: 'F01', phone: 'F02', consent: '-9997', name: 'F03' },
};

/** The phone the node sends for a PHONES row, or undefined when the node refuses it. */
export function memberPhone(
	row: (typeof PHONES)[number],
	version: 'v1' | 'v2',
	normalize: boolean,
): string | undefined {
	if (normalize) return row.normalized ?? undefined;
	const asGiven = version === 'v1' ? row.v1 !== 'node' : row.v2;
	return asGiven ? memberText(row.given) : undefined;
}

export interface GeneratedMember {
	json: { memberId?: unknown };
	phone: number;
	consent: number;
	name: number | undefined;
}

/**
 * upsert: the node refuses rows breaking a documented rule (in the service's order: id, phone,
 * consent, name) with the service's code; the rest go out `batchSize` per request. v1: a row the
 * service refuses (a phone only the service rejects, a hidden rule) fails alone, every other row
 * is stored in input order. v2: in one request, a phone already used by an earlier row is F11.
 * Gives the outcome of each item ('ok' or its code) and the state.
 */
export function expectedUpsert(
	version: 'v1' | 'v2',
	items: GeneratedMember[],
	normalize: boolean,
	batchSize: number,
	hidden: ReadonlyMap<string, number>,
	initialV1: Map<string, MemberV1>,
	initialV2: Map<string, MemberV2>,
) {
	const codes = RULE_CODES[version];
	const outcomes: string[] = [];
	const pending: Array<{
		index: number;
		memberId: string;
		phoneNumber: string;
		isReceive: boolean;
		name?: string;
	}> = [];
	items.forEach((item, index) => {
		const id = memberIdText(item.json.memberId);
		const phone = memberPhone(PHONES[item.phone], version, normalize);
		const consent = item.consent === -1 ? false : CONSENTS[item.consent].value;
		const name =
			item.name === undefined ? { ok: true as const, stored: undefined } : NAMES[item.name];
		let code: string | undefined;
		if (id === undefined && phone === undefined) code = codes.both;
		else if (id === undefined) code = codes.id;
		else if (phone === undefined) code = codes.phone;
		else if (consent === undefined) code = codes.consent;
		else if (!name.ok) code = codes.name;
		outcomes[index] = code ?? 'ok';
		if (code === undefined) {
			pending.push({
				index,
				memberId: id as string,
				phoneNumber: phone as string,
				isReceive: consent as boolean,
				...(name.stored !== undefined ? { name: name.stored } : {}),
			});
		}
	});
	const v1 = new Map(initialV1);
	const v2 = new Map(initialV2);
	for (let start = 0; start < pending.length; start += batchSize) {
		const seen = new Set<string>();
		for (const row of pending.slice(start, start + batchSize)) {
			const { index, ...record } = row;
			if (version === 'v1') {
				const serviceRefusesPhone = !normalize && PHONES[items[index].phone].v1 === 'service';
				const hiddenCode = hidden.get(record.memberId);
				if (serviceRefusesPhone) outcomes[index] = '-1007';
				else if (hiddenCode !== undefined) outcomes[index] = String(hiddenCode);
				else v1.set(record.memberId, record);
				continue;
			}
			const digits = record.phoneNumber.replace(/[-\s]/g, '');
			if (seen.has(digits)) {
				outcomes[index] = 'F11';
				continue;
			}
			seen.add(digits);
			v2.set(digits, { ...record, isReceive: record.isReceive ? 'true' : 'false' });
		}
	}
	return { outcomes, v1, v2 };
}

// ----- sends -----

export interface SendInput {
	campaign: unknown;
	phone: number;
	k1: string;
	v1: unknown;
	k2: string;
	v2: unknown;
	ref: string;
}

export interface CampaignRule {
	templateBlocked?: boolean;
	required?: string[];
	dates?: string[];
}

/**
 * One send per item: the node refuses an empty campaign key (7011), a number that is not 12
 * characters (7012) and unusable template variables (1203); the service then refuses an unknown
 * campaign (7011), a blocked template (7007), a missing required variable (7011) and a date
 * variable that is not YYYY-MM-DD (1204). Gives each item's outcome and the messages sent.
 */
export function expectedSends(
	items: SendInput[],
	convert: boolean,
	campaigns: Record<string, CampaignRule>,
) {
	const outcomes: string[] = [];
	const sent: Array<{
		campaignKey: string;
		phoneNumber: string;
		properties: Record<string, unknown>;
	}> = [];
	items.forEach((item, index) => {
		const campaignKey =
			typeof item.campaign === 'string' || typeof item.campaign === 'number'
				? String(item.campaign).trim()
				: '';
		const table = SEND_PHONES[item.phone];
		const phoneNumber = convert ? table.converted : table.asIs;
		if (campaignKey === '') return void (outcomes[index] = '7011');
		if (phoneNumber === null) return void (outcomes[index] = '7012');
		const properties: Record<string, unknown> = {};
		for (const [rawKey, value] of [
			['ref', item.ref],
			[item.k1, item.v1],
			[item.k2, item.v2],
		] as Array<[string, unknown]>) {
			const key = rawKey.trim();
			if (key === '' || /[\r\n]/.test(key) || hasOwn(properties, key))
				return void (outcomes[index] = '1203');
			Object.defineProperty(properties, key, {
				value,
				enumerable: true,
				configurable: true,
				writable: true,
			});
		}
		const rule = hasOwn(campaigns, campaignKey) ? campaigns[campaignKey] : undefined;
		const missing = (v: unknown) =>
			v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
		if (!rule) return void (outcomes[index] = '7011');
		if (rule.templateBlocked) return void (outcomes[index] = '7007');
		if ((rule.required ?? []).some((name) => missing(properties[name])))
			return void (outcomes[index] = '7011');
		if (
			(rule.dates ?? []).some(
				(name) =>
					properties[name] !== undefined &&
					properties[name] !== null &&
					!isIsoDate(properties[name]),
			)
		) {
			return void (outcomes[index] = '1204');
		}
		outcomes[index] = 'ok';
		sent.push({ campaignKey, phoneNumber, properties });
	});
	return { outcomes, sent };
}
