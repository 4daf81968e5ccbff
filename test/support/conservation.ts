/**
 * Conservation checks of a write node's outputs: two outputs, every item paired to a real input
 * index, every input reachable (once where the operation promises it), Failed items with a code,
 * plain words and their identifying fields, and no row on both outputs. Each check throws with
 * the reason; `counts` (optional) adds up what was checked and what was lost or doubled.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { pairsOf } from './paired';

export interface ConservationCounts {
	itemsAccounted: number;
	lost: number;
	doubled: number;
}

const ignored = (): ConservationCounts => ({ itemsAccounted: 0, lost: 0, doubled: 0 });

/** Words that only appear when code crashed or printed something it did not mean to. */
const CRASH_WORDS =
	/TypeError|ReferenceError|URIError|RangeError|Cannot read|is not a function|is not iterable|undefined is not|\[object Object\]|\bNaN\b|Unexpected token|Maximum call stack|unknown code (HTTP_|E[A-Z])/;

/** A message a user can act on: plain non-empty text, no trace of a crash. */
export function expectClearText(text: unknown, where: string): void {
	if (typeof text !== 'string' || text.trim() === '' || CRASH_WORDS.test(text)) {
		throw new Error(`${where}: not a clear message: ${JSON.stringify(text)}`);
	}
}

export interface WriteCheck {
	/** Identifying fields a Failed item must carry (present, possibly null). */
	failedFields: string[];
	/**
	 * Each input index on at most one output item (members, deletes, sends). Custom data writes
	 * allow an item on both outputs (some keys stored, others not) and are checked row by row.
	 */
	eachIndexOnce: boolean;
}

/**
 * The output promises of a write: two outputs; every item paired, to real input
 * indexes; every input index reachable; Failed items with a code, plain words and the
 * identifying fields. Throws (with the reason) on any violation.
 */
export function checkWriteOutputs(
	out: INodeExecutionData[][],
	count: number,
	check: WriteCheck,
	counts: ConservationCounts = ignored(),
): void {
	counts.itemsAccounted += count;
	if (out.length !== 2)
		throw new Error(`expected the two outputs Success and Failed, got ${out.length}`);
	const hits = new Map<number, number>();
	out.forEach((output, o) => {
		for (const [n, item] of output.entries()) {
			const indexes = pairsOf(item);
			if (indexes.length === 0) throw new Error(`output ${o} item ${n} has no pairedItem`);
			for (const i of indexes) {
				if (!Number.isInteger(i) || i < 0 || i >= count)
					throw new Error(`output ${o} item ${n} is paired to ${i}, not an input index`);
				hits.set(i, (hits.get(i) ?? 0) + 1);
			}
		}
	});
	const lost = Array.from({ length: count }, (_, i) => i).filter((i) => !hits.has(i));
	if (lost.length > 0) {
		counts.lost += lost.length;
		throw new Error(`input items ${lost.join(', ')} are on no output`);
	}
	if (check.eachIndexOnce) {
		const twice = [...hits].filter(([, n]) => n > 1).map(([i]) => i);
		if (twice.length > 0) {
			counts.doubled += twice.length;
			throw new Error(`input items ${twice.join(', ')} are on more than one output item`);
		}
	}
	for (const [n, item] of out[1].entries()) {
		const json = item.json;
		if (typeof json.code !== 'string' || json.code.trim() === '')
			throw new Error(`Failed item ${n} has no code: ${JSON.stringify(json)}`);
		expectClearText(json.message, `Failed item ${n} (code ${json.code})`);
		for (const field of check.failedFields) {
			if (!(field in json))
				throw new Error(
					`Failed item ${n} lacks the identifying field ${field}: ${JSON.stringify(json)}`,
				);
		}
	}
}

/**
 * A row an output item is about: `id` names it (e.g. member and key), `value` what was written
 * (undefined when the item does not say).
 */
export interface RowRef {
	id: string;
	value?: string;
}

/**
 * Asserts that no input index is on both outputs for the same row: the same row id with the
 * same value, or with a value one side does not state.
 */
export function checkNoRowOnBoth(
	out: INodeExecutionData[][],
	rows: (json: IDataObject, output: 0 | 1) => RowRef[],
	counts: ConservationCounts = ignored(),
): void {
	const success = new Map<string, Set<string | undefined>>();
	for (const item of out[0] ?? []) {
		for (const i of pairsOf(item)) {
			for (const row of rows(item.json, 0)) {
				const key = `${i}\u0000${row.id}`;
				success.set(key, (success.get(key) ?? new Set()).add(row.value));
			}
		}
	}
	const both: string[] = [];
	for (const item of out[1] ?? []) {
		for (const i of pairsOf(item)) {
			for (const row of rows(item.json, 1)) {
				const values = success.get(`${i}\u0000${row.id}`);
				if (!values) continue;
				if (row.value === undefined || values.has(undefined) || values.has(row.value))
					both.push(`item ${i}: ${JSON.stringify(row)}`);
			}
		}
	}
	if (both.length > 0) {
		counts.doubled += both.length;
		throw new Error(`rows on both outputs: ${both.slice(0, 5).join('; ')}`);
	}
}
