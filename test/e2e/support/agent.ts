/**
 * Workflows with the package's nodes as AI-agent tools, built as the editor saves them
 * (`settings.executionOrder: "v1"`): a Manual Trigger, n8n's AI Agent (3.1 or 2.2) with the OpenAI
 * Chat Model (typeVersion 1.2, whose credential's Base URL points at the scripted model of
 * test/support/model-server.ts), and the tools (`<node type>Tool`, parameters filled with
 * `$fromAI()` as the README's section "Using the nodes from an AI Agent or an MCP client" shows).
 */
import * as rt from '../../../scripts/runtime';
import { delay } from '../../support/node';
import { publishWorkflow } from './editor';
import { TYPE_PREFIX, type Json } from './n8n';

export const OPENAI_CREDENTIAL = { id: 'e2eScriptedModel', name: 'Scripted model' };
export const EXPIRED_CREDENTIAL = { id: 'campaignExpired1', name: 'Campaign expired account' };
const SANDBOX = { id: rt.SANDBOX_CREDENTIAL.id, name: rt.SANDBOX_CREDENTIAL.name };

export interface ToolNode {
	name: string;
	/** The package's node type without prefix, e.g. `campaignAlimtalk`; a full type (with a `.`) as given. */
	type: string;
	parameters: Json;
	credential?: { id: string; name: string };
	/** The node's version, 1 unless given (Campaign Members 2: Create or Update's resource mapper). */
	typeVersion?: number;
}

/** A send to the number the model gives, with fixed template variables and no options. */
export const FIXED_SEND: Json = {
	operation: 'send',
	campaignKey: 'DEMO-WELCOME',
	phoneNumber: "={{ $fromAI('phoneNumber', 'Recipient mobile number', 'string') }}",
	variablesInput: 'json',
	propertiesJson: '={"name":"Kim","coupon":"C1"}',
};

/** The tools the agent tests use: every node and operation the issue names. */
export const TOOLS: ToolNode[] = [
	{
		name: 'Send Alimtalk',
		type: 'campaignAlimtalk',
		parameters: {
			operation: 'send',
			campaignKey: 'DEMO-WELCOME',
			phoneNumber:
				"={{ $fromAI('phoneNumber', 'Recipient mobile number, 12 digits such as 821012345678', 'string') }}",
			variablesInput: 'json',
			propertiesJson:
				"={{ $fromAI('templateVariables', 'Template variables as a JSON object: name and coupon', 'json') }}",
			options: {
				deduplicationKey:
					"=order-{{ $fromAI('orderId', 'The order the message is about', 'string') }}",
			},
		},
	},
	{
		name: 'Find Member',
		type: 'campaignMembers',
		parameters: {
			apiVersion: 'v2',
			operation: 'get',
			memberId: "={{ $fromAI('memberId', 'The member ID in the CRM', 'string') }}",
		},
	},
	{
		name: 'Read Custom Data',
		type: 'campaignCustomData',
		parameters: {
			operation: 'get',
			memberId: "={{ $fromAI('memberId', 'The member ID in the CRM', 'string') }}",
		},
	},
	{
		name: 'Save Custom Data',
		type: 'campaignCustomData',
		parameters: {
			operation: 'create',
			mappingMode: 'defineBelow',
			memberId: "={{ $fromAI('memberId', 'The member ID in the CRM', 'string') }}",
			entries: {
				entry: [
					{
						key: "={{ $fromAI('key', 'A registered custom data key, e.g. points', 'string') }}",
						value: "={{ $fromAI('value', 'The value to store', 'string') }}",
					},
				],
			},
		},
	},
	{
		name: 'Read Legacy Data',
		type: 'campaignLegacyData',
		parameters: {
			operation: 'get',
			memberId: "={{ $fromAI('memberId', 'The member ID in the CRM', 'string') }}",
		},
	},
	{
		name: 'Send Alimtalk Expired',
		type: 'campaignAlimtalk',
		credential: EXPIRED_CREDENTIAL,
		parameters: {
			...FIXED_SEND,
			// As a tool a send needs a Deduplication Key (CampaignAlimtalk/helpers/guard.ts).
			options: {
				deduplicationKey:
					"=expired-{{ $fromAI('phoneNumber', 'Recipient mobile number', 'string') }}",
			},
		},
	},
];

