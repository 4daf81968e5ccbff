/**
 * The guard rails of docs/agent-tools.md as tools, for test/e2e/guardrails.e2e.ts and mcp.e2e.ts: a
 * send by member id (the model names a member, never a number) with a Deduplication Key of member
 * and day and a send limit of 2 per hour; the same send without a key (refused as a tool); the
 * send docs/agent-tools.md recommends (a key of the day, Deduplicate per Recipient, Only Members
 * Who Accept Messages, 20 a day), by member and by phone number (with Convert Phone Numbers or
 * without); a send whose campaign key the model picks; a Campaign Members Create or Update tool
 * (version 2, the resource mapper); a Legacy Data Get of one item per member; n8n's HTTP Request
 * tool with the Campaign credential. And the members they send to, seeded in the sandbox (member
 * API v2).
 */
import type { Sandbox } from '../../../sandbox/server';
import type { ToolNode } from './agent';

/** The same `$fromAI()` in the member ID and the key: n8n needs one definition per key. */
const MEMBER_ID = "$fromAI('memberId', 'The member ID in the CRM', 'string')";

const DAY = "{{ $now.toFormat('yyyy-MM-dd') }}";

/** The keys a send tool can have: of member and day, of the day alone, or none. */
const KEYS = {
	member: { deduplicationKey: `=notice-{{ ${MEMBER_ID} }}-${DAY}` },
	day: { deduplicationKey: `=notice-${DAY}` },
	none: {},
};

/**
 * The send of the targets: by member id, key `notice-<memberId>-<day>` (`key`), 2 per hour
 * (`limit`, `period`), and optionally Only Members Who Accept Messages (`accepting`) and
 * Deduplicate per Recipient (`perRecipient`).
 */
export function noticeTool(
	name: string,
	options: {
		key?: keyof typeof KEYS | false;
		limit?: number;
		period?: 'hour' | 'day';
		accepting?: boolean;
		perRecipient?: boolean;
	} = {},
) {
	const { key = 'member', limit = 2, period = 'hour', accepting = false } = options;
	return {
		name,
		type: 'campaignAlimtalk',
		parameters: {
			operation: 'send',
			campaignKey: 'DEMO-WELCOME',
			recipient: 'memberId',
			memberId: `={{ ${MEMBER_ID} }}`,
			variablesInput: 'json',
			propertiesJson: '={"name":"Customer","coupon":"-"}',
			options: {
				...KEYS[key || 'none'],
				...(options.perRecipient ? { deduplicationPerRecipient: true } : {}),
				...(limit ? { sendLimit: limit, sendLimitPeriod: period } : {}),
				...(accepting ? { acceptingMembersOnly: true } : {}),
			},
		},
	} satisfies ToolNode;
}

/**
 * The send by member that docs/agent-tools.md recommends ("Which to use"): a key of the day,
 * Deduplicate per Recipient, Only Members Who Accept Messages, at most 20 a day.
 */
export const guardedTool = (name: string) =>
	noticeTool(name, { key: 'day', perRecipient: true, accepting: true, limit: 20, period: 'day' });

/**
 * A send to the number the model gives (the $fromAI() line of docs/agent-tools.md) with a key of
 * the day, Convert Phone Numbers (unless `convert` is false) and Deduplicate per Recipient: one
 * message per number and day.
 */
export function numberTool(name: string, convert = true): ToolNode {
	return {
		name,
		type: 'campaignAlimtalk',
		parameters: {
			operation: 'send',
			campaignKey: 'DEMO-WELCOME',
			phoneNumber:
				"={{ $fromAI('phoneNumber', 'Korean mobile number of the customer, e.g. 821012345678', 'string') }}",
			variablesInput: 'json',
			propertiesJson: '={"name":"Customer","coupon":"-"}',
			options: { ...KEYS.day, convertPhoneNumbers: convert, deduplicationPerRecipient: true },
		},
	};
}

