/**
 * `model` (what an AI agent is told) never names a way around a guard rail
 * (docs/ai-agents.md, "What holds against a hostile model").
 */
import type { AdviceTable } from '../../shared/advice';
import { ASK_OWNER } from '../../shared/advice';
import { LIMIT_ADVICE, LIMIT_CODE } from '../limit/limit-options';

export const ADVICE: AdviceTable = {
	'7012': {
		problem: 'phone number not 12 characters long',
		change: 'turn on Options → Convert Phone Numbers, or send numbers in the form 821012345678.',
		model:
			"Give the phone number in the 12-character form, e.g. 821012345678, or ask the workflow's owner to turn on Convert Phone Numbers. To a member ID, the number on record cannot be sent to: ask the workflow's owner.",
	},
	// Recipient: Member ID (recipients.ts)
	'-1006': {
		problem: 'member ID not valid',
		change: 'give a member ID that is text or a number, without line breaks.',
		model:
			'Give the member ID exactly as it is on record: no spaces around it, no invisible or look-alike characters.',
	},
	memberNotFound: {
		problem: 'no member record under the member ID',
		change: 'check the member ID, or save the member with Campaign Members first.',
		model: `Check the member ID with the user; only a member on record can be sent to. ${ASK_OWNER}`,
	},
	severalMemberRecords: {
		problem: 'several member records (phone numbers) under one member ID',
		change: 'keep one phone number under the member ID, or send to a Phone Number instead.',
		model: `The member's record must be fixed first. ${ASK_OWNER}`,
	},
	memberRefusesMessages: {
		problem: 'member does not accept messages',
		change:
			'nothing to change if that is intended; turn off Options → Only Members Who Accept Messages to send anyway.',
		model: `The member has not agreed to receive messages, so none is sent. ${ASK_OWNER}`,
	},
	memberNotAvailable: {
		problem: 'no message can be sent to this member ID (as an AI-agent tool, every refused lookup)',
		change:
			'check the member records: the member ID is not on record, has several, a number that cannot be sent to, or does not accept messages; or the lookups are paused until sendLimitResetsAt (as many refused as the Send Limit).',
		model:
			"No message can be sent to this member ID. Do not try other IDs or spellings: tell the user, or ask the workflow's owner.",
	},
	// As a tool (beside.ts)
	memberWriteToolBeside: {
		problem:
			'a Campaign Members tool, or another tool holding the Campaign credential, serves the same AI agent as this send to a member ID',
		change:
			'move every Campaign Members tool and any HTTP Request or other tool holding the Campaign credential to a separate workflow, or put each behind human review.',
		model: `No message can be sent to a member while this workflow also gives you a tool that reads or changes member records. ${ASK_OWNER}`,
	},
	[LIMIT_CODE]: LIMIT_ADVICE,
};
