/** `delete`: every entry of the members named by the input items. */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { DeleteRows } from '../helpers/delete-members';
import type { DataApi, DataExecute } from '../helpers/api-versions';
import { deleteOptions, memberIdField } from '../helpers/parameters';
import type { Done, OperationOption } from '../../shared/operation';

export const option = ({ noun }: DataApi): OperationOption => ({
	name: 'Delete',
	value: 'delete',
	action: 'Delete data permanently with no undo',
	description: `Delete every ${noun} entry of the members named by the input items. This cannot be undone.`,
});

export const kind = 'write' as const;

export const done: Done = { verb: 'deleted' };

export { ADVICE as advice } from '../helpers/advice';

export const description = (): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['delete'] } }, [
		memberIdField('ID of the member whose entries to delete'),
		deleteOptions,
	]);

/** One member per item; each request's body is the list of its member ids. */
export const execute: DataExecute = async function (items, api) {
	const rows = new DeleteRows(this);
	rows.forEachMember(items.length, (i, memberId) => rows.add(i, memberId));
	return await rows.send(api.basePath, (part) => part.map((row) => row.memberId));
};
