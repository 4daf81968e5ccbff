/** `create` (POST, register): one member per input item, its fields as keys. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { DataDialect } from '../helpers/dialect';
import { writeFields } from '../helpers/fields';
import { executeWrite } from '../write/send';

export const properties = (dialect: DataDialect): INodeProperties[] => updateDisplayOptions({ show: { operation: ['create'] } }, writeFields(dialect));

export async function execute(this: IExecuteFunctions, dialect: DataDialect, items: INodeExecutionData[]): Promise<INodeExecutionData[][]> {
	return await executeWrite.call(this, dialect, 'create', items);
}
