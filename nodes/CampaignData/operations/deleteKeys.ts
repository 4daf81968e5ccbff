/** `deleteKeys`: some keys of the members named by the input items. */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { setField } from '../../shared/values';
import { DeleteRows } from '../helpers/delete-members';
import type { DataExecute } from '../helpers/api-versions';
import { deleteKeysPath } from '../helpers/api-versions';
import { NODE_RULE_CODES } from '../helpers/advice';
import { deleteOptions, memberIdField } from '../helpers/parameters';
import { splitList } from '../helpers/mapping';
import type { Done, OperationOption } from '../../shared/operation';

export const option: OperationOption = {
	name: 'Delete Keys',
	value: 'deleteKeys',
	action: 'Delete keys permanently with no undo',
	description: 'Delete some keys of the members named by the input items. This cannot be undone.',
};

export const kind = 'write' as const;

export const done: Done = { verb: 'deleted' };

export { ADVICE as advice } from '../helpers/advice';

export const description = (): INodeProperties[] =>
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

/**
 * One member and its keys per item (an item without key names goes to Failed); the keys of a
 * member named by several items are merged. Each request's body is `{ memberId: [keys] }`.
 */
export const execute: DataExecute = async function (items, api) {
	const rows = new DeleteRows(this);
	rows.forEachMember(items.length, (i, memberId) => {
		const keys = splitList(this.getNodeParameter('keys', i, ''));
		if (keys.length > 0) {
			rows.add(i, memberId, keys);
			return;
		}
		const message = 'Keys is empty: give the names of the keys to delete, separated by commas';
		rows.refuse(i, { code: NODE_RULE_CODES.noKeys, message, memberId, field: 'keys' });
	});
	return await rows.send(deleteKeysPath(api), (part) => {
		const byMember: Record<string, unknown> = {};
		for (const row of part) setField(byMember, row.memberId, [...(row.keys ?? [])]);
		return byMember;
	});
};
