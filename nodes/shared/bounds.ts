/**
 * Bounds on what reaches a model. A tool's answer carries text nobody in the workflow wrote: the
 * service's messages and raw answers, and field values read from member records and custom data,
 * which anyone who can write a record can fill (a name, a note, a key) with instructions for the
 * model, or with enough of them to crowd out everything else. So every part of an answer is
 * bounded: each string (with a marker that says it was cut), each field name, each list, the
 * depth, the number of fields of an object, and the answer as a whole, counted in the characters
 * of the JSON a model is handed. What is left out is counted, for the note that says so (tool.ts).
 * docs/ai-agents.md, "Bounded answers".
 */
import type { IDataObject } from 'n8n-workflow';
import { MAX_SERVICE_TEXT, cutText } from './codes';
import { setField } from './values';

/**
 * The most characters of a value field (a member's name, a custom-data value) in an answer. The
 * service caps names at 20 characters; custom data holds attributes (points, dates, grades,
 * coupon codes), far shorter than 200, so real values pass whole while a planted text is cut to
 * about two lines.
 */
export const TOOL_FIELD_LIMIT = 200;

/** The most characters of one tool answer's JSON, before the note on what was left out. */
export const TOOL_ANSWER_LIMIT = 30000;

/** The most characters of a field name; the most entries of a list, fields of an object, levels. */
const MAX_NAME = 100;
const MAX_LIST = 50;
const MAX_FIELDS = 51; // a member's id and 50 of its keys, as a read shows 50 entries
const MAX_DEPTH = 5;
/** An answer item is started only with this much of the budget left: its envelope fits whole. */
const ITEM_RESERVE = 1000;

/**
 * Fields of the envelope given whole up to MAX_SERVICE_TEXT: they name the outcome, the code and
 * the row, and a model repeats them. Recognised at the top of an answer only: deeper down every
 * field is data.
 */
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

/** What is left of an answer's characters, and how many fields, entries and items were left out. */
export interface Budget {
	left: number;
	leftOut: number;
}

type Value = IDataObject[string];

const isLeaf = (value: unknown) => value === null || typeof value !== 'object';
/** The characters a value adds to the JSON (a container's own content is counted inside it). */
const costOf = (value: Value) => (isLeaf(value) ? (JSON.stringify(value) ?? 'null').length : 2);

function boundedList(list: unknown[], budget: Budget, depth: number): Value {
	const out: Value[] = [];
	for (const entry of list.slice(0, MAX_LIST)) {
		const value = bounded(entry as Value, TOOL_FIELD_LIMIT, budget, depth + 1);
		const cost = costOf(value) + 1;
		if (cost > budget.left) break;
		budget.left -= cost;
		out.push(value);
	}
	if (out.length < list.length) {
		budget.leftOut += list.length - out.length;
		out.push(`… [cut: ${list.length} entries in all]`);
	}
	return out as Value;
}

function bounded(value: Value, max: number, budget: Budget, depth: number): Value {
	if (typeof value === 'string') return cutForModel(value, max);
	if (value === null || typeof value !== 'object') return value;
	if (depth >= MAX_DEPTH) {
		budget.leftOut++;
		return '… [cut: nested too deep]';
	}
	if (Array.isArray(value)) return boundedList(value, budget, depth);
	return boundedObject(value as IDataObject, budget, depth + 1);
}

/** The bound of a field: the envelope's own at the top of an answer, else a value's. */
function boundOf(name: string, value: Value, depth: number): number {
	if (depth > 0) return TOOL_FIELD_LIMIT;
	if (TEXT_FIELDS.has(name)) return MAX_SERVICE_TEXT;
	return EXACT_FIELDS.has(name) && typeof value === 'string' ? MAX_SERVICE_TEXT : TOOL_FIELD_LIMIT;
}

function boundedObject(json: IDataObject, budget: Budget, depth: number): IDataObject {
	const result: IDataObject = {};
	const entries = Object.entries(json);
	let kept = 0;
	for (const [rawName, value] of entries) {
		if (kept >= MAX_FIELDS || budget.left <= 0) break;
		const name = cutForModel(rawName, MAX_NAME);
		const field = bounded(value, boundOf(name, value, depth), budget, depth);
		const cost = JSON.stringify(name).length + 2 + costOf(field);
		if (cost > budget.left) break;
		budget.left -= cost;
		setField(result, name, field);
		kept++;
	}
	if (kept < entries.length) {
		budget.leftOut += entries.length - kept;
		setField(result, '…', `[cut: ${entries.length} fields in all]`);
	}
	return result;
}

/**
 * Answers bounded as a whole, in order: each bounded in every part, and no answer started once
 * less than ITEM_RESERVE characters of TOOL_ANSWER_LIMIT are left. `leftOut` counts the fields,
 * list entries and answers that were left out (0: nothing but long strings was cut).
 */
export function boundAnswers(jsons: readonly IDataObject[]): {
	answers: IDataObject[];
	leftOut: number;
} {
	const budget: Budget = { left: TOOL_ANSWER_LIMIT, leftOut: 0 };
	const answers: IDataObject[] = [];
	for (const json of jsons) {
		if (budget.left < ITEM_RESERVE) break;
		budget.left -= 3;
		answers.push(boundedObject(json, budget, 0));
	}
	return { answers, leftOut: budget.leftOut + jsons.length - answers.length };
}
