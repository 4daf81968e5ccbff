/**
 * The parameters of the Custom Data and Legacy Data nodes, built once for a dialect: the
 * operation list, then each operation's own parameters. Node type names, operation values and
 * parameter names are what saved workflows refer to: never rename them.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NODE_BASE } from '../shared/node';
import { outputsByOperation } from '../shared/outputs';
import type { DataDialect } from './helpers/dialect';
import { OPERATIONS } from './operations';

/** What a data node file names: its type name and how it presents itself. */
export type DataNodeNames = Pick<INodeTypeDescription, 'displayName' | 'name' | 'description'>;

/**
 * A data node's description for its dialect, but for what the linter reads in the node file
 * itself (icon, subtitle, `usableAsTool`). Reads have one output, writes two (Success, Failed).
 */
export function dataNodeDescription(
	dialect: DataDialect,
	names: DataNodeNames,
): Omit<INodeTypeDescription, 'icon' | 'subtitle' | 'usableAsTool'> {
	return {
		...names,
		group: ['transform'],
		version: 1,
		defaults: { name: names.displayName },
		...NODE_BASE,
		outputs: outputsByOperation(OPERATIONS),
		properties: dataNodeProperties(dialect),
	};
}

function dataNodeProperties(dialect: DataDialect): INodeProperties[] {
	const noun = dialect.noun;
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
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
					action: `Delete all ${noun} of members`,
					description: `Delete every ${noun} entry of the members named by the input items. This cannot be undone.`,
				},
				{
					name: 'Delete Keys',
					value: 'deleteKeys',
					action: `Delete ${noun} keys of members`,
					description:
						'Delete some keys of the members named by the input items. This cannot be undone.',
				},
				{
					name: 'Get',
					value: 'get',
					action: `Get the ${noun} of a member`,
					description: `Get every ${noun} entry of one member`,
				},
				{
					name: 'Get Many',
					value: 'getAll',
					action: `Get many ${noun} entries`,
					description: `Get the ${noun} entries of all members, page after page`,
				},
				{
					name: 'Update',
					value: 'update',
					action: `Update ${noun}`,
					description: `Change ${noun} entries (PUT): one member per input item, its fields as keys`,
				},
			],
		},

		...Object.values(OPERATIONS).flatMap((operation) => operation.description(dialect)),
	];
}
