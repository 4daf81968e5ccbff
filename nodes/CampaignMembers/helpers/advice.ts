/**
 * The codes a member row meets (docs/service-rules.md#codes): their words (`ruleWords`, the row
 * codes of an answer in `ROW_CODES`) and what to change for the ones member writes meet most
 * (`ADVICE`, the operations' `advice`: nodes/shared/advice.ts).
 */
import type { Advice, AdviceTable } from '../../shared/advice';
import { DELETE_LATER } from '../../shared/advice';
import type { RowCodes } from '../../shared/codes';
import { describeCode, describeRowCode, serviceWords } from '../../shared/codes';

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

/** The words of the row-level codes in this node's answers (docs/service-rules.md#codes). */
export const ROW_CODES: RowCodes = {
	F00: 'No member ID, and the phone number format does not match',
	F01: 'No member ID',
	F02: 'The phone number format does not match (expected e.g. 010-1234-5678)',
	F03: 'The name is longer than 20 characters',
	F11: 'Duplicate phone number in the same request: an earlier row with this number was saved instead',
};

/** Plain words for a code the node or the service gave a member row. */
export function ruleWords(code: string, serviceMessage?: unknown): string {
	if (/^F\d\d$/.test(code)) return describeRowCode(ROW_CODES, code, serviceMessage);
	return serviceWords(describeCode(code).message, serviceMessage, { trim: true, keepSame: true });
}
