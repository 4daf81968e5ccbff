import type { INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Under "On Error: Continue", a whole-call failure becomes one error item per input item,
 * paired with it, carrying the message and the service code (never the key: messages come
 * from the transport, which redacts them). Under "Continue (using error output)" n8n moves an
 * item to its Error output only when its JSON holds nothing but `error`, `message` and
 * `details`, so there the code and the description go under `details`.
 */
export function errorItems(items: INodeExecutionData[], error: unknown, node?: INode): INodeExecutionData[] {
	return errorItemsFor(items.map((_, index) => index), error, node);
}

/** One error item per input index given, paired with it (see `errorItems`). */
export function errorItemsFor(indexes: readonly number[], error: unknown, node?: INode): INodeExecutionData[] {
	const err = error as { message?: string; description?: string; context?: { campaignCode?: unknown } };
	const code = err.context?.campaignCode;
	const extra = {
		...(err.description ? { description: err.description } : {}),
		...(code !== undefined ? { code: String(code) } : {}),
	};
	const errorOutput = node?.onError === 'continueErrorOutput';
	return indexes.map((index) => ({
		json: {
			error: err.message ?? 'Unknown error',
			...(errorOutput ? (Object.keys(extra).length > 0 ? { details: extra } : {}) : extra),
		},
		pairedItem: { item: index },
	}));
}

/** The error to throw from a node: n8n's own error types pass through, anything else is wrapped. */
export function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}
