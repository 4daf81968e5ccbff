/**
 * The outputs of the nodes and the one builder of an item (used by run.ts and tool.ts alone).
 * Every item carries `pairedItem`: one index, or all the input items a merged row came from.
 * Write operations have two outputs, Success (0) and Failed (1).
 */
import type { IDataObject, INodeExecutionData, INodeOutputConfiguration } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import type { Operations } from './operation';
import { readOperations } from './operation';

export const WRITE_OUTPUTS: INodeOutputConfiguration[] = [
	{ type: NodeConnectionTypes.Main, displayName: 'Success' },
	{ type: NodeConnectionTypes.Main, displayName: 'Failed' },
];

/**
 * The outputs of a node whose operations differ: one for its reads, Success and Failed for its
 * writes. n8n evaluates this expression with the node's parameters to draw and route the outputs.
 */
export function outputsByOperation<Args extends unknown[]>(
	operations: Operations<Args>,
): `={{${string}}}` {
	const oneOutput = readOperations(operations);
	return `={{ ${JSON.stringify(oneOutput)}.includes($parameter["operation"]) ? ${JSON.stringify([{ type: NodeConnectionTypes.Main }])} : ${JSON.stringify(WRITE_OUTPUTS)} }}`;
}

export function paired(indexes: number | readonly number[]): INodeExecutionData['pairedItem'] {
	if (typeof indexes === 'number') return { item: indexes };
	return indexes.length === 1 ? { item: indexes[0] } : indexes.map((item) => ({ item }));
}

export function item(json: IDataObject, indexes: number | readonly number[]): INodeExecutionData {
	return { json, pairedItem: paired(indexes) };
}
