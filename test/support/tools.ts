/**
 * The package's nodes as AI-agent tools inside the in-process engine (engine.ts), on every n8n
 * line of the compatibility matrix:
 * - `toolTypes()`: each package node also under its tool name, `<type>Tool`, as n8n's own loader
 *   derives it (packages/cli: name + 'Tool', no inputs, one `ai_tool` output; the loader is not
 *   part of n8n-core, so this file does the same renaming),
 * - `runAsTool(...)`: a caller node that takes the tool from its `ai_tool` input through n8n-core's
 *   `getInputConnectionData` (the path of AI Agent 2.x and the MCP Server Trigger: n8n-core wraps
 *   the node with createNodeAsTool and calls its `execute`) and invokes it once per argument set,
 *   returning the text each call gave back, which is what a model is told. `more` adds nodes
 *   around it (other tools of the caller, other agents); the caller still calls the tool `Tool`.
 */
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeProperties,
	INodeType,
} from 'n8n-workflow';
import { PACKAGE_NAME, loadPackage, runWorkflow, sourceOf } from './engine';

export const CALLER_TYPE = 'test.toolCaller';
/** The names of the caller (the agent) and of the tool under test in `runAsTool`'s workflow. */
export const CALLER = 'Caller';
export const TOOL = 'Tool';

/**
 * The two parameters n8n's loader adds to a tool copy of a node with an `operation` parameter
 * (n8n 2.41.1 `tool-generation/ai-tools.js`, 1.x `convertNodeToAiTool`): Tool Description, "Set
 * Automatically" by default, and the manual text, shown only when set manually.
 */
function toolDescriptionProperties(description: string): INodeProperties[] {
	return [
		{
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Set Automatically', value: 'auto' },
				{ name: 'Set Manually', value: 'manual' },
			],
			default: 'auto',
		},
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: description,
			required: true,
			displayOptions: { show: { descriptionType: ['manual'] } },
		},
	];
}

/** A package node type under its tool name, as n8n's loader makes it. */
function asTool(type: INodeType): INodeType {
	const description = {
		...type.description,
		name: `${type.description.name}Tool`,
		displayName: `${type.description.displayName} Tool`,
		inputs: [],
		outputs: ['ai_tool'],
		properties: [
			...toolDescriptionProperties(type.description.description),
			...type.description.properties,
		],
	} as unknown as INodeType['description'];
	delete (description as { usableAsTool?: boolean }).usableAsTool;
	return Object.assign(Object.create(type) as INodeType, { description });
}

/** Every package node under its tool name (`<package>.<name>Tool`). */
export function toolTypes(): Record<string, INodeType> {
	const types: Record<string, INodeType> = {};
	for (const [name, type] of loadPackage().nodes) types[`${name}Tool`] = asTool(type);
	return types;
}

interface Invokable {
	name: string;
	description: string;
	invoke(args: IDataObject): Promise<unknown>;
}

const caller: INodeType = {
	description: {
		displayName: 'Test Tool Caller',
		name: 'testToolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls its connected tool once per argument set',
		defaults: { name: CALLER },
		inputs: ['main', { type: 'ai_tool', displayName: 'Tool', required: true }],
		outputs: ['main'],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	} as unknown as INodeType['description'],
	async execute(this: IExecuteFunctions) {
		const connected = (await this.getInputConnectionData('ai_tool', 0)) as Invokable | Invokable[];
		// Among several tools (and review toolkits, which have no name), the one under test.
		const tools = Array.isArray(connected) ? connected : [connected];
		const tool = tools.find((one) => one?.name === TOOL) ?? tools[0];
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as IDataObject[];
		// With no calls, one item carrying the tool's name and description (what a model is shown).
		const answers = [];
		if (calls.length === 0)
			answers.push({ json: { tool: tool.name, text: '' }, pairedItem: { item: 0 } });
		for (const args of calls) {
			let text: string;
			try {
				const answer = await tool.invoke(args);
				text = typeof answer === 'string' ? answer : JSON.stringify(answer);
			} catch (error) {
				text = `THROWN: ${(error as Error).message}`;
			}
			answers.push({ json: { tool: tool.name, text }, pairedItem: { item: 0 } });
		}
		for (const answer of answers) Object.assign(answer.json, { description: tool.description });
		return [answers];
	},
};

