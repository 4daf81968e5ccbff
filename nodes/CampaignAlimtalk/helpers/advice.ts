/** What to change for the codes Alimtalk senders meet most (advice.ts of shared; docs/service-rules.md#codes). */
import type { AdviceTable } from '../../shared/advice';

export const ADVICE: AdviceTable = {
	'7012': {
		problem: 'phone number not 12 characters long',
		change: 'turn on Options → Convert Phone Numbers, or send numbers in the form 821012345678.',
	},
	// Recipient: Member ID (recipients.ts)
	'-1006': {
		problem: 'member ID not valid',
		change: 'give a member ID that is text or a number, without line breaks.',
	},
	memberNotFound: {
		problem: 'no member record under the member ID',
		change: 'check the member ID, or save the member with Campaign Members first.',
	},
	severalMemberRecords: {
		problem: 'several member records (phone numbers) under one member ID',
		change: 'keep one phone number under the member ID, or send to a Phone Number instead.',
	},
	memberRefusesMessages: {
		problem: 'member does not accept messages',
		change:
			'nothing to change if that is intended; turn off Options → Only Members Who Accept Messages to send anyway.',
	},
	sendLimitReached: {
		problem: 'the send limit of this node is used up for the period',
		change:
			'wait until the time in sendLimitResetsAt (the limit resets then), or raise Options → Send Limit if more messages are intended.',
	},
};
