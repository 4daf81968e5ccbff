/** What to change for the codes member writes meet most (advice.ts of shared; docs/service-rules.md#codes). */
import type { Advice, AdviceTable } from '../../shared/advice';
import { DELETE_LATER } from '../../shared/advice';

const MEMBER_PHONE: Advice = {
	problem: 'phone number format',
	change: 'keep Options → Normalize Phone Numbers on, or send numbers like 010-1234-5678.',
};

export const ADVICE: AdviceTable = {
	F00: {
		problem: 'no member ID, and a phone number of the wrong format',
		change: 'give a member ID and a Korean mobile number such as 010-1234-5678.',
	},
	F01: { problem: 'no member ID', change: 'give every row a member ID.' },
	F02: MEMBER_PHONE,
	'-1007': MEMBER_PHONE,
	F03: {
		problem: 'name longer than 20 characters',
		change: 'shorten the name to at most 20 characters.',
	},
	F11: {
		problem: 'the same phone number twice in one request',
		change: 'the first row with it was saved; send each phone number once.',
	},
	'-1009': DELETE_LATER,
	'-1010': DELETE_LATER,
};
