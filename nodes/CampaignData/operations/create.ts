/** `create` (POST, register): one member per input item, its fields as keys. */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { DataApi, DataExecute } from '../helpers/api-versions';
import { writeFields } from '../helpers/parameters';
import { writeEntries } from '../helpers/write-entries';
import type { Done, OperationOption } from '../../shared/operation';

export const option = ({ noun }: DataApi): OperationOption => ({
	name: 'Create',
	value: 'create',
	action: `Create ${noun}`,
	description: `Register ${noun} entries (POST): one member per input item, its fields as keys. An existing key of the member is overwritten.`,
});

export const kind = 'write' as const;

export const done: Done = { verb: 'written' };

export { ADVICE as advice } from '../helpers/advice';

export const description = (api: DataApi): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['create'] } }, writeFields(api));

/**
 * The items' entries, planned, merged per member and sent with POST in chunks of Batch Size
 * (helpers/write-entries.ts).
 */
export const execute: DataExecute = async function (items, api) {
	return await writeEntries.call(this, items, api, 'POST');
};
