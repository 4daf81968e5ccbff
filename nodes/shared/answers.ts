/**
 * Reading the lists the service answers, tolerantly: the service's documentation shows some
 * shapes only in words (docs/service-rules.md#custom-data, docs/service-rules.md#members), so a
 * list may come bare or wrapped in an object, and a failure row's fields in several spellings.
 * The one reader of lists and failure rows for every node.
 */
import { cutServiceText } from './codes';
import { answerText, isObject } from './values';

/** Container fields a list may be wrapped in, tried in this order; then the object's first array field. */
const LIST_FIELDS = [
	'failList',
	'failureList',
	'failedList',
	'failures',
	'failRows',
	'list',
	'rows',
	'data',
	'dataList',
	'users',
];

/** The list in a processValue: a bare array, or the array an object wraps; undefined when there is none. */
export function listIn(value: unknown): unknown[] | undefined {
	if (Array.isArray(value)) return value;
	if (!isObject(value)) return undefined;
	const field = LIST_FIELDS.find((name) => Array.isArray(value[name]));
	return (field ? value[field] : Object.values(value).find((v) => Array.isArray(v))) as
		| unknown[]
		| undefined;
}

/**
 * One failure row as the service sends it: custom data v2 (`memberId`, `failKey`, `failValue`,
 * `failCode`) and members v2 (`memberId`, `phoneNumber`, `failureCode`, `failureMessage`), each
 * field read in every spelling seen.
 */
export interface FailureRow {
	memberId?: string;
	phoneNumber?: string;
	key?: string;
	value?: unknown;
	code?: string;
	message?: string;
}

/** The failure rows of a list (entries that are not objects are passed over). */
export function failureRowsIn(list: readonly unknown[]): FailureRow[] {
	return list.filter(isObject).map((row) => ({
		memberId: answerText(row.memberId),
		phoneNumber: answerText(row.phoneNumber),
		key: answerText(row.failKey ?? row.key ?? row.customDataKey ?? row.legacyDataKey),
		value: row.failValue !== undefined ? row.failValue : row.value,
		code: serviceText(row.failCode ?? row.failureCode ?? row.code),
		message: serviceText(row.failMessage ?? row.failureMessage ?? row.message),
	}));
}

/** A failure row's code or message as text, cut to MAX_SERVICE_TEXT characters (codes.ts). */
function serviceText(value: unknown): string | undefined {
	const text = answerText(value);
	return text === undefined ? undefined : cutServiceText(text);
}

/** The failure rows in a processValue, bare or wrapped; undefined when it holds no list at all. */
export function readFailureRows(processValue: unknown): FailureRow[] | undefined {
	const list = listIn(processValue);
	return list === undefined ? undefined : failureRowsIn(list);
}
