/**
 * The description of the Custom Data and Legacy Data nodes, built once for an API version
 * (helpers/api-versions.ts): the Operation list, then each operation's own parameters. Node type
 * names, operation values and parameter names are what saved workflows refer to: never rename
 * them.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NODE_BASE } from '../shared/node';
import { operationParameter } from '../shared/operation';
import { outputsByOperation } from '../shared/outputs';
import type { DataApi } from './helpers/api-versions';
import { OPERATIONS } from './operations';

/** What a data node file names: its type name and how it presents itself. */
export type DataNodeNames = Pick<INodeTypeDescription, 'displayName' | 'name' | 'description'>;

/**
 * A data node's description for its API version, but for what the linter reads in the node file
 * itself (icon, subtitle, `usableAsTool`, the `resource` parameter). Reads have one output,
 * writes two (Success, Failed).
 */
export function dataNodeDescription(
	api: DataApi,
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
		properties: dataNodeProperties(api, resource),
	};
}

/**
 * The parameters. The one-option `resource` is there for n8n's automatic tool description: it
 * describes a tool by its operation's `action` only when the operation list is shown for a
 * resource (docs/ai-agents.md, "Tool descriptions"), written in the node file (where the linter
 * reads its literal default) and passed in here. The Operation list is built from each operation
 * file's own entry (`option`, worded for the API version); each action is what a model is told the
 * tool does, so deletes say they are permanent and reads that they only read. An action plus
 * " in Campaign Custom Data" stays within 64 characters (the longest tool name model APIs take).
 */
function dataNodeProperties(api: DataApi, resource: INodeProperties): INodeProperties[] {
	return [
		resource,
		operationParameter(
			OPERATIONS,
			{
				default: 'create',
				displayOptions: { show: { resource: [resource.default as string] } },
			},
			api,
		),
		...Object.values(OPERATIONS).flatMap((operation) => operation.description(api)),
	];
}
