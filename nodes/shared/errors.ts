/**
 * Error items: what "On Error: Continue" gives instead of stopping the node. `errorItems` is the
 * one builder of them, called by run.ts alone.
 */
import type { INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { cutServiceText } from './codes';

/**
 * What an error says: its message, n8n's description (each cut to MAX_SERVICE_TEXT characters:
 * n8n may put a service's raw answer there), and the service's code when it has one.
 */
export function errorFields(error: unknown): {
	message: string;
	description?: string;
	code?: string;
} {
	const err = error as {
		message?: string;
		description?: string;
		context?: { campaignCode?: unknown };
	};
	const code = err.context?.campaignCode;
	return {
		message: cutServiceText(err.message ?? 'Unknown error'),
		...(err.description ? { description: cutServiceText(err.description) } : {}),
		...(code !== undefined ? { code: String(code) } : {}),
	};
}

/**
 * One error item per input index given, paired with it, carrying the message and the service
 * code (never the key: messages come from the transport, which redacts them). Under "Continue
 * (using error output)" n8n moves an item to its Error output only when its JSON holds nothing
 * but `error`, `message` and `details`, so there the code and the description go under `details`.
 */
export function errorItems(
	node: INode,
	error: unknown,
	indexes: readonly number[],
): INodeExecutionData[] {
	const { message, description, code } = errorFields(error);
	const extra = {
		...(description ? { description } : {}),
		...(code !== undefined ? { code } : {}),
	};
	const errorOutput = node.onError === 'continueErrorOutput';
	return indexes.map((index) => ({
		json: {
			error: message,
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
