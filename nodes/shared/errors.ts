/**
 * The errors of the package: error items (what "On Error:
 * Continue" gives instead of stopping the node; `errorItems` is their one builder, called by
 * run.ts alone), and the error a node throws, saying what a write stored before it stopped.
 */
import type { INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { cutServiceText, ownDescriptionOf, serviceCodeOf } from './codes';
import type { Outcome } from './outcome';

/** An error n8n shows for a node, which has a place for context. */
type NodeError = NodeApiError | NodeOperationError;

/**
 * What an error says: its message, n8n's description (each cut to MAX_SERVICE_TEXT characters:
 * n8n may put a service's raw answer there), and the service's code when it has one. For a
 * `model` (tool.ts), the description without the service's own text when it held some.
 */
export function errorFields(
	error: unknown,
	reader: 'owner' | 'model' = 'owner',
): {
	message: string;
	description?: string;
	code?: string;
} {
	const err = error as { message?: string; description?: string };
	const code = serviceCodeOf(error);
	const description = (reader === 'model' && ownDescriptionOf(error)) || err.description;
	return {
		message: cutServiceText(err.message ?? 'Unknown error'),
		...(description ? { description: cutServiceText(description) } : {}),
		...(code !== undefined ? { code } : {}),
	};
}

/**
 * One error item per input index given, paired with it, carrying the message and the service
 * code (never the key: messages come from the transport, which redacts them). Under "Continue
 * (using error output)" n8n moves an item to its Error output only when its JSON holds nothing
 * but `error`, `message` and `details`, so there the code and the description go under `details`.
 */
export function errorItems(
	node: INode,
	error: unknown,
	indexes: readonly number[],
): INodeExecutionData[] {
	const { message, description, code } = errorFields(error);
	const extra = {
		...(description ? { description } : {}),
		...(code !== undefined ? { code } : {}),
	};
	const errorOutput = node.onError === 'continueErrorOutput';
	return indexes.map((index) => ({
		json: {
			error: message,
			...(errorOutput ? (Object.keys(extra).length > 0 ? { details: extra } : {}) : extra),
		},
		pairedItem: { item: index },
	}));
}

/** The error to throw from a node: n8n's own error types pass through, anything else is wrapped. */
export function asNodeError(node: INode, error: unknown): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** At most this many runs of item indexes are listed; the rest are counted. */
const MAX_RUNS = 10;

const count = (n: number) => n.toLocaleString('en-US');

/** Item indexes as runs: "items 0-999, 1,200" (at most MAX_RUNS runs, then how many more). */
export function itemRuns(indexes: Iterable<number>): string {
	const sorted = [...new Set(indexes)].sort((a, b) => a - b);
	const runs: string[] = [];
	for (let i = 0; i < sorted.length; ) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
		runs.push(j === i ? count(sorted[i]) : `${count(sorted[i])}-${count(sorted[j])}`);
		i = j + 1;
	}
	const more = runs.length > MAX_RUNS ? `, and ${runs.length - MAX_RUNS} more runs` : '';
	return `item${sorted.length === 1 ? '' : 's'} ${runs.slice(0, MAX_RUNS).join(', ')}${more}`;
}

/** "1,000 rows saved (items 0-999)": how many outcomes, and their input items. */
function rowsSaid(outcomes: readonly Outcome[], words: string): string {
	const inputs = outcomes.flatMap(({ inputs }) => (typeof inputs === 'number' ? [inputs] : inputs));
	const n = outcomes.length;
	return `${count(n)} row${n === 1 ? '' : 's'} ${words} (${itemRuns(inputs)})`;
}

/**
 * The error a write throws when it stopped after earlier requests were answered (no "On Error"):
 * `stop` (the whole-call failure), its description saying which rows were `word` (saved, deleted)
 * and which were not, so the user knows what a re-run repeats. Nothing done yet: `stop` as is.
 */
export function stoppedWrite(
	node: INode,
	outcomes: readonly Outcome[],
	stop: Extract<Outcome, { error: unknown }>,
	word: string,
): NodeError {
	const error = asNodeError(node, stop.error);
	const stored = outcomes.filter((outcome) => 'done' in outcome);
	if (stored.length === 0) return error;
	const refused = outcomes.filter((outcome) => 'failed' in outcome);
	const notSent = stop.inputs.map((index): Outcome => ({ error: stop.error, inputs: [index] }));
	const parts = [
		`Before this error ${rowsSaid(stored, word)}`,
		...(refused.length > 0 ? [rowsSaid(refused, 'refused (Failed)')] : []),
		`${rowsSaid(notSent, `not ${word}`)}: a re-run sends these, and the ${word} rows again unless you leave them out`,
	];
	error.description = `${parts.join('; ')}.${error.description ? ` ${error.description}` : ''}`;
	return error;
}
