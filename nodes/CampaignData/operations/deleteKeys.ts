/** `deleteKeys`: some keys of the members named by the input items. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { executeDelete } from '../helpers/delete';
import type { DataDialect } from '../helpers/dialect';
import { deleteOptions, memberIdField } from '../helpers/fields';

export const properties = (): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['deleteKeys'] } }, [
		memberIdField('ID of the member whose keys to delete'),
		{
			displayName: 'Keys',
			name: 'keys',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. grade, lastOrderDate',
			description: 'Names of the keys to delete for this member, separated by commas',
		},
		deleteOptions,
	]);

export async function execute(this: IExecuteFunctions, dialect: DataDialect, items: INodeExecutionData[]): Promise<INodeExecutionData[][]> {
	return await executeDelete.call(this, dialect, 'deleteKeys', items);
}