export interface ToolRun {
	/** The package node's type name, e.g. `campaignAlimtalk`. */
	type: string;
	parameters: IDataObject;
	credentials: IDataObject;
	/** One argument object per tool call. */
	calls: IDataObject[];
	/** More nodes of the workflow, the connections that start at them, and test-only types. */
	more?: { nodes: INode[]; connections: IConnections; types?: Record<string, INodeType> };
}

/** A package node as an AI-agent tool (`<package>.<type>Tool`) with the test credential. */
export function toolNodeOf(
	name: string,
	type: string,
	parameters: IDataObject,
	more: Partial<INode> = {},
): INode {
	return {
		id: `tool-${name}`,
		name,
		type: `${PACKAGE_NAME}.${type}Tool`,
		typeVersion: 1,
		position: [200, 200],
		parameters: parameters as INode['parameters'],
		credentials: { campaignApi: { id: '1', name: 'Campaign API' } },
		...more,
	};
}

/**
 * What each call returned to its caller, parsed from the JSON text (raw text if not JSON), and
 * the description the tool was given (what the model and an MCP client's tool list show).
 */
export async function runAsTool(
	options: ToolRun,
): Promise<{ answers: unknown[]; texts: string[]; description: string }> {
	const tool = toolNodeOf(TOOL, options.type, options.parameters, { id: 'tool-under-test' });
	const callerNode: INode = {
		id: 'caller',
		name: CALLER,
		type: CALLER_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: { calls: JSON.stringify(options.calls) },
	};
	const result = await runWorkflow({
		nodes: [sourceOf([{}]), callerNode, tool, ...(options.more?.nodes ?? [])],
		connections: {
			Source: { main: [[{ node: CALLER, type: 'main', index: 0 }]] },
			[TOOL]: { ai_tool: [[{ node: CALLER, type: 'ai_tool', index: 0 }]] },
			...options.more?.connections,
		},
		credentials: { campaignApi: options.credentials as never },
		extraTypes: { ...toolTypes(), [CALLER_TYPE]: caller, ...options.more?.types },
	});
	if (result.error) throw result.error;
	const items = result.outputs(CALLER)[0] ?? [];
	const texts = items.map((item) => String(item.json.text));
	const description = String(items[0]?.json.description ?? '');
	if (options.calls.length === 0) return { answers: [], texts: [], description };
	const answers = texts.map((text) => {
		try {
			const parsed = JSON.parse(text) as unknown;
			return typeof parsed === 'string' ? (JSON.parse(parsed) as unknown) : parsed;
		} catch {
			return text;
		}
	});
	return { answers, texts, description };
}

/** A send tool's parameters: the phone number from the model, fixed variables, no options. */
export const TOOL_SEND = {
	operation: 'send',
	campaignKey: 'WELCOME',
	phoneNumber: "={{ $fromAI('phoneNumber', 'Recipient, 12 digits', 'string') }}",
	variablesInput: 'json',
	propertiesJson: '={"name":"Kim"}',
};

/** One Korean mobile number as a model may spell it: each converts to 821012345678. */
export const SPELLINGS_OF_ONE_NUMBER = [
	'010-1234-5678',
	'01012345678',
	'+82 10 1234 5678',
	'010.1234.5678',
	'(010) 1234-5678',
	'821012345678',
];

/** A send tool to the member the model names (Recipient: Member ID). */
export const TOOL_SEND_TO_MEMBER = {
	operation: 'send',
	campaignKey: 'WELCOME',
	recipient: 'memberId',
	memberId: "={{ $fromAI('memberId', 'The member to notify', 'string') }}",
	variablesInput: 'json',
	propertiesJson: '={"name":"Kim"}',
};
