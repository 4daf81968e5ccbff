/**
 * What every node's `execute` does: run the operation the node is set to, and turn its outcomes
 * (outcome.ts) into what n8n reads. The one place that builds output items: Success and Failed
 * (or a read's one output) with `pairedItem`, error items, the execution hints (hints.ts), and,
 * as an AI-agent tool, one answer per outcome on output 0 (tool.ts). A failure of the whole call
 * gives error items under "On Error: Continue" or stops with n8n's error type.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { asNodeError, errorItems } from './errors';
import { addWriteHints } from './hints';
import type { Operation, Operations } from './operation';
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
		if (operation.kind === 'write') addWriteHints(ctx, operation, outcomes);
		return toOutputs(ctx, operation.kind, outcomes);
	} catch (error) {
		if (ctx.continueOnFail()) return failedCall(ctx, operation?.kind ?? 'write', error);
		throw asNodeError(ctx.getNode(), error);
	}
}
