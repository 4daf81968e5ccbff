/**
 * As a tool, a send to a Member ID is refused beside a Members write tool of the same model, which
 * could save a member with a number of its choosing and then send to it (docs/ai-agents.md, "No
 * member write beside a send to a member", also for what counts as the same model).
 */
import type { IConnections, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { withServiceCode } from '../../shared/codes';
import { readOperations } from '../../shared/operation';
import { baseType } from '../../shared/tool';
import { OPERATIONS as MEMBER_OPERATIONS } from '../../CampaignMembers/operations';
import { MEMBER_WRITE_BESIDE_CODE, SEND_CODES } from './send-codes';

/** A workflow's nodes by name and its connections by source node. */
export interface ToolGraph {
	nodes: Readonly<Record<string, INode | undefined>>;
	connections: IConnections;
}

/** Read-only Members operations, by their own `kind`; any other counts as a write. */
const MEMBER_READS = readOperations(MEMBER_OPERATIONS);
// n8n's human-review tool nodes: a person approves each call of a write behind one.
const isReview = (node: INode): boolean => node.type.endsWith('HitlTool');

/** The enabled nodes `name` is a tool of (its `ai_tool` outputs). */
function toolOf(graph: ToolGraph, name: string): INode[] {
	const outputs = graph.connections[name]?.ai_tool ?? [];
	return outputs
		.flatMap((output) => output ?? [])
		.map((connection) => graph.nodes[connection.node])
		.filter((node): node is INode => node !== undefined && node.disabled !== true);
}

/** Every node reached from `start` through `ai_tool` outputs, never through a node `stop` names. */
function callersOf(graph: ToolGraph, start: string, stop: (node: INode) => boolean): Set<string> {
	const reached = new Set<string>();
	const queue = [start];
	for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
		for (const next of toolOf(graph, name)) {
			if (reached.has(next.name) || stop(next)) continue;
			reached.add(next.name);
			queue.push(next.name);
		}
	}
	return reached;
}

/** The names of the Campaign Members write tools that serve the model `send` serves. */
export function memberWritesBeside(graph: ToolGraph, send: INode): string[] {
	const callers = callersOf(graph, send.name, () => false);
	if (callers.size === 0) return [];
	// The Members node of the send's own package, never another package's.
	const members = `${send.type.slice(0, send.type.lastIndexOf('.') + 1)}campaignMembers`;
	const writes = (node: INode | undefined): node is INode =>
		node !== undefined &&
		node.disabled !== true &&
		node.name !== send.name &&
		baseType(node.type) === members &&
		!MEMBER_READS.includes(String(node.parameters?.operation));
	return Object.values(graph.nodes)
		.filter(writes)
		.filter((node) => [...callersOf(graph, node.name, isReview)].some((n) => callers.has(n)))
		.map((node) => node.name);
}

/** Not in IExecuteFunctions: n8n-core's node contexts (1.x, 2.x) keep the workflow there. */
function graphOf(ctx: IExecuteFunctions): ToolGraph | undefined {
	const workflow = (ctx as unknown as { workflow?: Record<string, unknown> }).workflow;
	const nodes = workflow?.nodes;
	const connections = workflow?.connectionsBySourceNode;
	if (typeof nodes !== 'object' || nodes === null) return undefined;
	if (typeof connections !== 'object' || connections === null) return undefined;
	return { nodes: nodes as ToolGraph['nodes'], connections: connections as IConnections };
}

/** A Recipient given by an expression may be a Member ID, so it counts as one. */
export function refuseMemberWriteBeside(ctx: IExecuteFunctions): void {
	const send = ctx.getNode();
	const recipient = send.parameters?.recipient;
	if (recipient === undefined || recipient === 'phoneNumber') return;
	const graph = graphOf(ctx);
	const [write] = graph ? memberWritesBeside(graph, send) : [];
	if (write === undefined) return;
	const { message, hint } = SEND_CODES[MEMBER_WRITE_BESIDE_CODE];
	const named = `${message}. "${write}" is a Campaign Members write tool of the same AI agent or MCP Server Trigger.`;
	const error = new NodeOperationError(send, named, { description: hint });
	throw withServiceCode(error, MEMBER_WRITE_BESIDE_CODE);
}
