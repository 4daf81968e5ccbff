/**
 * Nodes of the same workflow that would share this node's deduplication records, found before
 * anything is sent (docs/deduplication.md, "Nodes that share a record"). The key's node always
 * uses the workflow's shared record: as its lock with scope "This Node", for its keys with scope
 * "Whole Workflow". Only other keyed sends with scope "This Node" may share it (they share the
 * lock, each with keys of its own). Refused:
 * - a Remove Duplicates node (version 2) that keeps or clears its history with scope "Workflow";
 * - with scope "This Node": another keyed send with scope "Whole Workflow" (its keys are where
 *   this node's lock is);
 * - with scope "Whole Workflow": any other keyed send (each would take a lock of its own on the
 *   same keys).
 * Seen is every node of the workflow, whatever connects it (main, an AI Agent's or an MCP Server
 * Trigger's `ai_tool`, or nothing at all). An n8n whose node context does not carry its workflow
 * shows only the nodes connected to this one (before it, after it, and after any node before it);
 * a row written by a node not seen is still found while the lock is taken (store/lock.ts).
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

/**
 * Every node of the workflow: n8n's node contexts (n8n-core's NodeExecutionContext, n8n 1.x and
 * 2.x) keep the workflow they run in as `workflow`, whose `nodes` are all of its nodes by name.
 */
function everyNode(ctx: IExecuteFunctions): Neighbour[] | undefined {
	const nodes = (ctx as unknown as { workflow?: { nodes?: unknown } }).workflow?.nodes;
	if (typeof nodes !== 'object' || nodes === null) return undefined;
	const name = ctx.getNode().name;
	return Object.values(nodes as Record<string, Partial<Neighbour> | null>).filter(
		(node): node is Neighbour =>
			typeof node?.name === 'string' &&
			typeof node.type === 'string' &&
			node.name !== name &&
			node.disabled !== true,
	);
}

function connected(ctx: IExecuteFunctions): Neighbour[] {
	const name = ctx.getNode().name;
	const found = new Map<string, Neighbour>();
	try {
		const withParameters = { includeNodeParameters: true };
		const parents = ctx.getParentNodes(name, withParameters) as Neighbour[];
		const around = [...parents, ...(ctx.getChildNodes(name, withParameters) as Neighbour[])];
		for (const parent of parents)
			around.push(...(ctx.getChildNodes(parent.name, withParameters) as Neighbour[]));
		for (const node of around) if (node.name !== name && !node.disabled) found.set(node.name, node);
	} catch {
		// An n8n without these helpers (or a context without a workflow): the lock still checks.
	}
	return [...found.values()];
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
	for (const other of everyNode(ctx) ?? connected(ctx)) {
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
