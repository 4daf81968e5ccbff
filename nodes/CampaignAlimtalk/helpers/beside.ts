/**
 * No tool that undoes a guard. A send to a Member ID sends to the number on the member's record:
 * the model cannot choose the number. A Campaign Members tool that writes (Create or Update,
 * Delete) beside it would undo that: the model saves a member with a number and consent of its
 * choosing, then sends to it. As a tool, a send to a Member ID therefore refuses to run, before
 * anything is read or sent, when such a tool serves the same model (docs/ai-agents.md, "No member
 * write beside a send to a member"). Outside tool mode nothing changes.
 *
 * The same model, read from the workflow's `ai_tool` connections: the nodes the send is a tool of
 * (an AI Agent, an MCP Server Trigger, a review node, a sub-agent), and on through theirs (a review
 * node's agent, a sub-agent's agent). A Members write is beside the send when, walking the same
 * way, it reaches one of them without passing a review node (n8n names its human-review tool
 * nodes `<name>HitlTool`): a person approves each call of a write behind one. Disabled nodes are
 * no tools and lead nowhere. An n8n whose node context does not carry its workflow shows no
 * connections: the check refuses only on what it can see.
 */
import type { IConnections, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { withServiceCode } from '../../shared/codes';
import { readOperations } from '../../shared/operation';
import { baseType } from '../../shared/tool';
import { OPERATIONS as MEMBER_OPERATIONS } from '../../CampaignMembers/operations';
import { MEMBER_WRITE_BESIDE_CODE, SEND_CODES } from './send-codes';

/** What the check reads of a workflow: its nodes by name and its connections by source node. */
export interface ToolGraph {
	nodes: Readonly<Record<string, INode | undefined>>;
	connections: IConnections;
}

/** The Campaign Members operations that only read, by their own `kind`; any other writes. */
const MEMBER_READS = readOperations(MEMBER_OPERATIONS);
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
	// The Members node of the send's own package (INTERFACE: `<package>.campaignMembers`).
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

/**
 * The workflow the node runs in: n8n's node contexts (n8n-core's NodeExecutionContext, n8n 1.x
 * and 2.x) keep it as `workflow`, with `nodes` by name and `connectionsBySourceNode`.
 */
function graphOf(ctx: IExecuteFunctions): ToolGraph | undefined {
	const workflow = (ctx as unknown as { workflow?: Record<string, unknown> }).workflow;
	const nodes = workflow?.nodes;
	const connections = workflow?.connectionsBySourceNode;
	if (typeof nodes !== 'object' || nodes === null) return undefined;
	if (typeof connections !== 'object' || connections === null) return undefined;
	return { nodes: nodes as ToolGraph['nodes'], connections: connections as IConnections };
}

/**
 * Throws the refusal when a Campaign Members write tool serves the model this send to a Member ID
 * serves; called only in tool mode (send.ts). A Recipient given by an expression may be a Member
 * ID, so it counts as one.
 */
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
