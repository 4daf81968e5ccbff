/**
 * The guardrails of issue 32 as tools, for test/e2e/guardrails.e2e.ts: a send by member id (the
 * model names a member, never a number) with a Deduplication Key of member and day and a send
 * limit of 2 per hour; the same send without a key (refused as a tool); a Legacy Data Get of one
 * item per member. And the members they send to, seeded in the sandbox (member API v2).
 */
import type { Sandbox } from '../../../sandbox/server';
import type { ToolNode } from './agent';

/** The same `$fromAI()` in the member ID and the key: n8n needs one definition per key. */
const MEMBER_ID = "$fromAI('memberId', 'The member ID in the CRM', 'string')";

/**
 * The send of the targets: by member id, key `notice-<memberId>-<day>`, 2 per hour
 * (`limit`), and optionally Only Members Who Accept Messages (`accepting`).
 */
export function noticeTool(
	name: string,
	options: { key?: boolean; limit?: number; accepting?: boolean } = {},
) {
	const { key = true, limit = 2, accepting = false } = options;
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
				...(key
					? { deduplicationKey: `=notice-{{ ${MEMBER_ID} }}-{{ $now.toFormat('yyyy-MM-dd') }}` }
					: {}),
				...(limit ? { sendLimit: limit, sendLimitPeriod: 'hour' } : {}),
				...(accepting ? { acceptingMembersOnly: true } : {}),
			},
		},
	} satisfies ToolNode;
}

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
