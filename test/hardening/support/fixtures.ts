/**
 * Setups and readers shared by the hardening suites: sandbox state before a case, node
 * parameters, and how outputs are read back (outcome per item, rows of an item).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { Sandbox } from '../../../sandbox/server';
import { KEY_FORMATS } from '../arbitraries';
import { SEND_PHONES } from '../arbitraries-sends';
import { cloneStore, type Store, type Wire } from '../models';
import type { MemberV1, MemberV2 } from '../models-members';
import type { CampaignRule, SendInput } from '../models-sends';
import { pairsOf, type RowRef } from './scan';

// ----- custom data -----

/** Resets the sandbox, registers the keys, stores the initial entries; returns a copy of them. */
export function prepareData(
	s: Sandbox,
	store: (s: Sandbox) => Store,
	initial: Array<[string, string, Wire]>,
): Store {
	s.reset();
	s.configure({
		faults: undefined,
		pageSize: undefined,
		pagingEnd: undefined,
		stringCodes: undefined,
	});
	for (const [key, format] of KEY_FORMATS) s.registerKey(key, format);
	const entries = store(s);
	for (const [id, key, value] of initial) {
		if (!entries.has(id)) entries.set(id, new Map());
		entries.get(id)?.set(key, value);
	}
	return cloneStore(entries);
}

const stable = (value: unknown) => JSON.stringify(value) ?? 'undefined';

/** The rows of a create/update output item: member + key, with the value it says was stored or refused. */
export function dataRows(json: IDataObject, output: 0 | 1): RowRef[] {
	const member = String(json.memberId);
	if (output === 0) {
		const values = (json.values ?? {}) as IDataObject;
		return ((json.keys ?? []) as string[]).map((key) => ({
			id: `${member}\u0001${key}`,
			value: stable(values[key]),
		}));
	}
	if ('key' in json)
		return [{ id: `${member}\u0001${String(json.key)}`, value: stable(json.value) }];
	if (Array.isArray(json.keys))
		return (json.keys as string[]).map((key) => ({ id: `${member}\u0001${key}` }));
	return [];
}

// ----- members -----

export function prepareMembers(s: Sandbox, initial: Array<[string, string]>) {
	s.reset();
	s.configure({ faults: undefined });
	for (const [memberId, phoneNumber] of initial) {
		s.state.membersV1.set(memberId, { memberId, phoneNumber, isReceive: true, name: 'old' });
		s.state.membersV2.set(phoneNumber.replace(/-/g, ''), {
			memberId,
			phoneNumber,
			isReceive: 'true',
			name: 'old',
		});
	}
	return {
		v1: new Map(s.state.membersV1) as Map<string, MemberV1>,
		v2: new Map(s.state.membersV2) as Map<string, MemberV2>,
	};
}

/** Each item's outcome as the outputs say: 'ok' on Success, its code on Failed. */
export function outcomesOf(out: INodeExecutionData[][], count: number): string[] {
	const outcomes: string[] = new Array<string>(count).fill('missing');
	for (const item of out[0]) for (const i of pairsOf(item)) outcomes[i] = 'ok';
	for (const item of out[1]) for (const i of pairsOf(item)) outcomes[i] = String(item.json.code);
	return outcomes;
}

// ----- sends -----

export const CAMPAIGN_RULES: Record<string, CampaignRule> = {
	WELCOME: { required: ['name'] },
	DATED: { dates: ['day'] },
	PLAIN: {},
	캠페인: {},
	BLOCKED: { templateBlocked: true },
};

export function prepareCampaigns(s: Sandbox): void {
	s.reset();
	s.configure({ faults: undefined, triggerResponse: undefined });
	s.addCampaign('WELCOME', { requiredVariables: ['name'] });
	s.addCampaign('DATED', { dateVariables: ['day'] });
	s.addCampaign('PLAIN');
	s.addCampaign('캠페인');
	s.addCampaign('BLOCKED', { templateState: 'blocked' });
}

/** Two key/value pairs taken from an item's k1/v1 and k2/v2, through expressions. */
export const ITEM_PAIRS = [
	{ key: '={{ $json.k1 }}', value: '={{ $json.v1 }}' },
	{ key: '={{ $json.k2 }}', value: '={{ $json.v2 }}' },
];

/** The send node's parameters: every value from the item, through expressions. */
export const SEND_PARAMETERS: IDataObject = {
	operation: 'send',
	campaignKey: '={{ $json.campaign }}',
	phoneNumber: '={{ $json.phone }}',
	variablesInput: 'fields',
	properties: {
		property: [{ key: 'ref', value: '={{ $json.ref }}' }, ...ITEM_PAIRS],
	},
};

export const sendInputs = (generated: Array<Omit<SendInput, 'ref'>>): SendInput[] =>
	generated.map((g, i) => ({ ...g, ref: `r${i}` }));

export const sendJson = (inputs: SendInput[]): IDataObject[] =>
	JSON.parse(
		JSON.stringify(
			inputs.map(({ phone, ...rest }) => ({ ...rest, phone: SEND_PHONES[phone].given })),
		),
	) as IDataObject[];

/** The items of one send: the PLAIN campaign to the first phone, name and coupon set. */
export const oneSendJson = (): IDataObject[] =>
	sendJson(
		sendInputs([{ campaign: 'PLAIN', phone: 0, k1: 'name', v1: 'Kim', k2: 'coupon', v2: 'X' }]),
	);

/** Sent messages in a comparable order (by their ref). */
export const byRef = <T extends { properties: Record<string, unknown> }>(list: T[]) =>
	[...list].sort((a, b) => String(a.properties.ref).localeCompare(String(b.properties.ref)));
