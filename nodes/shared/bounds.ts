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
/** An answer item is started only with this much room left: its answer fields fit whole. */
const ITEM_RESERVE = 1000;

/**
 * The answer fields of a tool answer: the package's own words on an outcome (tool.ts builds its
 * answers with these names alone) and the facts of an outcome a model acts on. Given whole up to
 * MAX_SERVICE_TEXT: the outcome, a code, a key or a time a model repeats exactly, and the words
 * (the package's and the service's, which the transport already cuts to that bound). The one list
 * of them: a read's data never takes one of these names, however it is spelled (tool.ts, `dataOf`).
 */
export const ANSWER_FIELDS = [
	'outcome',
	'code',
	'message',
	'details',
	'whatToDo',
	'deduplicationKey',
	'retryAfter',
	'earlierSendStartedAt',
] as const;

export type AnswerField = (typeof ANSWER_FIELDS)[number];

/**
 * The fields that name a row, whole up to MAX_SERVICE_TEXT like the answer fields. A write's answer
 * is built by the package, so its row fields are what they say. A read's row is named by its member
 * ID alone: its other fields are data (with One Item per Member a custom-data key may be named
 * phoneNumber or key), cut at TOOL_FIELD_LIMIT like every value.
 */
const ROW_NAMES = {
	write: ['memberId', 'phoneNumber', 'key', 'campaignKey'],
	read: ['memberId'],
} as const;

/** Whose answers: a write's (and a whole-call error's), or a read's. */
export type AnswerKind = keyof typeof ROW_NAMES;

/** `text` cut to `max` characters, with a marker giving its whole length; unchanged when shorter. */
export function cutForModel(text: string, max: number): string {
	return cutText(text, max, (length) => `… [cut: ${length} characters in all]`);
}

/**
 * The room left in an answer: its characters still free, and how many fields, entries and items
 * were left out.
 */
export interface AnswerRoom {
	left: number;
	leftOut: number;
}

type Value = IDataObject[string];

const isLeaf = (value: unknown) => value === null || typeof value !== 'object';
/** The characters a value adds to the JSON (a container's own content is counted inside it). */
const costOf = (value: Value) => (isLeaf(value) ? (JSON.stringify(value) ?? 'null').length : 2);

function boundedList(list: unknown[], room: AnswerRoom, depth: number): Value {
	const out: Value[] = [];
	for (const entry of list.slice(0, MAX_LIST)) {
		const value = bounded(entry as Value, TOOL_FIELD_LIMIT, room, depth + 1);
		const cost = costOf(value) + 1;
		if (cost > room.left) break;
		room.left -= cost;
		out.push(value);
	}
	if (out.length < list.length) {
		room.leftOut += list.length - out.length;
		out.push(`… [cut: ${list.length} entries in all]`);
	}
	return out as Value;
}

function bounded(value: Value, max: number, room: AnswerRoom, depth: number): Value {
	if (typeof value === 'string') return cutForModel(value, max);
	if (value === null || typeof value !== 'object') return value;
	if (depth >= MAX_DEPTH) {
		room.leftOut++;
		return '… [cut: nested too deep]';
	}
	if (Array.isArray(value)) return boundedList(value, room, depth);
	return boundedObject(value as IDataObject, room, depth + 1);
}

/**
 * An object bounded in every part. `whole`: the names whose strings are given up to
 * MAX_SERVICE_TEXT, recognised at the top of an answer only (deeper down every field is data).
 */
function boundedObject(
	json: IDataObject,
	room: AnswerRoom,
	depth: number,
	whole: readonly string[] = [],
): IDataObject {
	const result: IDataObject = {};
	const entries = Object.entries(json);
	let kept = 0;
	for (const [rawName, value] of entries) {
		if (kept >= MAX_FIELDS || room.left <= 0) break;
		const name = cutForModel(rawName, MAX_NAME);
		const max = whole.includes(name) ? MAX_SERVICE_TEXT : TOOL_FIELD_LIMIT;
		const field = bounded(value, max, room, depth);
		const cost = JSON.stringify(name).length + 2 + costOf(field);
		if (cost > room.left) break;
		room.left -= cost;
		setField(result, name, field);
		kept++;
	}
	if (kept < entries.length) {
		room.leftOut += entries.length - kept;
		setField(result, '…', `[cut: ${entries.length} fields in all]`);
	}
	return result;
}

/**
 * Answers bounded as a whole, in order: each bounded in every part, and no answer started once
 * less than ITEM_RESERVE characters of TOOL_ANSWER_LIMIT are left. `leftOut` counts the fields,
 * list entries and answers that were left out (0: nothing but long strings was cut). `kind` says
 * which fields name a row (ROW_NAMES).
 */
export function boundAnswers(
	jsons: readonly IDataObject[],
	kind: AnswerKind = 'write',
): {
	answers: IDataObject[];
	leftOut: number;
} {
	const room: AnswerRoom = { left: TOOL_ANSWER_LIMIT, leftOut: 0 };
	const answers: IDataObject[] = [];
	const whole = [...ANSWER_FIELDS, ...ROW_NAMES[kind]];
	for (const json of jsons) {
		if (room.left < ITEM_RESERVE) break;
		room.left -= 3;
		answers.push(boundedObject(json, room, 0, whole));
	}
	return { answers, leftOut: room.leftOut + jsons.length - answers.length };
}
