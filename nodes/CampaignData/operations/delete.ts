/** `delete`: every entry of the members named by the input items. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { executeDelete } from '../helpers/delete';
import type { DataDialect } from '../helpers/dialect';
import { deleteOptions, memberIdField } from '../helpers/fields';

export const properties = (): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['delete'] } }, [memberIdField('ID of the member whose entries to delete'), deleteOptions]);

export async function execute(this: IExecuteFunctions, dialect: DataDialect, items: INodeExecutionData[]): Promise<INodeExecutionData[][]> {
	return await executeDelete.call(this, dialect, 'delete', items);
}
