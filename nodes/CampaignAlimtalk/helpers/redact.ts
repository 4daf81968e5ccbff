/**
 * As an AI-agent tool, a send to a member ID never tells the model the member's number: the model
 * named a member, and the number on record is not its to learn (docs/ai-agents.md, "What holds
 * against a hostile model"). Every outcome drops `phoneNumber`, and every text of the node's own
 * that reaches the model (such as the 7012 refusal of a stored number, a thrown error's message)
 * has the number's digits withheld in any format it may be written in: 010-1234-5678, 01012345678,
 * 821012345678, +82 10 1234 5678, or a run of four or more of its digits. A send to a number the
 * model gave keeps it.
 *
 * The service's own text is not withheld here: it never reaches a model from a send (the package's
 * words do, `ownMessage` of shared/outcome.ts and the error's own description, shared/codes.ts).
 * Hiding the number where that text repeats it told the model where its guesses matched: a
 * template variable of guesses (0100x0101x...) sent to a service that repeats the value it refuses
 * came back with `[number withheld]` exactly on the guesses that were part of the number. Hiding
 * every run of digits instead would still leave every other way a service may write a number; not
 * passing its text on leaves none. So what is withheld here is never text the model filled: the
 * node's words hold at most the member ID it named, which is an ID on record.
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
 * Fields the model or the workflow wrote, and the code, given back as they are: a code withheld
 * because the number holds its digits (1204 in 010-1204-5678) would say so.
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

/** The items whose member lookup was refused (recipients.ts). */
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
 * As a tool, every refused member lookup answers one way (`memberNotAvailable`): which member IDs
 * are on record, how many records they have and who declined messages is not the model's to map
 * (docs/ai-agents.md, "What holds against a hostile model"). A send the service refused keeps its code.
 */
export function oneMemberAnswer(
	outcomes: readonly Outcome[],
	prepared: readonly Prepared[],
): Outcome[] {
	const { message } = SEND_CODES[MEMBER_UNAVAILABLE_CODE];
	const refused = new Set(refusedLookups(prepared));
	return outcomes.map((outcome) => {
		// A refused lookup the Send Limit answered (session/session.ts `countRefused`) stays limited.
		if (!('failed' in outcome) || !LOOKUP_CODES.has(outcome.failed.code)) return outcome;
		const inputs = typeof outcome.inputs === 'number' ? [outcome.inputs] : outcome.inputs;
		if (!inputs.some((i) => refused.has(i))) return outcome;
		const { campaignKey, memberId, deduplicationKey } = outcome.failed;
		const failed = {
			code: MEMBER_UNAVAILABLE_CODE,
			message: `Not sent: ${message}`,
			deliveryUnknown: false,
			...(campaignKey === undefined ? {} : { campaignKey }),
			memberId,
			...(deduplicationKey === undefined ? {} : { deduplicationKey }),
		};
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
