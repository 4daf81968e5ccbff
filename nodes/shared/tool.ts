/**
 * The nodes as AI-agent tools. n8n offers every node with `usableAsTool` to its AI Agent and its
 * MCP Server Trigger as a copy whose type ends in `Tool`, and hands the caller only output 0 of
 * what the node returns (docs/ai-agents.md). In that mode a node answers on output 0 alone, one
 * item per outcome, with the fields a model needs first, each text cut to its bound (bounds.ts);
 * outside it nothing changes.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { AdviceTable } from './advice';
import { whatToChange } from './advice';
import type { AnswerField } from './bounds';
import { ANSWER_FIELDS, TOOL_ANSWER_LIMIT, boundAnswers } from './bounds';
import { errorFields } from './errors';
import type { Done, OperationOutputs } from './operation';
import type { Failure, Outcome } from './outcome';
import { NOT_SENT_CODE, inInputOrder } from './outcome';
import { paired } from './outputs';
import { readsAs } from './unicode';
import { setField } from './values';

/** The most entries a read returns to a model; a longer read says how many were left out. */
export const TOOL_READ_LIMIT = 50;

/**
 * Whether the node runs as a tool. n8n names the tool copy of a node `<type>Tool` on every
 * supported line (1.123 to 2.41), on both agent paths (AI Agent 2.x calls the node's `execute`
 * from its tool function; 3.x runs the tool node in the workflow) and under the MCP Server
 * Trigger. None of the package's own node types ends in `Tool`.
 */
export function isToolCall(ctx: IExecuteFunctions): boolean {
	const type = ctx.getNode().type;
	return typeof type === 'string' && type.endsWith('Tool');
}

/** A node type without the `Tool` n8n adds to a tool copy: a node and its tool copy are one type. */
export const baseType = (type: string): string => type.replace(/Tool$/, '');

/**
 * The most entries a read takes as a tool: one past what a model is shown, enough to say that
 * more exist (undefined: no bound outside tool mode). Every read bounds its paging with it.
 */
export function toolReadLimit(ctx: IExecuteFunctions): number | undefined {
	return isToolCall(ctx) ? TOOL_READ_LIMIT + 1 : undefined;
}

/**
 * The answer fields: the package's own fields of an answer, typed by bounds.ts's one list of them,
 * so an answer never carries a field of its own that the list (its bounds, and the names data may
 * not take) lacks.
 */
type AnswerFields = { [Field in AnswerField]?: IDataObject[string] };

/**
 * What a model can do about a code: the operation's advice for a model when it has one (an
 * option to change is the owner's, never the model's), else its advice, else the code table's.
 */
function whatToDo(code: unknown, advice: AdviceTable | undefined): AnswerFields {
	if (typeof code !== 'string') return {};
	const hint = advice?.[code]?.model ?? whatToChange(code, advice);
	return hint ? { whatToDo: hint } : {};
}

const DONE_ANSWER: AnswerFields = { outcome: 'done', message: 'Done: the service accepted it.' };
const DUPLICATE_ANSWER: AnswerFields = {
	outcome: 'duplicate',
	message: 'Not sent again: a message with this Deduplication Key was already sent.',
};

function doneAnswer(fields: IDataObject, done: Done | undefined, skipped: boolean): IDataObject {
	// The service's raw answer says nothing a model needs once the outcome is stated.
	const json = { ...fields };
	delete json.response;
	const answer = skipped ? DUPLICATE_ANSWER : (done?.answer ?? DONE_ANSWER);
	return withAnswerFields(answer, json);
}

/** The answer fields first and as they are: a field of the data never overwrites them. */
const withAnswerFields = (own: AnswerFields, data: IDataObject): IDataObject => ({
	...own,
	...data,
	...own,
});

/** How each answer field's name reads (unicode.ts): a data field that reads the same is not one. */
const ANSWER_FIELD_READS = new Set(ANSWER_FIELDS.map(readsAs));

/**
 * A read's result with every field that reads as an answer field's name given as `<name> (data)`:
 * by its exact name, and by one that only looks like it (an invisible character or a space in it,
 * full-width, Cyrillic or Greek letters, another case), so data never stands beside the answer
 * fields looking like one of them.
 */
function dataOf(json: IDataObject): IDataObject {
	const clashes = (name: string) => ANSWER_FIELD_READS.has(readsAs(name));
	if (!Object.keys(json).some(clashes)) return json;
	const result: IDataObject = {};
	for (const [name, value] of Object.entries(json))
		setField(result, clashes(name) ? `${name} (data)` : name, value);
	return result;
}

/**
 * A refused row as an answer. Its message in the package's own words when the outcome has them
 * (`ownMessage`: a send's, whose failures never tell a model the service's text, outcome.ts).
 */
