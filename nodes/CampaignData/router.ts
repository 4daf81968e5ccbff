/**
 * The router of both data nodes: picks the operation and runs it for the node's dialect; under
 * "On Error: Continue", turns a whole-call failure into error items.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { errorItems } from '../shared/errors';
import type { DataDialect } from './helpers/dialect';
import { isReadOperation } from './helpers/dialect';
import { OPERATIONS, isDataOperation } from './operations';

export async function route(this: IExecuteFunctions, dialect: DataDialect, items: INodeExecutionData[]): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	if (!isDataOperation(operation)) {
		throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}"`, {
			description: `Choose one of ${Object.keys(OPERATIONS).join(', ')}.`,
		});
	}
	return await OPERATIONS[operation].execute.call(this, dialect, items);
}

/**
 * Under "On Error: Continue", a failure of the whole call becomes one error item per input item
 * on the first output (reads have one output, writes two).
 */
export function errorOutputs(ctx: IExecuteFunctions, items: INodeExecutionData[], error: unknown): INodeExecutionData[][] {
	const operation = ctx.getNodeParameter('operation', 0, '') as string;
	const errors = errorItems(items, error, ctx.getNode());
	return isReadOperation(operation) ? [errors] : [errors, []];
}