function uuid(n: number): string {
	return `a9e00000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

export function toolNode(tool: ToolNode, i: number): Json {
	return {
		parameters: tool.parameters,
		id: uuid(10 + i),
		name: tool.name,
		type: tool.type.includes('.') ? tool.type : `${TYPE_PREFIX}${tool.type}Tool`,
		typeVersion: tool.typeVersion ?? 1,
		position: [400 + 150 * i, 250],
		credentials: { campaignApi: tool.credential ?? SANDBOX },
	};
}

/** One workflow: trigger -> AI Agent (version) with the scripted model and `tools`. */
export function agentWorkflow(id: string, agentVersion: 3.1 | 2.2, tools: ToolNode[]): Json {
	const agent = 'AI Agent';
	const model = 'Scripted model';
	const nodes: Json[] = [
		{
			parameters: {},
			id: uuid(1),
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
		},
		{
			parameters: {
				promptType: 'define',
				text: 'Handle the customer requests with the tools.',
				options: { maxIterations: 40 },
			},
			id: uuid(2),
			name: agent,
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: agentVersion,
			position: [300, 0],
		},
		{
			parameters: {
				model: { __rl: true, value: 'gpt-4o-mini', mode: 'list', cachedResultName: 'gpt-4o-mini' },
				options: {},
			},
			id: uuid(3),
			name: model,
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.2,
			position: [200, 250],
			credentials: { openAiApi: OPENAI_CREDENTIAL },
		},
		...tools.map((tool, i) => toolNode(tool, i)),
	];
	const connections: Json = {
		Start: { main: [[{ node: agent, type: 'main', index: 0 }]] },
		[model]: { ai_languageModel: [[{ node: agent, type: 'ai_languageModel', index: 0 }]] },
	};
	for (const tool of tools) {
		connections[tool.name] = { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] };
	}
	return {
		id,
		name: `e2e agent ${agentVersion}`,
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * The workflow with its Manual Trigger replaced by a Webhook (POST `path`; `lastNode`: the call
 * answers when the run ends, `onReceived`: at once), for runs under `n8n start`. `n` keeps the
 * webhook's id apart from other workflows'.
 */
export function withWebhook(
	workflow: Json,
	path: string,
	n: number,
	responseMode: 'lastNode' | 'onReceived' = 'onReceived',
): Json {
	const [start, ...nodes] = workflow.nodes as Json[];
	const webhook = {
		parameters: { httpMethod: 'POST', path, responseMode, options: {} },
		id: start.id,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		position: start.position,
		webhookId: uuid(900 + n),
	};
	const { Start: main, ...connections } = workflow.connections as Json;
	return {
		...workflow,
		nodes: [webhook, ...nodes],
		connections: { Webhook: main, ...connections },
	};
}

export const MCP_PATH = 'campaign-tools';
export const MCP_CREDENTIAL = { id: 'e2eMcpBearer', name: 'MCP bearer token' };

/**
 * One workflow: n8n's MCP Server Trigger (Bearer Auth) exposing `tools` at `/mcp/<path>`. A second
 * trigger in one n8n needs its own `path` and `n` (its webhook's id).
 */
export function mcpWorkflow(id: string, tools: ToolNode[], path = MCP_PATH, n = 0): Json {
	const trigger = 'MCP Server Trigger';
	const nodes: Json[] = [
		{
			parameters: { authentication: 'bearerAuth', path },
			id: uuid(1),
			name: trigger,
			type: '@n8n/n8n-nodes-langchain.mcpTrigger',
			typeVersion: 2,
			position: [300, 0],
			webhookId: `c0ffee00-0000-4000-8000-${(0xcafe + n).toString(16).padStart(12, '0')}`,
			credentials: { httpBearerAuth: MCP_CREDENTIAL },
		},
		...tools.map((tool, i) => toolNode(tool, i)),
	];
	const connections: Json = {};
	for (const tool of tools) {
		connections[tool.name] = { ai_tool: [[{ node: trigger, type: 'ai_tool', index: 0 }]] };
	}
	return {
		id,
		name: `e2e MCP server /mcp/${path}`,
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * Publishes the workflows `ids` (their HTTP statuses, in order) and waits until each MCP Server
 * Trigger's URL (`paths`) answers, a moment after its workflow is published (at most 30 s each).
 */
export async function publishWithMcp(
	url: string,
	cookie: string,
	ids: string[],
	paths = [MCP_PATH],
): Promise<number[]> {
	const statuses: number[] = [];
	for (const id of ids) statuses.push(await publishWorkflow(url, cookie, id));
	for (const path of paths) {
		for (let i = 0; i < 60; i++) {
			const probe = await rt.httpRequest('POST', `${url}/mcp/${path}`, { body: {} });
			if (probe.status !== 404) break;
			await delay(500);
		}
	}
	return statuses;
}
