/**
 * Bounds on what reaches a model. A tool's answer carries text nobody in the workflow wrote: the
 * service's messages and raw answers, and field values read from member records and custom data,
 * which anyone who can write a record can fill (a name, a note) with instructions for the model.
 * Every string of an answer is cut, with a marker that says it was cut, except the fields a model
 * must repeat exactly to act (ids, codes, the outcome). docs/ai-agents.md, "Bounded answers".
 */
import type { IDataObject } from 'n8n-workflow';
import { MAX_SERVICE_TEXT, cutText } from './codes';

/**
 * The most characters of a value field (a member's name, a custom-data value) in an answer. The
 * service caps names at 20 characters; custom data holds attributes (points, dates, grades,
 * coupon codes), far shorter than 200, so real values pass whole while a planted text is cut to
 * about two lines, and a read of 50 entries stays a few pages at most.
 */
export const TOOL_FIELD_LIMIT = 200;

/** Fields given whole: they name the outcome, the code and the row, and a model repeats them. */
const EXACT_FIELDS = new Set([
	'outcome',
	'code',
	'memberId',
	'phoneNumber',
	'key',
	'campaignKey',
	'deduplicationKey',
	'retryAfter',
	'earlierSendStartedAt',
]);

/** Fields of words (the package's and the service's): bounded like service text. */
const TEXT_FIELDS = new Set(['message', 'details', 'whatToDo']);

/** `text` cut to `max` characters, with a marker giving its whole length; unchanged when shorter. */
export function cutForModel(text: string, max: number): string {
	return cutText(text, max, (length) => `… [cut: ${length} characters in all]`);
}

function bounded(value: IDataObject[string], max: number): IDataObject[string] {
	if (typeof value === 'string') return cutForModel(value, max);
	if (Array.isArray(value)) return value.map((entry) => bounded(entry, max)) as IDataObject[string];
	if (value !== null && typeof value === 'object') return boundAnswer(value as IDataObject);
	return value;
}

/** An answer with each string field cut to its bound (nested objects and lists alike). */
export function boundAnswer(json: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [name, value] of Object.entries(json)) {
		if (EXACT_FIELDS.has(name) && typeof value === 'string') result[name] = value;
		else result[name] = bounded(value, TEXT_FIELDS.has(name) ? MAX_SERVICE_TEXT : TOOL_FIELD_LIMIT);
	}
	return result;
}
