/**
 * Reference model of the member upserts (v1 and v2): which rows the node refuses with which
 * code, what the service then stores, computed from the generated items by the documented rules
 * (the shared rules and the custom data models: models.ts).
 */
import { CONSENTS, NAMES, PHONES } from './arbitraries-members';
import { CONTROL } from './models';

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
