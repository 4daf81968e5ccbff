/** `get`: every entry of one member, once per input item. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { DataDialect } from '../helpers/dialect';
import { memberIdField, readOptionsField } from '../helpers/fields';
import { executeRead } from '../helpers/read';

export const properties = (): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['get'] } }, [memberIdField('ID of the member whose entries to get'), readOptionsField]);

export async function execute(this: IExecuteFunctions, dialect: DataDialect, items: INodeExecutionData[]): Promise<INodeExecutionData[][]> {
	return await executeRead.call(this, dialect, 'get', items);
}
