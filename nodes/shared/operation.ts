/**
 * The contract every operation of every node follows. One file per operation,
 * `<Node>/operations/<operation>.ts`, exports `description` (its parameters, shown for that
 * operation with `updateDisplayOptions`) and `execute`; `<Node>/operations/index.ts` lists the
 * files by operation value (the value saved workflows hold); `<Node>/router.ts` runs the one the
 * node is set to; the node file's `execute` calls the router and handles "On Error".
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * One operation file's exports. `Args` is what the node passes besides the items: nothing, or
 * for the data nodes their dialect (which also words their parameters).
 */
export interface Operation<Args extends unknown[] = []> {
	description: INodeProperties[] | ((...args: Args) => INodeProperties[]);
	execute(
		this: IExecuteFunctions,
		items: INodeExecutionData[],
		...args: Args
	): Promise<INodeExecutionData[][]>;
}

/** The value of the node's Operation parameter, one of `operations` (an unknown value stops the node). */
export function readOperation<Name extends string>(
	ctx: IExecuteFunctions,
	operations: Readonly<Record<Name, unknown>>,
): Name {
	const operation = ctx.getNodeParameter('operation', 0) as string;
	if (!Object.prototype.hasOwnProperty.call(operations, operation)) {
		throw new NodeOperationError(ctx.getNode(), `Unknown operation "${operation}"`, {
			description: `Choose one of ${Object.keys(operations).join(', ')}.`,
		});
	}
	return operation as Name;
}
