/** What to change for the codes Alimtalk senders meet most (advice.ts of shared; docs/service-rules.md#codes). */
import type { AdviceTable } from '../../shared/advice';

export const ADVICE: AdviceTable = {
	'7012': {
		problem: 'phone number not 12 characters long',
		change: 'turn on Options → Convert Phone Numbers, or send numbers in the form 821012345678.',
	},
	sendLimitReached: {
		problem: 'the send limit of this node is used up for the period',
		change:
			'wait until the time in sendLimitResetsAt (the limit resets then), or raise Options → Send Limit if more messages are intended.',
	},
};
