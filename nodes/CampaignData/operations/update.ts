/** `update` (PUT, change): one member per input item, its fields as keys. */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { DataApi, DataExecute } from '../helpers/api-versions';
import { writeFields } from '../helpers/parameters';
import { writeEntries } from '../helpers/write-entries';
import type { Done, OperationOption } from '../../shared/operation';

export const option = ({ noun }: DataApi): OperationOption => ({
	name: 'Update',
	value: 'update',
	action: `Update ${noun}`,
	description: `Change ${noun} entries (PUT): one member per input item, its fields as keys`,
});

export const kind = 'write' as const;

export const done: Done = { verb: 'written' };

export { ADVICE as advice } from '../helpers/advice';

export const description = (api: DataApi): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['update'] } }, writeFields(api));

/**
 * The items' entries, planned, merged per member and sent with PUT in chunks of Batch Size
 * (helpers/write-entries.ts).
 */
export const execute: DataExecute = async function (items, api) {
	return await writeEntries.call(this, items, api, 'PUT');
};
