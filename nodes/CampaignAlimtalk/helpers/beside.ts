/**
 * As a tool, a send to a Member ID is refused beside a tool of the same model that could save a
 * member with a number of its choosing, or read a member's number: any Campaign Members tool, any
 * other node holding the Campaign credential but the package's own reads and sends
 * (docs/ai-agents.md, "No member tool beside a send to a member", also for the same model).
 */
import type { IConnections, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { withServiceCode } from '../../shared/codes';
import { baseType } from '../../shared/tool';
import { CREDENTIAL_TYPE } from '../../shared/transport/credentials';
import { MEMBER_WRITE_BESIDE_CODE, SEND_CODES } from './send-codes';

/** A workflow's nodes by name and its connections by source node. */
export interface ToolGraph {
	nodes: Readonly<Record<string, INode | undefined>>;
	connections: IConnections;
}

/** The package's nodes that use the credential only to read data or send, never on a member. */
const OWN_SAFE = ['campaignCustomData', 'campaignLegacyData', 'campaignAlimtalk'];
// n8n's human-review tool nodes: a person approves each call of a tool behind one.
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

/** It holds the Campaign credential, or its parameters (the HTTP Request node) select it or may. */
function holdsCredential(node: INode): boolean {
	const selected = String(node.parameters?.nodeCredentialType ?? '');
	if (selected.trim() === CREDENTIAL_TYPE || selected.startsWith('=')) return true;
	return CREDENTIAL_TYPE in (node.credentials ?? {});
}

/** The tools serving the model `send` serves that can write a member or read its number. */
export function memberToolsBeside(graph: ToolGraph, send: INode): string[] {
	const callers = callersOf(graph, send.name, () => false);
	if (callers.size === 0) return [];
	// The send's own package, never another package's node of the same name.
	const own = send.type.slice(0, send.type.lastIndexOf('.') + 1);
	const reaches = (node: INode | undefined): node is INode => {
		if (node === undefined || node.disabled === true || node.name === send.name) return false;
		const type = baseType(node.type);
		if (type === `${own}campaignMembers`) return true;
		return holdsCredential(node) && !OWN_SAFE.some((name) => type === `${own}${name}`);
	};
	return Object.values(graph.nodes)
		.filter(reaches)
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
export function refuseMemberToolBeside(ctx: IExecuteFunctions): void {
	const send = ctx.getNode();
	const recipient = send.parameters?.recipient;
	if (recipient === undefined || recipient === 'phoneNumber') return;
	const graph = graphOf(ctx);
	const [tool] = graph ? memberToolsBeside(graph, send) : [];
	if (tool === undefined) return;
	const { message, hint } = SEND_CODES[MEMBER_WRITE_BESIDE_CODE];
	const named = `${message}. "${tool}" is such a tool of the same AI agent or MCP Server Trigger.`;
	const error = new NodeOperationError(send, named, { description: hint });
	throw withServiceCode(error, MEMBER_WRITE_BESIDE_CODE);
}
