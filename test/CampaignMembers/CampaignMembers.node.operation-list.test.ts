/**
 * The Operation parameter of the Members node, built from the operation files' own list entries
 * (operationParameter, nodes/shared/operation.ts), keeps every entry the node file held when it
 * was written by hand: the same names, values, actions, descriptions and default, in order.
 */
import type { INodeProperties } from 'n8n-workflow';
import { expectOperationListKeeps } from '../support/operation-list';

/** A literal copy of the Operation parameter as nodes/CampaignMembers/CampaignMembers.node.ts wrote it. */
const WRITTEN_BY_HAND: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['member'] } },
	default: 'upsert',
	options: [
		{
			name: 'Create or Update',
			value: 'upsert',
			action: 'Create or update members',
			description: 'Create a new record, or update the current one if it already exists (upsert)',
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete members permanently with no undo',
			description:
				'Remove members for good (v1: by member ID, v2: by phone number). This cannot be undone.',
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Only read the records of members',
			description: 'Read the records of a member ID and/or a phone number',
		},
	],
};

it('the built Operation parameter keeps every entry the node file held', () => {
	expectOperationListKeeps('campaignMembers', WRITTEN_BY_HAND);
});
