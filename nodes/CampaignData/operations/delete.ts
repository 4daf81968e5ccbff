/** `delete`: every entry of the members named by the input items. */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { DeleteRows } from '../delete/rows';
import type { DataExecute } from '../helpers/dialect';
import { deleteOptions, memberIdField } from '../helpers/fields';
import type { Done } from '../../shared/operation';

export const kind = 'write' as const;

export const done: Done = { word: 'deleted' };

export { ADVICE as advice } from '../helpers/row-codes';

export const description = (): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['delete'] } }, [
		memberIdField('ID of the member whose entries to delete'),
		deleteOptions,
	]);

/** One member per item; each request's body is the list of its member ids. */
export const execute: DataExecute = async function (items, dialect) {
	const rows = new DeleteRows(this);
	rows.forEachMember(items.length, (i, memberId) => rows.add(i, memberId));
	return await rows.send(dialect.basePath, (part) => part.map((row) => row.memberId));
};
