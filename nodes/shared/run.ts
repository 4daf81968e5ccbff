/**
 * What every node's `execute` does around its router: run the operation, and on a failure of
 * the whole call either give error items ("On Error: Continue") or stop with n8n's error type.
 * As an AI-agent tool the node answers on output 0 alone, failures included (tool.ts).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { asNodeError, failedCallOutputs } from './errors';
import { addWriteHints } from './hints';
import { isToolCall, toolAnswer, toolErrorAnswer } from './tool';

type Run = (items: INodeExecutionData[]) => Promise<INodeExecutionData[][]>;

/**
 * Map Automatically reads the fields of the input item; as a tool that item is the agent's own
 * input (AI Agent 3.x) or the tool call's arguments (2.x), so the fields written would differ by
 * agent version. A tool maps its fields with Define Below and `$fromAI()`. The mode is the Mapping
 * Mode parameter, or the resource mapper's own (`columns`, Campaign Members from version 2).
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

export async function runNode(
	ctx: IExecuteFunctions,
	run: Run,
	oneOutput: readonly string[] = [],
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	if (isToolCall(ctx)) {
		try {
			refuseAutoMap(ctx);
			return toolAnswer(ctx, await run(items));
		} catch (error) {
			return toolErrorAnswer(ctx, error);
		}
	}
	try {
		const outputs = await run(items);
		addWriteHints(ctx, outputs);
		return outputs;
	} catch (error) {
		if (ctx.continueOnFail()) return failedCallOutputs(ctx, error, oneOutput);
		throw asNodeError(ctx.getNode(), error);
	}
}
