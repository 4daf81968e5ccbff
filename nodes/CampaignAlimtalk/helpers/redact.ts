/**
 * As a tool, a send to a member ID never tells the model the member's number. The service's own
 * text is not withheld here: it never reaches a model from a send (docs/ai-agents.md, "The send
 * (Campaign Alimtalk, *Recipient: Member ID*)", also for why).
 */
import type { IDataObject } from 'n8n-workflow';
import type { Outcome } from '../../shared/outcome';
import type { Prepared } from './prepare';
import {
	MEMBER_NOT_FOUND_CODE,
	MEMBER_REFUSES_CODE,
	MEMBER_UNAVAILABLE_CODE,
	SEND_CODES,
	SEVERAL_MEMBERS_CODE,
} from './send-codes';

export const WITHHELD = '[number withheld]';

/**
 * Given back as they are: the model or the workflow wrote them, and a code withheld because the
 * number holds its digits (1204 in 010-1204-5678) would reveal them.
 */
const KEPT = new Set(['memberId', 'deduplicationKey', 'campaignKey', 'code']);

/** Digits, with the separators a number is written with between them (spaces, - . / ( ) +). */
const DIGIT_RUN = /\+?\d(?:[\s\-./()]*\d)*/g;

/** The digit forms of one number: as stored, national (010...), without the 0, international (8210...). */
function formsOf(number: string): string[] {
	const digits = number.replace(/\D/g, '');
	const national = digits.startsWith('82') ? `0${digits.slice(2)}` : digits;
	const core = national.replace(/^0/, '');
	return [digits, national, core, `82${core}`];
}

/** The numbers of the members an execution sends to or refused: the send form and what is stored. */
export function memberNumbers(prepared: readonly Prepared[]): string[] {
	const numbers = prepared.flatMap((entry) => {
		const fields = 'send' in entry ? entry.send : entry.failure;
		const number = fields.phoneNumber;
		return fields.memberId !== undefined && typeof number === 'string' ? [number] : [];
	});
	return [...new Set(numbers.filter((n) => n.trim() !== ''))];
}

/** `text` with every run of digits that belongs to one of `numbers` withheld. */
export function withhold(text: string, numbers: readonly string[]): string {
	let result = text;
	for (const number of numbers) {
		const forms = formsOf(number);
		const core = forms[2];
		if (core.length < 4) {
			// Not a number at all (a text stored as one): withheld as it is written.
			if (number.trim().length >= 3) result = result.split(number.trim()).join(WITHHELD);
			continue;
		}
		result = result.replace(DIGIT_RUN, (run) => {
			const digits = run.replace(/\D/g, '');
			const ours =
				digits.includes(core) || (digits.length >= 4 && forms.some((f) => f.includes(digits)));
			return ours ? WITHHELD : run;
		});
	}
	return result;
}

function withheldValue(value: unknown, numbers: readonly string[]): unknown {
	if (typeof value === 'string') return withhold(value, numbers);
	if (Array.isArray(value)) return value.map((entry) => withheldValue(entry, numbers));
	if (value !== null && typeof value === 'object') {
		const copy: IDataObject = {};
		for (const [name, field] of Object.entries(value))
			copy[name] = KEPT.has(name) ? field : (withheldValue(field, numbers) as IDataObject[string]);
		return copy;
	}
	return value;
}

/** Each outcome of a send to a member without `phoneNumber` and without the number in any text. */
export function withoutMemberNumbers(
	outcomes: readonly Outcome[],
	numbers: readonly string[],
): Outcome[] {
	const hide = <T extends IDataObject>(fields: T): T => {
		if (fields.memberId === undefined) return fields;
		const copy = { ...fields };
		delete copy.phoneNumber;
		return withheldValue(copy, numbers) as T;
	};
	return outcomes.map((outcome) => {
		if ('done' in outcome) return { ...outcome, done: hide(outcome.done) };
		if ('failed' in outcome) return { ...outcome, failed: hide(outcome.failed) };
		return outcome;
	});
}

/** The codes a member lookup refuses with (recipients.ts): each tells whether and how a member is on record. */
const LOOKUP_CODES = new Set([
	MEMBER_NOT_FOUND_CODE,
	SEVERAL_MEMBERS_CODE,
	MEMBER_REFUSES_CODE,
	'7012',
]);

export function refusedLookups(prepared: readonly Prepared[]): number[] {
	return prepared.flatMap((entry, i) =>
		'failure' in entry &&
		entry.failure.memberId !== undefined &&
		LOOKUP_CODES.has(entry.failure.code)
			? [i]
			: [],
	);
}

/**
 * Every refused lookup answers `memberNotAvailable`, so a model cannot map the member records
 * (docs/agent-tools.md, "Guard rails: what a model cannot make the send do"). A send the
 * service refused keeps its code.
 */
export function oneMemberAnswer(
	outcomes: readonly Outcome[],
	prepared: readonly Prepared[],
): Outcome[] {
	const { message } = SEND_CODES[MEMBER_UNAVAILABLE_CODE];
	const refused = new Set(refusedLookups(prepared));
	// One outcome per item, in input order (report.ts).
	return outcomes.map((outcome, i) => {
		if (!('failed' in outcome) || !refused.has(i)) return outcome;
		const { campaignKey, memberId } = outcome.failed;
		const words = { code: MEMBER_UNAVAILABLE_CODE, message: `Not sent: ${message}` };
		const failed = { ...words, deliveryUnknown: false, campaignKey, memberId };
		return { failed, inputs: outcome.inputs };
	});
}

/** A thrown error with the numbers withheld from its message and description (the model reads both). */
export function withoutNumbersIn(error: unknown, numbers: readonly string[]): unknown {
	if (numbers.length === 0 || !(error instanceof Error)) return error;
	const err = error as Error & { description?: unknown };
	err.message = withhold(err.message, numbers);
	if (typeof err.description === 'string') err.description = withhold(err.description, numbers);
	return err;
}
