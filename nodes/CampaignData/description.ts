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
 * itself (icon, subtitle, `usableAsTool`, the `resource` parameter). Reads have one output, writes two (Success, Failed).
 */
export function dataNodeDescription(
	dialect: DataDialect,
	names: DataNodeNames,
	resource: INodeProperties,
): Omit<INodeTypeDescription, 'icon' | 'subtitle' | 'usableAsTool'> {
	return {
		...names,
		group: ['transform'],
		version: 1,
		defaults: { name: names.displayName },
		...NODE_BASE,
		outputs: outputsByOperation(OPERATIONS),
		properties: dataNodeProperties(dialect, resource),
	};
}

/**
 * The parameters. The one-option `resource` is there for n8n's automatic tool description: it
 * describes a tool by its operation's `action` only when the operation list is shown for a
 * resource (docs/ai-agents.md, "Tool descriptions"), written in the node file (where the linter
 * reads its literal default) and passed in here; each action is what a model is told the
 * tool does, so deletes say they are permanent and reads that they only read. An action plus
 * " in Campaign Custom Data" stays within 64 characters (the longest tool name model APIs take).
 */
function dataNodeProperties(dialect: DataDialect, resource: INodeProperties): INodeProperties[] {
	const noun = dialect.noun;
	return [
		resource,
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.default as string] } },
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
		},

		...Object.values(OPERATIONS).flatMap((operation) => operation.description(dialect)),
	];
}