function failedAnswer(
	{ failed: failure, ownMessage }: Extract<Outcome, { failed: Failure }>,
	advice: AdviceTable | undefined,
): IDataObject {
	const outcome =
		failure.deliveryUnknown === true
			? 'deliveryUnknown'
			: failure.code === NOT_SENT_CODE
				? 'notSent'
				: 'refused';
	const { code, message, ...rest } = failure;
	delete rest.hint; // the owner's words of a Failed item: the model is told `whatToDo`
	const own: AnswerFields = { outcome, code, message: ownMessage ?? message };
	return withAnswerFields({ ...own, ...whatToDo(code, advice) }, rest);
}

/**
 * An error that reached some items, or stopped the whole call, as an answer the model can act on:
 * its code, the package's words and what to do. A description that holds the service's own text
 * is given without it (errors.ts), for every node: a whole-call failure is the owner's to fix.
 */
function errorAnswer(error: unknown, advice: AdviceTable | undefined): IDataObject {
	const { message, description, code } = errorFields(error, 'model');
	const json: AnswerFields = {
		outcome: 'error',
		...(code !== undefined ? { code } : {}),
		message,
		...(description ? { details: description } : {}),
	};
	const hint = whatToDo(code, advice);
	if (hint.whatToDo && !description?.includes(hint.whatToDo as string)) Object.assign(json, hint);
	return json;
}

function answerJson(outcome: Outcome, operation: OperationOutputs): IDataObject {
	const advice = operation.kind === 'write' ? operation.advice : undefined;
	if ('done' in outcome)
		return operation.kind === 'write'
			? doneAnswer(outcome.done, operation.done, outcome.skipped === 'duplicate')
			: dataOf(outcome.done);
	if ('failed' in outcome) return failedAnswer(outcome, advice);
	return errorAnswer(outcome.error, advice);
}

const LEFT_OUT = `a tool answer holds at most ${TOOL_ANSWER_LIMIT} characters and ${TOOL_READ_LIMIT} results`;

/**
 * Answers bounded as a whole (bounds.ts), in order, each paired with its inputs; a first item
 * `{ outcome: 'truncated' }` when results were beyond TOOL_READ_LIMIT (`more`) or parts were left
 * out, saying how to see the rest.
 */
function bounded(outcomes: readonly Outcome[], operation: OperationOutputs, more: boolean) {
	const jsons = outcomes.map((o) => answerJson(o, operation));
	const { answers, leftOut } = boundAnswers(jsons, operation.kind);
	const items = answers.map((json, n) => ({ json, pairedItem: paired(outcomes[n].inputs) }));
	if (!more && leftOut === 0) return items;
	const first = more ? `Showing the first ${TOOL_READ_LIMIT} results; more exist. ` : '';
	const parts =
		leftOut > 0
			? `Part of the answer was left out (${leftOut} in all: fields, list entries or results): `
			: '';
	const narrow =
		operation.kind === 'read'
			? 'Ask for one member, or fewer entries, to see the rest.'
			: 'Call the tool for fewer rows at a time to see every answer.';
	const message = `${first}${parts || 'The rest is not shown: '}${LEFT_OUT}. ${narrow}`;
	const note: AnswerFields = { outcome: 'truncated', message };
	return [{ json: note, pairedItem: { item: 0 } }, ...items];
}

/** A write's outcomes as one list in input order, each saying its outcome. */
function writeAnswers(outcomes: readonly Outcome[], operation: OperationOutputs) {
	if (outcomes.length === 0) {
		const json: AnswerFields = {
			outcome: 'nothingDone',
			message: 'Nothing was sent, saved or deleted.',
		};
		return [{ json, pairedItem: { item: 0 } }];
	}
	return bounded(inInputOrder(outcomes), operation, false);
}

/** A read's results, at most TOOL_READ_LIMIT of them, and a line saying when there is nothing or more. */
function readAnswers(outcomes: readonly Outcome[], operation: OperationOutputs) {
	if (outcomes.length === 0) {
		const json: AnswerFields = { outcome: 'noResults', message: 'Nothing was found.' };
		return [{ json, pairedItem: { item: 0 } }];
	}
	const more = outcomes.length > TOOL_READ_LIMIT;
	return bounded(outcomes.slice(0, TOOL_READ_LIMIT), operation, more);
}

/** An operation's outcomes as the answer on output 0, the one its caller reads. */
export function toolAnswer(
	operation: OperationOutputs,
	outcomes: readonly Outcome[],
): INodeExecutionData[][] {
	const answers = operation.kind === 'read' ? readAnswers : writeAnswers;
	return [answers(outcomes, operation)];
}

/** A failure of the whole call (account refused, bad setting) as an answer the model can act on. */
export function toolErrorAnswer(
	ctx: IExecuteFunctions,
	operation: OperationOutputs | undefined,
	error: unknown,
): INodeExecutionData[][] {
	const advice = operation?.kind === 'write' ? operation.advice : undefined;
	const inputs = ctx.getInputData().map((_, index) => index);
	return [
		[
			{
				json: boundAnswers([errorAnswer(error, advice)]).answers[0],
				pairedItem: paired(inputs.length > 0 ? inputs : 0),
			},
		],
	];
}
