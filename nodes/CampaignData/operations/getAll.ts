/** `getAll`: the entries of every member, page after page, once per input item. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { MIN_LIMIT } from '../../shared/options';
import type { DataDialect } from '../helpers/dialect';
import { readOptionsField } from '../helpers/fields';
import { executeRead } from '../helpers/read';

/** The Limit parameter; its default is also what the check falls back to. */
const limit: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	default: 50,
	typeOptions: { minValue: MIN_LIMIT },
	displayOptions: { show: { returnAll: [false] } },
	description: 'Max number of results to return',
};
export const DEFAULT_LIMIT = limit.default as number;

export const properties = (): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['getAll'] } }, [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		limit,
		readOptionsField,
	]);

export async function execute(this: IExecuteFunctions, dialect: DataDialect, items: INodeExecutionData[]): Promise<INodeExecutionData[][]> {
	return await executeRead.call(this, dialect, 'getAll', items);
}
