import type { DeduplicationScope, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { serviceCodeOf, STOPPED_CODE, STOPPED_INFO, withServiceCode } from '../../shared/codes';

/** The first n8n release whose nodes can use its deduplication store (n8n-core 1.64.0). */
export const MIN_N8N_VERSION = '1.64.0';

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A failure of n8n's deduplication store, named as the option's. */
export function storeError(node: INode, error: unknown, description?: string): NodeOperationError {
	if (error instanceof NodeOperationError) return error;
	return new NodeOperationError(
		node,
		`Deduplication Key: n8n's deduplication store failed: ${messageOf(error)}`,
		{ description },
	);
}

/** `error` as `node`'s own: a lock round two keyed nodes share gives each its error naming it (queue.ts). */
export function ownError(error: unknown, node: INode): unknown {
	if (!(error instanceof NodeOperationError) || error.node.name === node.name) return error;
	const own = new NodeOperationError(node, error.message, {
		description: error.description ?? undefined,
	});
	Object.assign(own.context, error.context);
	return own;
}

/** A store round's error as its items' owners report it: with a code (STORE_FAILED_CODE when it has none). */
export function roundError(node: INode, error: unknown): NodeOperationError {
	const wrapped = storeError(node, error);
	if (serviceCodeOf(wrapped) === undefined) withServiceCode(wrapped, STORE_FAILED_CODE);
	return wrapped;
}

/** The lock's row changed under its holder by lock entries only: a database write that landed late (lock.ts). */
export function lateWriteError(node: INode): NodeOperationError {
	return storeError(
		node,
		"the deduplication lock's record changed while this execution held it (a database write that landed late)",
		"Nothing was sent. An item with deduplicationKeyKept true keeps its key claimed (no write follows a fault that could remove another execution's claim): a run again reports it as an earlier send not confirmed. The others are sent by a run again.",
	);
}

export const CONFLICT_CODE = 'deduplicationConflict';
/** A store round that failed: what its items say (session/asks.ts). */
export const STORE_FAILED_CODE = 'deduplicationStoreFailed';

/** The lock row holds another node's data, or data of another mode. */
export function conflictError(
	node: INode,
	lockScope: DeduplicationScope,
	cause?: unknown,
): NodeOperationError {
	const detail = cause === undefined ? '' : ` (${messageOf(cause)})`;
	const error =
		lockScope === 'workflow'
			? new NodeOperationError(
					node,
					`Deduplication Key: another node of this workflow keeps deduplication data with scope "Whole Workflow"${detail}; with Deduplication Scope "This Node", this node needs that record to coordinate executions`,
					{
						description:
							'Set Deduplication Scope to "Whole Workflow" on this node too (it then shares keys with that node), or give the other node its own scope. If no other node uses that scope (this node used it before), clear it: Remove Duplicates node, operation "Clear Deduplication History", scope "Workflow". Nothing was sent.',
					},
				)
			: new NodeOperationError(
					node,
					`Deduplication Key: this node's deduplication record holds data of another kind${detail}`,
					{
						description: 'Nothing was sent. Run the workflow again; if it persists, report it.',
					},
				);
	return withServiceCode(error, CONFLICT_CODE);
}

/** An ask stopped waiting for its answer because the execution was stopped (nothing sent). */
export function stoppedError(node: INode): NodeOperationError {
	const error = new NodeOperationError(node, STOPPED_INFO.message, {
		description: STOPPED_INFO.hint,
	});
	return withServiceCode(error, STOPPED_CODE);
}
