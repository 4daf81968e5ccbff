/** The router of both data nodes: picks the operation and runs it for the node's dialect. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { DataDialect } from './helpers/dialect';
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
