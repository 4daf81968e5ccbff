/**
 * The send's own codes. The service's are in shared/codes.ts, the Send Limit's (and
 * `memberNotAvailable`, which its lookups' bound answers too) in limit/limit-options.ts, the
 * Deduplication Key's in key/key-failures.ts; advice in advice.ts.
 */
import type { CodeInfo } from '../../shared/codes';
import { LIMIT_CODE, LIMIT_INFO, MEMBER_UNAVAILABLE_CODE } from '../limit/limit-options';

export { LIMIT_CODE, MEMBER_UNAVAILABLE_CODE } from '../limit/limit-options';

/** A keyless send refused as a tool (guard.ts). */
export const KEY_REQUIRED_CODE = 'deduplicationKeyRequired';

/** A send to a Member ID refused as a tool beside a tool that can write a member or read its number (beside.ts). */
export const MEMBER_WRITE_BESIDE_CODE = 'memberWriteToolBeside';

/** Recipient: Member ID, when the lookup gives no one number to send to (recipients.ts). */
export const MEMBER_NOT_FOUND_CODE = 'memberNotFound';
export const SEVERAL_MEMBERS_CODE = 'severalMemberRecords';
export const MEMBER_REFUSES_CODE = 'memberRefusesMessages';

const rejected = (message: string, hint: string): CodeInfo => ({ kind: 'rejected', message, hint });

/** By Recipient; never a key the model fills (docs/ai-agents.md, "No keyless send as a tool"). */
export const SET_KEY = {
	phoneNumber:
		"Set Options → Deduplication Key on the send tool to a key of the day, e.g. notice-{{ $now.toFormat('yyyy-MM-dd') }}, and turn on Deduplicate per Recipient: at most one message per phone number per day, however the model spells the number.",
	memberId:
		"Set Options → Deduplication Key on the send tool to a key of the day, e.g. notice-{{ $now.toFormat('yyyy-MM-dd') }}, and turn on Deduplicate per Recipient: at most one message per member's number per day, whichever member ID the model gives.",
} as const;

/** Nothing is sent for any of them. */
export const SEND_CODES: Readonly<Record<string, CodeInfo>> = {
	[MEMBER_NOT_FOUND_CODE]: rejected(
		'No member record has this member ID',
		'Check the member ID, or save the member first (Campaign Members).',
	),
	[SEVERAL_MEMBERS_CODE]: rejected(
		'Several member records have this member ID',
		'Keep one phone number under the member ID, or send to a phone number instead.',
	),
	[MEMBER_REFUSES_CODE]: rejected(
		'The member does not accept messages',
		'Nothing was sent: Only Members Who Accept Messages is on and isReceive is false.',
	),
	[MEMBER_UNAVAILABLE_CODE]: rejected(
		'No message can be sent to this member ID',
		"The member ID is not on record, its record cannot be sent to, or the member does not accept messages: the workflow's Failed items outside tool mode say which.",
	),
	// docs/ai-agents.md, "No keyless send as a tool"
	[KEY_REQUIRED_CODE]: rejected(
		'As an AI-agent tool, Campaign Alimtalk Send needs a Deduplication Key: nothing was sent',
		SET_KEY.phoneNumber,
	),
	// docs/ai-agents.md, "No member tool beside a send to a member"
	[MEMBER_WRITE_BESIDE_CODE]: rejected(
		'As an AI-agent tool, Campaign Alimtalk Send to a Member ID does not run beside a tool that can save a member or read its number, a Campaign Members tool or any other holding the Campaign credential, such as an HTTP Request tool (the model could save a member with a number of its choosing and then send to it): nothing was sent',
		"Move every Campaign Members tool, and any HTTP Request or other tool holding the Campaign credential, to a separate workflow, or put each behind human review (a review tool node between it and the agent: n8n's human-in-the-loop tool approval).",
	),
	[LIMIT_CODE]: LIMIT_INFO,
};
