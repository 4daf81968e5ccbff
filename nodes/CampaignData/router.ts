/** The router of both data nodes: runs the operation the node is set to, for the dialect its node file passes. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { readOperation } from '../shared/operation';
import type { DataDialect } from './helpers/dialect';
import { OPERATIONS } from './operations';

export async function route(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	dialect: DataDialect,
): Promise<INodeExecutionData[][]> {
	return await OPERATIONS[readOperation(this, OPERATIONS)].execute.call(this, items, dialect);
}