const CAMPAIGN = "$fromAI('campaignKey', 'Key of the API-trigger campaign', 'string')";

/** A send whose campaign key the model picks, to a fixed number, keyed on campaign and day. */
export function campaignTool(name: string, phoneNumber: string): ToolNode {
	return {
		name,
		type: 'campaignAlimtalk',
		parameters: {
			operation: 'send',
			campaignKey: `={{ ${CAMPAIGN} }}`,
			phoneNumber,
			variablesInput: 'json',
			propertiesJson: '={"name":"Customer","coupon":"-"}',
			options: { deduplicationKey: `=notice-{{ ${CAMPAIGN} }}-${DAY}` },
		},
	};
}

const field = (id: string, displayName: string, type: string, key = false) => ({
	id,
	displayName,
	required: key || id === 'memberId',
	defaultMatch: key,
	display: true,
	type,
	canBeUsedToMatch: key,
});

/**
 * A Campaign Members Create or Update tool as the editor saves version 2: member API v2 and
 * Create or Update are the defaults (not saved), the resource mapper Define Below with member ID,
 * phone number and consent from the model.
 */
export const SAVE_MEMBER_TOOL: ToolNode = {
	name: 'Save Member',
	type: 'campaignMembers',
	typeVersion: 2,
	parameters: {
		columns: {
			mappingMode: 'defineBelow',
			value: {
				phoneNumber:
					"={{ $fromAI('phoneNumber', 'Korean mobile number of the member, e.g. 010-1234-5678', 'string') }}",
				memberId: `={{ ${MEMBER_ID} }}`,
				isReceive: "={{ $fromAI('isReceive', 'Whether the member accepts messages', 'boolean') }}",
			},
			matchingColumns: ['phoneNumber'],
			schema: [
				field('phoneNumber', 'Phone Number', 'string', true),
				field('memberId', 'Member ID', 'string'),
				field('isReceive', 'Receives SMS', 'boolean'),
				field('name', 'Name', 'string'),
			],
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		},
		options: {},
	},
};

/**
 * n8n's HTTP Request tool (4.2, as the editor saves it) with the Campaign credential as its
 * predefined credential type: a POST of the JSON body the model gives to the URL the model gives.
 */
export const HTTP_CAMPAIGN_TOOL: ToolNode = {
	name: 'Call Service',
	type: 'n8n-nodes-base.httpRequestTool',
	typeVersion: 4.2,
	parameters: {
		toolDescription: 'Calls the campaign service',
		method: 'POST',
		url: "={{ $fromAI('url', 'The URL to call', 'string') }}",
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'campaignApi',
		sendBody: true,
		specifyBody: 'json',
		jsonBody: "={{ $fromAI('body', 'The JSON body to send', 'string') }}",
		options: {},
	},
};

/** A Legacy Data Get with One Item per Member: a member's data, read by the model. */
export const LEGACY_GET_TOOL: ToolNode = {
	name: 'Member data',
	type: 'campaignLegacyData',
	parameters: {
		operation: 'get',
		memberId: "={{ $fromAI('memberId', 'The member ID in the CRM', 'string') }}",
		options: { outputFormat: 'member' },
	},
};

/** Members by id: their phone number as stored (v2) and as the send's 12-character form. */
export interface Member {
	memberId: string;
	stored: string;
	sendForm: string;
}

export function member(memberId: string, n: number): Member {
	const digits = `0107000${String(n).padStart(4, '0')}`;
	return {
		memberId,
		stored: `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`,
		sendForm: `82${digits.slice(1)}`,
	};
}

/** Seeds `members` as v2 member records that accept messages. */
export function seedMembers(sb: Sandbox, members: Member[]): void {
	for (const m of members) {
		sb.state.membersV2.set(m.stored.replace(/-/g, ''), {
			memberId: m.memberId,
			phoneNumber: m.stored,
			isReceive: 'true',
			name: `Name of ${m.memberId}`,
		});
	}
}
