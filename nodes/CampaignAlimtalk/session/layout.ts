/**
 * Nodes of the workflow that would share this node's deduplication records, refused before
 * anything is sent (docs/deduplication.md, "Nodes that share a record"): a Remove Duplicates node
 * (version 2) using scope "Workflow"; with scope "This Node", a keyed send with "Whole Workflow"
 * (its keys are where this node's lock is); with "Whole Workflow", any other keyed send. Every
 * node counts, whatever connects it (main, `ai_tool`, nothing); a row written by a node not seen
 * is still found while the lock is taken (store/lock.ts).
 */
import type { DeduplicationScope, IExecuteFunctions, NodeTypeAndVersion } from 'n8n-workflow';
import { CONFLICT_CODE } from '../store/store-errors';
import { NodeOperationError } from 'n8n-workflow';
import { withServiceCode } from '../../shared/codes';
import { baseType } from '../../shared/tool';
import { savedOptionsOf } from '../../shared/options';
import { keyIsSet } from '../key/key-options';
import { limitInStoreIsSet } from '../limit/limit-options';

const REMOVE_DUPLICATES = 'n8n-nodes-base.removeDuplicates';
const STORE_OPERATIONS = ['removeItemsSeenInPreviousExecutions', 'clearDeduplicationHistory'];

type Neighbour = NodeTypeAndVersion & { parameters?: Record<string, unknown> };

/** Every other enabled node: n8n's node contexts (1.x and 2.x) keep their workflow as `workflow`. */
function everyNode(ctx: IExecuteFunctions): Neighbour[] {
	const nodes = (ctx as unknown as { workflow?: { nodes?: unknown } }).workflow?.nodes;
	if (typeof nodes !== 'object' || nodes === null) return [];
	const name = ctx.getNode().name;
	return Object.values(nodes as Record<string, Partial<Neighbour> | null>).filter(
		(node): node is Neighbour =>
			typeof node?.name === 'string' &&
			typeof node.type === 'string' &&
			node.name !== name &&
			node.disabled !== true,
	);
}

/**
 * A keyed send's scope, or undefined when the node is not a send that uses the store: one with
 * a Deduplication Key or a send limit per hour or day (kept where the keys are).
 */
function keyedScope(node: Neighbour, sendType: string): DeduplicationScope | undefined {
	// A send and its tool copy are one send.
	if (baseType(node.type) !== baseType(sendType)) return undefined;
	const saved = savedOptionsOf(node);
	if (!keyIsSet(saved) && !limitInStoreIsSet(saved)) return undefined;
	return saved.deduplicationScope === 'workflow' ? 'workflow' : 'node';
}

function usesWorkflowScope(node: Neighbour): boolean {
	return (
		node.type === REMOVE_DUPLICATES &&
		node.typeVersion >= 2 &&
		STORE_OPERATIONS.includes(String(node.parameters?.operation)) &&
		savedOptionsOf(node).scope === 'workflow'
	);
}

/** Throws the conflict, naming the other node and what to change, before anything is sent. */
export function checkLayout(ctx: IExecuteFunctions, scope: DeduplicationScope): void {
	const self = ctx.getNode();
	const use = scope === 'node' ? 'its lock' : 'its keys';
	for (const other of everyNode(ctx)) {
		let message: string | undefined;
		let description = '';
		const otherScope = keyedScope(other, self.type);
		if (usesWorkflowScope(other)) {
			message = `the Remove Duplicates node "${other.name}" keeps its history in this workflow's shared deduplication record (Scope "Workflow"), where this node keeps ${use}`;
			description = `Set the Scope option of "${other.name}" to "Node".`;
		} else if (otherScope === 'workflow' && scope === 'node') {
			message = `the node "${other.name}" keeps its keys in this workflow's shared deduplication record (Deduplication Scope "Whole Workflow"), where this node keeps its lock`;
			description = `Set Deduplication Scope to "This Node" on "${other.name}".`;
		} else if (otherScope !== undefined && scope === 'workflow') {
			message = `the node "${other.name}" also has a Deduplication Key; with Deduplication Scope "Whole Workflow" this node must be the only keyed send of the workflow`;
			description = `Set Deduplication Scope to "This Node" on this node and on "${other.name}" (each keeps its own keys).`;
		}
		if (message === undefined) continue;
		const error = new NodeOperationError(self, `Deduplication Key: ${message}`, {
			description: `${description} Nothing was sent. Two nodes writing one record would lose each other's writes (README, "Sending once across executions").`,
		});
		throw withServiceCode(error, CONFLICT_CODE);
	}
}
