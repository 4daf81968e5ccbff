/** `update` (PUT, change): one member per input item, its fields as keys. */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { DataDialect, DataExecute } from '../helpers/dialect';
import { writeFields } from '../helpers/fields';
import { writeEntries } from '../write/store';
import type { Done } from '../../shared/operation';

export const kind = 'write' as const;

export const done: Done = { word: 'written' };

export { ADVICE as advice } from '../helpers/row-codes';

export const description = (dialect: DataDialect): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['update'] } }, writeFields(dialect));

/** The items' entries, planned, merged per member and sent with PUT in chunks of Batch Size (write/). */
export const execute: DataExecute = async function (items, dialect) {
	return await writeEntries.call(this, items, dialect, 'PUT');
};
