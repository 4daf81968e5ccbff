/**
 * What every node's `execute` does: run the operation the node is set to, and turn its outcomes
 * (outcome.ts) into what n8n reads. The one place that builds output items: Success and Failed
 * (or a read's one output) with `pairedItem`, error items, the execution hints (hints.ts), and,
 * as an AI-agent tool, one answer per outcome on output 0 (tool.ts). The one place that reads
 * "On Error": a failure of the whole call, of one item of a read (`eachItem`) or of a write after
 * some requests (nodes/shared/chunks.ts) gives error items under "On Error: Continue", or stops
 * the node with n8n's error type (a write's saying what it stored before).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { asNodeError, errorItems, stoppedWrite } from './errors';
import { addWriteHints } from './hints';
import type { Operation, OperationOutputs, Operations } from './operation';
import { readOperation } from './operation';
import type { Outcome } from './outcome';
import { item } from './outputs';
import { isToolCall, toolAnswer, toolErrorAnswer } from './tool';

/**
 * Map Automatically reads the fields of the input item; as a tool that item is the agent's own
 * input (AI Agent 3.x) or the tool call's arguments (2.x), so the fields written would differ by
 * agent version. A tool maps its fields with Define Below and `$fromAI()`. The mode is the Mapping
 * Mode parameter, or a resource mapper's own (`columns`).
 */
function refuseAutoMap(ctx: IExecuteFunctions): void {
	const mode =
		ctx.getNodeParameter('mappingMode', 0, '') ||
		ctx.getNodeParameter('columns.mappingMode', 0, '');
	if (mode !== 'autoMapInputData') return;
	throw new NodeOperationError(
		ctx.getNode(),
		'Mapping Mode "Map Automatically" is not available to an AI agent',
		{
			description:
				'Set Mapping Mode to "Define Below" and fill each field with $fromAI(), so the model is asked for exactly those values.',
		},
	);
}

/**
 * The outputs of an operation's outcomes, in their order: a read's on its one output; a write's
 * done and error items on Success (n8n moves error items to the error output under "Continue
 * (using error output)"), its failures on Failed.
 */
export function toOutputs(
	ctx: IExecuteFunctions,
	kind: Operation['kind'],
	outcomes: readonly Outcome[],
): INodeExecutionData[][] {
	const first: INodeExecutionData[] = [];
	const failed: INodeExecutionData[] = [];
	for (const outcome of outcomes) {
		if ('error' in outcome) first.push(...errorItems(ctx.getNode(), outcome.error, outcome.inputs));
		else if ('done' in outcome) first.push(item(outcome.done, outcome.inputs));
		else (kind === 'read' ? first : failed).push(item({ ...outcome.failed }, outcome.inputs));
	}
	return kind === 'read' ? [first] : [first, failed];
}

/** Whether the node's "On Error" setting continues (regular or error output) instead of stopping. */
function continuesOnError(ctx: IExecuteFunctions): boolean {
	return ctx.continueOnFail();
}

/**
 * Runs `read` once per input item, in order, as n8n reads do. An item's own problem is an
 * `errored` outcome among what `read` gives (an error item under "On Error: Continue"); otherwise
 * it stops the node at once, before the next item is read. What `read` throws fails the whole call.
 */
export async function eachItem(
	ctx: IExecuteFunctions,
	count: number,
	read: (index: number) => Promise<Outcome[]>,
): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	for (let index = 0; index < count; index++) {
		const given = await read(index);
		const stop = given.find((outcome) => 'error' in outcome);
		if (stop !== undefined && 'error' in stop && !continuesOnError(ctx)) {
			throw asNodeError(ctx.getNode(), stop.error);
		}
		// One by one: a read of one item may give hundreds of thousands of entries.
		for (const outcome of given) outcomes.push(outcome);
	}
	return outcomes;
}

/**
 * Without "On Error", an error that reached some items of a write (its later requests, not sent)
 * stops the node, saying what the earlier requests stored.
 */
function stopUnlessContinuing(
	ctx: IExecuteFunctions,
	operation: OperationOutputs,
	outcomes: readonly Outcome[],
): void {
	const stop = outcomes.find((outcome) => 'error' in outcome);
	if (stop === undefined || !('error' in stop) || continuesOnError(ctx)) return;
	const verb = operation.kind === 'write' ? operation.done.verb : 'read';
	throw stoppedWrite(ctx.getNode(), outcomes, stop, verb);
}

/** Under "On Error: Continue", a failure of the whole call: an error item per input item on the first output. */
function failedCall(
	ctx: IExecuteFunctions,
	kind: Operation['kind'],
	error: unknown,
): INodeExecutionData[][] {
	const inputs = ctx.getInputData().map((_, index) => index);
	return toOutputs(ctx, kind, [{ error, inputs }]);
}

export async function runNode<Args extends unknown[]>(
	ctx: IExecuteFunctions,
	operations: Operations<Args>,
	...args: Args
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	if (isToolCall(ctx)) {
		let operation: Operation<Args> | undefined;
		try {
			operation = readOperation(ctx, operations);
			refuseAutoMap(ctx);
			return toolAnswer(operation, await operation.execute.call(ctx, items, ...args));
		} catch (error) {
			return toolErrorAnswer(ctx, operation, error);
		}
	}
	let operation: Operation<Args> | undefined;
	try {
		operation = readOperation(ctx, operations);
		const outcomes = await operation.execute.call(ctx, items, ...args);
		stopUnlessContinuing(ctx, operation, outcomes);
		if (operation.kind === 'write') addWriteHints(ctx, operation, outcomes);
		return toOutputs(ctx, operation.kind, outcomes);
	} catch (error) {
		if (continuesOnError(ctx)) return failedCall(ctx, operation?.kind ?? 'write', error);
		throw asNodeError(ctx.getNode(), error);
	}
}
