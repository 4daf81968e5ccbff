/**
 * Which tools count as "beside" the send (helpers/beside.ts): the walk over a workflow's `ai_tool`
 * connections, on workflows the engine suite (send.tool-beside.test.ts) cannot run: a send behind
 * a human-review node, an MCP Server Trigger, sub-agents, loops, another package's node, and an
 * n8n whose node context does not carry its workflow.
 */
import type { IConnections, IExecuteFunctions, INode } from 'n8n-workflow';
import {
	memberToolsBeside,
	refuseMemberToolBeside,
} from '../../../nodes/CampaignAlimtalk/helpers/beside';
import { serviceCodeOf } from '../../../nodes/shared/codes';

const PKG = 'n8n-nodes-campaign-messaging';
const SEND_TYPE = `${PKG}.campaignAlimtalkTool`;
const MEMBERS_TOOL = `${PKG}.campaignMembersTool`;
const MCP = '@n8n/n8n-nodes-langchain.mcpTrigger';
const AGENT = '@n8n/n8n-nodes-langchain.agent';
const REVIEW = 'n8n-nodes-base.emailSendHitlTool';

const node = (name: string, type: string, parameters = {}, more: Partial<INode> = {}): INode => ({
	id: name,
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...more,
});
const SEND = node('Send', SEND_TYPE, { recipient: 'memberId' });
const upsert = (name = 'Members', type = MEMBERS_TOOL, more: Partial<INode> = {}) =>
	node(name, type, { operation: 'upsert' }, more);

/** `edges` as `from>to`: `from` is a tool (`ai_tool`) of `to`. */
function graph(nodes: INode[], edges: string[]) {
	const connections: IConnections = {};
	for (const [from, to] of edges.map((edge) => edge.split('>'))) {
		connections[from] ??= { ai_tool: [[]] };
		connections[from].ai_tool[0]?.push({ node: to, type: 'ai_tool', index: 0 });
	}
	return { nodes: Object.fromEntries(nodes.map((one) => [one.name, one])), connections };
}

const [agent, review] = [node('Agent', AGENT), node('Review', REVIEW)];
const CAMPAIGN = { campaignApi: { id: '1', name: 'Campaign API' } };
/** n8n's HTTP Request tool with a predefined credential type (`campaignApi` unless named). */
const http = (name: string, more: Partial<INode> = {}, type = 'campaignApi') =>
	node(
		name,
		'n8n-nodes-base.httpRequestTool',
		{
			method: 'POST',
			url: "={{ $fromAI('url') }}",
			authentication: 'predefinedCredentialType',
			nodeCredentialType: type,
		},
		{ credentials: CAMPAIGN, ...more },
	);

