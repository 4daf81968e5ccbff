/**
 * The one entry point both data nodes call from their `execute`: picks the operation and runs
 * it for the node's dialect.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { errorItems } from '../errors';
import type { DataDialect } from './dialect';
import { isReadOperation } from './dialect';
import { executeDelete } from './operations/delete';
import { executeRead } from './operations/read';
import { executeWrite } from './operations/write';

export async function executeDataOperation(
	this: IExecuteFunctions,
	dialect: DataDialect,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	switch (operation) {
		case 'get':
		case 'getAll':
			return await executeRead.call(this, dialect, operation, items);
		case 'create':
		case 'update':
			return await executeWrite.call(this, dialect, operation, items);
		case 'delete':
		case 'deleteKeys':
			return await executeDelete.call(this, dialect, operation, items);
		default:
			throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}"`, {
				description: 'Choose one of get, getAll, create, update, delete, deleteKeys.',
			});
	}
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
