/**
 * What to change when a code comes back, by the node it came from: the one table behind the
 * execution hints after a run (hints.ts) and the `whatToDo` of an AI agent's answer (tool.ts).
 * The codes' plain words and their generic hints are in codes.ts.
 */
import { CODES } from './codes';

/** Which node a code was met in: the meaning of some codes, and what to change, depends on it. */
export type AdviceArea = 'alimtalk' | 'members' | 'data';

/** The area of a node type, `<package>.<name>` or its AI-agent tool copy `<package>.<name>Tool`. */
export function adviceAreaOf(nodeType: string): AdviceArea | undefined {
	const name = nodeType.slice(nodeType.lastIndexOf('.') + 1).replace(/Tool$/, '');
	if (name === 'campaignAlimtalk') return 'alimtalk';
	if (name === 'campaignMembers') return 'members';
	if (name === 'campaignCustomData' || name === 'campaignLegacyData') return 'data';
	return undefined;
}

/** A common code in a node: the problem in a few words, and what to change (options by name). */
export interface Advice {
	problem: string;
	change: string;
}

const DELETE_LATER: Advice = {
	problem: 'a delete the service refuses for now',
	change: 'run it again for the Failed items after their retryAfter time (30 minutes on).',
};
const MEMBER_PHONE: Advice = {
	problem: 'phone number format',
	change: 'keep Options → Normalize Phone Numbers on, or send numbers like 010-1234-5678.',
};

/**
 * What to change for the codes users meet most (docs/service-rules.md#codes), by area: the one
 * table behind the execution hints (hints.ts) and the `whatToDo` of an AI-agent answer (tool.ts).
 * Other codes fall back to the code table's `hint`.
 */
export const ADVICE: Readonly<Record<AdviceArea, Readonly<Record<string, Advice>>>> = {
	alimtalk: {
		'7012': {
			problem: 'phone number not 12 characters long',
			change: 'turn on Options → Convert Phone Numbers, or send numbers in the form 821012345678.',
		},
	},
	members: {
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
	},
	data: {
		F01: {
			problem: 'key not registered',
			change:
				'register the key in the service first, or leave the field out with Options → Fields to Ignore.',
		},
		F02: {
			problem: "value not in the key's registered format",
			change:
				'send it in that format (dates as YYYY-MM-DD); null, objects and arrays are never sent.',
		},
		'-1009': DELETE_LATER,
		'-1010': DELETE_LATER,
	},
};

/** What to change for `code` met in `area`: its advice, else the code table's hint; '' when none. */
export function whatToChange(code: string, area: AdviceArea | undefined): string {
	const change = (area ? ADVICE[area][code]?.change : undefined) ?? CODES[code]?.hint ?? '';
	return change.charAt(0).toUpperCase() + change.slice(1);
}
