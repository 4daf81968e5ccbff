/** `get`: every entry of one member, once per input item. */
import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { OperationOption } from '../../shared/operation';
import { toolReadLimit } from '../../shared/tool';
import { readMemberId } from '../../shared/values';
import type { DataApi, DataExecute } from '../helpers/api-versions';
import { memberIdField, readOptionsField } from '../helpers/parameters';
import { readEntries } from '../helpers/read-entries';

export const option = ({ noun }: DataApi): OperationOption => ({
	name: 'Get',
	value: 'get',
	action: 'Only read the data of one member',
	description: `Get every ${noun} entry of one member`,
});

export const kind = 'read' as const;

export const description = (): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['get'] } }, [
		memberIdField('ID of the member whose entries to get'),
		readOptionsField,
	]);

/**
 * Each item reads the entries of its member (`?memberId=`); an unusable member ID is that item's
 * error. As an AI-agent tool it stops one entry past what a model is shown, as Get Many does.
 */
export const execute: DataExecute = async function (items, api) {
	const limit = toolReadLimit(this);
	return await readEntries.call(this, items, api, (i) => {
		const id = readMemberId(this.getNodeParameter('memberId', i, ''));
		if (!id.ok) {
			throw new NodeOperationError(this.getNode(), `Member ID ${id.reason}`, {
				itemIndex: i,
				description: 'Set the ID of the member whose data to get.',
			});
		}
		return { firstQuery: { memberId: id.value }, member: id.value, limit };
	});
};
