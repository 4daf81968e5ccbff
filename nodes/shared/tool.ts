/**
 * The nodes as AI-agent tools. n8n offers every node with `usableAsTool` to its AI Agent and its
 * MCP Server Trigger as a copy whose type ends in `Tool`, and hands the caller only output 0 of
 * what the node returns (docs/ai-agents.md). In that mode a node answers on output 0 alone, one
 * item per outcome, with the fields a model needs first; outside it nothing changes.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { AdviceArea } from './advice';
import { adviceAreaOf, whatToChange } from './advice';
import { errorFields } from './errors';
import { paired } from './outputs';

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

/** What a model can do about a code, from the code tables; nothing for codes they do not know. */
function whatToDo(code: unknown, area: AdviceArea | undefined): IDataObject {
	const hint = typeof code === 'string' ? whatToChange(code, area) : '';
	return hint ? { whatToDo: hint } : {};
}

function firstIndex(item: INodeExecutionData): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'object' && paired !== null ? paired.item : 0;
}

function successAnswer(item: IDataObject): IDataObject {
	// The service's raw answer says nothing a model needs once the outcome is stated.
	const json = { ...item };
	delete json.response;
	const outcome = json.duplicate === true ? 'duplicate' : json.status === 'sent' ? 'sent' : 'done';
	const message =
		outcome === 'duplicate'
			? 'Not sent again: a message with this Deduplication Key was already sent.'
			: outcome === 'sent'
				? 'The message was sent.'
				: 'Done: the service accepted it.';
	return { outcome, message, ...json };
}

function failedAnswer(json: IDataObject, area: AdviceArea | undefined): IDataObject {
	const outcome =
		json.deliveryUnknown === true
			? 'deliveryUnknown'
			: json.code === 'notSent'
				? 'notSent'
				: 'refused';
	const { code, message, ...rest } = json;
	return { outcome, code, message, ...whatToDo(code, area), ...rest };
}

/** A write's Success and Failed items as one list in input order, each saying its outcome. */
function writeAnswers(
	success: INodeExecutionData[],
	failed: INodeExecutionData[],
	area: AdviceArea | undefined,
) {
	const answers = [
		...success.map((item) => ({ ...item, json: successAnswer(item.json) })),
		...failed.map((item) => ({ ...item, json: failedAnswer(item.json, area) })),
	];
	if (answers.length === 0) {
		const json = { outcome: 'nothingDone', message: 'Nothing was sent, saved or deleted.' };
		return [{ json, pairedItem: { item: 0 } }];
	}
	return answers.sort((a, b) => firstIndex(a) - firstIndex(b));
}

/** A read's items, at most TOOL_READ_LIMIT of them, and a line saying when there is nothing or more. */
function readAnswers(items: INodeExecutionData[], pairedItem: INodeExecutionData['pairedItem']) {
	if (items.length === 0) {
		return [{ json: { outcome: 'noResults', message: 'Nothing was found.' }, pairedItem }];
	}
	if (items.length <= TOOL_READ_LIMIT) return items;
	const note = {
		outcome: 'truncated',
		message: `Showing the first ${TOOL_READ_LIMIT} results; more exist. Ask for one member to see all of theirs.`,
	};
	return [{ json: note, pairedItem }, ...items.slice(0, TOOL_READ_LIMIT)];
}

/** The node's outputs folded onto output 0, the one its caller reads. */
export function toolAnswer(
	ctx: IExecuteFunctions,
	outputs: INodeExecutionData[][],
): INodeExecutionData[][] {
	if (outputs.length === 1) return [readAnswers(outputs[0] ?? [], { item: 0 })];
	return [writeAnswers(outputs[0] ?? [], outputs[1] ?? [], adviceAreaOf(ctx.getNode().type))];
}

/** A failure of the whole call (account refused, bad setting) as an answer the model can act on. */
export function toolErrorAnswer(ctx: IExecuteFunctions, error: unknown): INodeExecutionData[][] {
	const { message, description, code } = errorFields(error);
	const json: IDataObject = {
		outcome: 'error',
		...(code !== undefined ? { code } : {}),
		message,
		...(description ? { details: description } : {}),
	};
	const hint = whatToDo(code, adviceAreaOf(ctx.getNode().type));
	if (hint.whatToDo && !description?.includes(hint.whatToDo as string)) Object.assign(json, hint);
	const inputs = ctx.getInputData().map((_, index) => index);
	return [[{ json, pairedItem: paired(inputs.length > 0 ? inputs : 0) }]];
}
