/**
 * The Operation parameter of both data nodes, built from the operation files' own list entries
 * for the node's API version (nodes/CampaignData/description.ts, operationParameter of
 * nodes/shared/operation.ts), keeps every entry description.ts held when it was written by hand:
 * the same names, values, actions, descriptions and default, worded for each node.
 */
import type { INodeProperties } from 'n8n-workflow';
import { expectOperationListKeeps } from '../support/operation-list';

/** A literal copy of the Operation parameter description.ts wrote for `resource` and `noun`. */
const writtenByHand = (resource: string, noun: string): INodeProperties => ({
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	default: 'create',
	options: [
		{
			name: 'Create',
			value: 'create',
			action: `Create ${noun}`,
			description: `Register ${noun} entries (POST): one member per input item, its fields as keys. An existing key of the member is overwritten.`,
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete data permanently with no undo',
			description: `Delete every ${noun} entry of the members named by the input items. This cannot be undone.`,
		},
		{
			name: 'Delete Keys',
			value: 'deleteKeys',
			action: 'Delete keys permanently with no undo',
			description:
				'Delete some keys of the members named by the input items. This cannot be undone.',
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Only read the data of one member',
			description: `Get every ${noun} entry of one member`,
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many entries and change nothing',
			description: `Get the ${noun} entries of all members, page after page`,
		},
		{
			name: 'Update',
			value: 'update',
			action: `Update ${noun}`,
			description: `Change ${noun} entries (PUT): one member per input item, its fields as keys`,
		},
	],
});

it.each([
	['campaignCustomData', 'customData', 'custom data'],
	['campaignLegacyData', 'legacyData', 'legacy data'],
])(
	'%s: the built Operation parameter keeps every entry description.ts held',
	(name, resource, noun) => {
		expectOperationListKeeps(name, writtenByHand(resource, noun));
	},
);
