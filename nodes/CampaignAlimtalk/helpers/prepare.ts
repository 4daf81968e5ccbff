/** A broken rule becomes a Failed row with the code the service uses for it, never a request. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { Failure } from '../../shared/outcome';
import { internationalMobile } from '../../shared/phone';
import { readRecipientId } from '../../shared/members';
import { paddingRule, unseenRule } from '../../shared/unicode';
import { setField } from '../../shared/values';
import type { SendOptions } from './send-options';

/** The send's documented length rule (docs/service-rules.md#send, code 7012). */
export const PHONE_LENGTH = 12;

/** What a lookup would answer for an invalid member ID (docs/service-rules.md#member-ids). */
export const MEMBER_ID_CODE = '-1006';

export interface PreparedSend {
	campaignKey: string;
	phoneNumber: string;
	properties: IDataObject;
	/** With Recipient: Member ID, the member whose number `phoneNumber` is. */
	memberId?: string;
}

/** An item to a member ID, checked but not looked up yet: recipients.ts gives it its number. */
export interface PendingMember {
	campaignKey: string;
	memberId: string;
	properties: IDataObject;
}

/** Ready to send, or refused: `ownMessage` as an outcome's (shared/outcome.ts). */
export type Prepared = { send: PreparedSend } | { failure: Failure; ownMessage?: string };

/** An item as its parameters give it: ready to send, refused, or waiting for its member's number. */
export type Read = Prepared | { member: PendingMember };

function rule(code: string, message: string, fields: IDataObject): Prepared {
	return { failure: { code, message, ...fields } };
}

function readVariables(ctx: IExecuteFunctions, i: number): IDataObject | string {
	const mode = ctx.getNodeParameter('variablesInput', i, 'fields') as string;
	let pairs: Array<[unknown, unknown]>;
	if (mode === 'json') {
		let raw = ctx.getNodeParameter('propertiesJson', i, {}) as unknown;
		if (typeof raw === 'string') {
			try {
				raw = raw.trim() === '' ? {} : JSON.parse(raw);
			} catch {
				return 'Template Variables (JSON) is not valid JSON';
			}
		}
		if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
			return 'Template Variables (JSON) must be a JSON object of variable name to value';
		}
		pairs = Object.entries(raw);
	} else {
		const collection = ctx.getNodeParameter('properties.property', i, []) as Array<{
			key?: unknown;
			value?: unknown;
		}>;
		pairs = collection.map((p) => [p.key, p.value]);
	}
	const variables: IDataObject = {};
	for (const [rawKey, value] of pairs) {
		const key = typeof rawKey === 'string' ? rawKey.trim() : '';
		if (key === '') return 'A template variable has an empty key';
		if (/[\r\n]/.test(key))
			return `Template variable key "${key.replace(/[\r\n]+/g, ' ')}" contains a line break`;
		if (Object.prototype.hasOwnProperty.call(variables, key))
			return `Template variable key "${key}" is given twice; keys must be unique`;
		setField(variables, key, value); // a key named __proto__ is sent as a key, like every other
	}
	return variables;
}

function prepareMember(ctx: IExecuteFunctions, i: number, campaignKey: string, bad?: string): Read {
	const raw = ctx.getNodeParameter('memberId', i, '') as unknown;
	const id = readRecipientId(raw);
	const given = typeof raw === 'string' || typeof raw === 'number' ? raw : null;
	const fields = { campaignKey, memberId: id.ok ? id.value : given, phoneNumber: null };
	if (bad) return rule('7011', bad, fields);
	if (!id.ok) return rule(MEMBER_ID_CODE, `Member ID ${id.reason}`, fields);
	const variables = readVariables(ctx, i);
	if (typeof variables === 'string') return rule('1203', variables, fields);
	return { member: { campaignKey, memberId: id.value, properties: variables } };
}

/** The Campaign Key as sent, and why it is refused (docs/deduplication.md, "What enters a key"). */
function readCampaignKey(ctx: IExecuteFunctions, i: number, keyed: boolean) {
	const raw = ctx.getNodeParameter('campaignKey', i, '') as unknown;
	const given = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
	const padded = keyed && given.trim() !== '' ? paddingRule(given) : undefined;
	if (padded)
		return { campaignKey: given, bad: `Campaign Key ${padded} (a Deduplication Key is set)` };
	const empty = 'Campaign Key is empty: set the key of the API-trigger campaign';
	return { campaignKey: given.trim(), bad: given.trim() === '' ? empty : undefined };
}

export function prepare(ctx: IExecuteFunctions, i: number, options: SendOptions): Read {
	const { campaignKey, bad } = readCampaignKey(ctx, i, options.dedup !== undefined);
	// A workflow saved before Recipient existed has none: it sends to the Phone Number, as then.
	const recipient = ctx.getNodeParameter('recipient', i, 'phoneNumber') as unknown;
	if (recipient === 'memberId') return prepareMember(ctx, i, campaignKey, bad);
	if (recipient !== 'phoneNumber') {
		const words = `Recipient must be "phoneNumber" or "memberId" (got ${JSON.stringify(recipient) ?? String(recipient)})`;
		return rule('1203', words, { campaignKey, phoneNumber: null });
	}
	const rawPhone = ctx.getNodeParameter('phoneNumber', i, '') as unknown;
	const given =
		typeof rawPhone === 'string' || typeof rawPhone === 'number' ? String(rawPhone).trim() : '';
	const fields = { campaignKey, phoneNumber: given };
	if (bad) return rule('7011', bad, fields);
	if (given === '') return rule('7012', 'Phone Number is empty', fields);
	const unseen = unseenRule(given);
	if (unseen) return rule('7012', `Phone Number ${unseen}`, fields);
	const phoneNumber = options.convert ? (internationalMobile(given) ?? given) : given;
	if (phoneNumber.length !== PHONE_LENGTH) {
		return rule(
			'7012',
			`Phone Number must be exactly ${PHONE_LENGTH} characters (got ${phoneNumber.length}: "${phoneNumber}")${options.convert ? '' : '; turn on the Convert Phone Numbers option for numbers such as 010-1234-5678'}`,
			fields,
		);
	}
	const variables = readVariables(ctx, i);
	if (typeof variables === 'string') return rule('1203', variables, { ...fields, phoneNumber });
	return { send: { campaignKey, phoneNumber, properties: variables } };
}

/** All read first, so an expression error cannot stop the node after some messages went out. */
export function prepareAll(ctx: IExecuteFunctions, count: number, options: SendOptions): Read[] {
	return Array.from({ length: count }, (_, i) => prepare(ctx, i, options));
}

export function sendable(prepared: readonly Prepared[]): number[] {
	return prepared.flatMap((entry, i) => ('send' in entry ? [i] : []));
}
