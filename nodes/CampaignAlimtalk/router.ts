/** The router of the Alimtalk node: runs the operation the node is set to. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { readOperation } from '../shared/operation';
import { OPERATIONS } from './operations';

export async function route(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	return await OPERATIONS[readOperation(this, OPERATIONS)].execute.call(this, items);
}