describe('the Members write tools beside a send', () => {
	it.each<[string, INode[], string[], string[]]>([
		[
			'an MCP Server Trigger with the send and a Members write: found',
			[node('MCP', MCP), upsert()],
			['Send>MCP', 'Members>MCP'],
			['Members'],
		],
		[
			'two MCP Server Triggers, one with the send and one with the write: none',
			[node('MCP 1', MCP), node('MCP 2', MCP), upsert()],
			['Send>MCP 1', 'Members>MCP 2'],
			[],
		],
		[
			'the send behind a review node, the write on the agent itself: found (the reviewer is not shown the number)',
			[agent, review, upsert()],
			['Send>Review', 'Review>Agent', 'Members>Agent'],
			['Members'],
		],
		[
			'the write behind a review node: none (a person approves each write)',
			[agent, review, upsert()],
			['Send>Agent', 'Members>Review', 'Review>Agent'],
			[],
		],
		[
			'the write behind the review node the send is behind: none',
			[agent, review, upsert()],
			['Send>Review', 'Members>Review', 'Review>Agent'],
			[],
		],
		[
			"the write on a sub-agent that is a tool of the send's agent: found",
			[agent, node('Sub', `${AGENT}Tool`), upsert()],
			['Send>Agent', 'Sub>Agent', 'Members>Sub'],
			['Members'],
		],
		[
			'a loop of ai_tool connections: ends, found',
			[node('A', AGENT), node('B', AGENT), upsert()],
			['Send>A', 'A>B', 'B>A', 'Members>B'],
			['Members'],
		],
		[
			"by type, whatever the name: the base type counts; another package's node without the Campaign credential, a disabled node do not",
			[
				agent,
				upsert('Send 2', `${PKG}.campaignMembers`),
				upsert('Theirs', 'other-package.campaignMembersTool'),
				upsert('Off', MEMBERS_TOOL, { disabled: true }),
			],
			['Send>Agent', 'Send 2>Agent', 'Theirs>Agent', 'Off>Agent'],
			['Send 2'],
		],
		[
			"a Members Get tool: found (it answers the member's phone number)",
			[agent, node('Read', MEMBERS_TOOL, { operation: 'get' })],
			['Send>Agent', 'Read>Agent'],
			['Read'],
		],
		[
			'an HTTP Request tool holding the Campaign credential: found, whatever it is named',
			[agent, http('Tool ', { credentials: CAMPAIGN }), http('Саmpaign Members Get\u200b')],
			['Send>Agent', 'Tool >Agent', 'Саmpaign Members Get\u200b>Agent'],
			['Tool ', 'Саmpaign Members Get\u200b'],
		],
		[
			'a node selecting the Campaign credential by its parameters only, or by an expression: found',
			[
				agent,
				http('Selected', { credentials: {} }),
				http('Expression', { credentials: {} }, '={{ "campaign" + "Api" }}'),
				http('Padded', { credentials: {} }, ' campaignApi\n'),
			],
			['Send>Agent', 'Selected>Agent', 'Expression>Agent', 'Padded>Agent'],
			['Selected', 'Expression', 'Padded'],
		],
		[
			"another package's node (a look-alike type name) holding the Campaign credential: found",
			[agent, upsert('Theirs', 'other-package.campaignCustomDataTool', { credentials: CAMPAIGN })],
			['Send>Agent', 'Theirs>Agent'],
			['Theirs'],
		],
		[
			"an HTTP Request tool with another credential, a disabled one, one behind a review node, the package's reads and sends: none",
			[
				agent,
				review,
				http(
					'Header',
					{ credentials: { httpHeaderAuth: { id: '2', name: 'Other' } } },
					'httpHeaderAuth',
				),
				http('Off', { disabled: true }),
				http('Reviewed'),
				node(
					'Data',
					`${PKG}.campaignCustomDataTool`,
					{ operation: 'get' },
					{ credentials: CAMPAIGN },
				),
				node(
					'Legacy',
					`${PKG}.campaignLegacyDataTool`,
					{ operation: 'get' },
					{ credentials: CAMPAIGN },
				),
				node('Send 2', SEND_TYPE, {}, { credentials: CAMPAIGN }),
			],
			[
				'Send>Agent',
				'Header>Agent',
				'Off>Agent',
				'Reviewed>Review',
				'Review>Agent',
				'Data>Agent',
				'Legacy>Agent',
				'Send 2>Agent',
			],
			[],
		],
		[
			'an HTTP Request tool on a second MCP Server Trigger: none (another model, docs/ai-agents.md)',
			[node('MCP 1', MCP), node('MCP 2', MCP), http('HTTP')],
			['Send>MCP 1', 'HTTP>MCP 2'],
			[],
		],
		[
			'a connection to a node the workflow does not hold, or to a disabled agent: leads nowhere',
			[node('Off', AGENT, {}, { disabled: true }), upsert()],
			['Send>Gone', 'Members>Gone', 'Send>Off', 'Members>Off'],
			[],
		],
	])('%s', (_, nodes, edges, found) => {
		expect(memberToolsBeside(graph([SEND, ...nodes], edges), SEND)).toEqual(found);
	});
});

describe('refuseMemberToolBeside', () => {
	const ctx = (send: INode, workflow?: unknown) =>
		({ getNode: () => send, workflow }) as unknown as IExecuteFunctions;
	const sameAgent = graph([SEND, agent, upsert()], ['Send>Agent', 'Members>Agent']);
	const codeOf = (run: () => void): string | undefined => {
		try {
			run();
		} catch (error) {
			return serviceCodeOf(error) ?? 'no code';
		}
		return undefined;
	};
	const workflowOf = (g: ReturnType<typeof graph>) => ({
		nodes: g.nodes,
		connectionsBySourceNode: g.connections,
	});

	it('throws memberWriteToolBeside for a send to a member ID, or a Recipient given by an expression', () => {
		for (const recipient of ['memberId', "={{ 'memberId' }}"]) {
			const send = { ...SEND, parameters: { recipient } };
			expect(codeOf(() => refuseMemberToolBeside(ctx(send, workflowOf(sameAgent))))).toBe(
				'memberWriteToolBeside',
			);
		}
	});

	it('lets a send to a phone number through', () => {
		const send = { ...SEND, parameters: { recipient: 'phoneNumber' } };
		expect(() => refuseMemberToolBeside(ctx(send, workflowOf(sameAgent)))).not.toThrow();
	});

	it('refuses only on what it can see: a context without its workflow, or without connections, lets it through', () => {
		expect(() => refuseMemberToolBeside(ctx(SEND))).not.toThrow();
		expect(() => refuseMemberToolBeside(ctx(SEND, { nodes: sameAgent.nodes }))).not.toThrow();
	});
});
