/**
 * No tool that undoes a guard (docs/agent-tools.md): a send to a Member ID running as a tool is
 * refused, before anything is read or sent, when a Campaign Members tool that writes (Create or
 * Update, Delete) is a tool of the same AI Agent or MCP Server Trigger: the model could save a
 * member with a number of its choosing and then send to it (helpers/beside.ts). Through the real
 * engine, as an AI-agent tool (test/support/tools.ts), against the sandbox.
 */
import type { IConnections, IDataObject, INode, INodeType } from 'n8n-workflow';
import { NODE_NAME, PACKAGE_NAME, nodeOf, runWorkflow, sourceOf } from '../support';
import { installStore } from '../support/dedup-store';
import { CALLER, CALLER_TYPE, runAsTool, toolNodeOf } from '../support/tools';
import { useSendFixture } from './support';

const { sb } = useSendFixture();
const credential = () => ({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
const sentTo = () => sb.state.sent.map((s) => s.phoneNumber);
const FAST = { maxRetries: 0, retryDelayMs: 0 };
const fromAI = (name: string) => `={{ $fromAI('${name}', 'The ${name}', 'string') }}`;

/** The send tool with every recommended guard rail, to the member the model names. */
const BY_MEMBER: IDataObject = {
	operation: 'send',
	campaignKey: 'WELCOME',
	recipient: 'memberId',
	memberId: fromAI('memberId'),
	variablesInput: 'json',
	propertiesJson: '={"name":"Kim"}',
	options: {
		...FAST,
		acceptingMembersOnly: true,
		deduplicationKey: "=notice-{{ $now.toFormat('yyyy-MM-dd') }}",
		deduplicationPerRecipient: true,
		sendLimit: 20,
		sendLimitPeriod: 'day',
	},
};

const UPSERT = {
	apiVersion: 'v2',
	operation: 'upsert',
	mappingMode: 'defineBelow',
	memberId: fromAI('memberId'),
	phoneNumber: fromAI('phoneNumber'),
	isReceive: true,
};
const DELETE = { apiVersion: 'v2', operation: 'delete', phoneNumber: fromAI('phoneNumber') };
const GET = { apiVersion: 'v2', operation: 'get', memberId: fromAI('memberId') };

const toolOf = (node: string) => ({ ai_tool: [[{ node, type: 'ai_tool' as const, index: 0 }]] });

/** A Campaign Members tool named `name`, a tool of `agent` (the send's own agent unless named). */
function members(name: string, parameters: IDataObject, more: Partial<INode> = {}, agent = CALLER) {
	return {
		nodes: [toolNodeOf(name, 'campaignMembers', parameters, more)],
		connections: { [name]: toolOf(agent) } as IConnections,
	};
}

async function callSend(
	more: { nodes: INode[]; connections: IConnections; types?: Record<string, INodeType> },
	parameters: IDataObject = BY_MEMBER,
	call: IDataObject = { memberId: 'm-1' },
) {
	sb.state.membersV2.set('01012345678', {
		memberId: 'm-1',
		phoneNumber: '010-1234-5678',
		isReceive: 'true',
	});
	return await runAsTool({
		type: 'campaignAlimtalk',
		parameters,
		credentials: credential(),
		calls: [call],
		more,
	});
}

const CAMPAIGN = { campaignApi: { id: '1', name: 'Campaign API' } };
const HTTP_TOOL_TYPE = 'n8n-nodes-base.httpRequestTool';
/** A stand-in for n8n's HTTP Request tool (nodes-base is not loaded here): the guard reads only the saved node. */
const httpToolType: INodeType = {
	description: {
		displayName: 'HTTP Request Tool',
		name: 'httpRequestTool',
		group: ['output'],
		version: [4.2],
		description: "A stand-in for n8n's HTTP Request tool",
		defaults: { name: 'HTTP Request' },
		inputs: [],
		outputs: ['ai_tool'],
		credentials: [{ name: 'campaignApi', required: false }],
		// The parameters the guard may read (n8n-core keeps only a type's declared parameters).
		properties: ['method', 'url', 'authentication', 'nodeCredentialType'].map((name) => ({
			displayName: name,
			name,
			type: 'string',
			default: '',
		})),
	} as unknown as INodeType['description'],
	async execute() {
		return [[]];
	},
};

/** n8n's HTTP Request tool (as the editor saves 4.2) with a predefined credential type, a tool of the send's agent. */
function httpTool(
	name: string,
	nodeCredentialType: string,
	credentials: object,
	more: Partial<INode> = {},
) {
	const tool = nodeOf(name, name, HTTP_TOOL_TYPE, {
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: fromAI('url'),
			authentication: 'predefinedCredentialType',
			nodeCredentialType,
		},
		credentials: credentials as INode['credentials'],
		...more,
	});
	return {
		nodes: [tool],
		connections: { [name]: toolOf(CALLER) } as IConnections,
		types: { [HTTP_TOOL_TYPE]: httpToolType },
	};
}

const REFUSED = {
	outcome: 'error',
	code: 'memberWriteToolBeside',
	message: expect.stringContaining('could save a member'),
	details: expect.stringContaining('separate workflow'),
	// What the model is told: never a way around, ask the owner.
	whatToDo: expect.stringContaining("ask the workflow's owner"),
};

/** A review node: n8n names its human-review tool nodes `<name>HitlTool`. */
const review: INodeType = {
	description: {
		displayName: 'Review',
		name: 'reviewHitlTool',
		group: ['transform'],
		version: 1,
		description: 'A stand-in for a human-review tool node: only its type name is read',
		defaults: { name: 'Review' },
		inputs: [{ type: 'ai_tool', displayName: 'Tool' }],
		outputs: ['ai_tool'],
		properties: [],
	} as unknown as INodeType['description'],
};

describe('a send to a Member ID as a tool, beside a Campaign Members write tool', () => {
	beforeEach(async () => (await installStore()).reset());

	it.each([
		['Create or Update tool', UPSERT],
		['Delete tool', DELETE],
		['tool saved without an operation (Create or Update, the default)', { apiVersion: 'v2' }],
	])(
		'a Members %s of the same agent: refused (memberWriteToolBeside), nothing read or sent',
		async (_, parameters) => {
			const { answers } = await callSend(members('Members', parameters));
			expect(answers).toEqual([[REFUSED]]);
			expect(sb.requests).toEqual([]);
			expect(sentTo()).toEqual([]);
		},
	);

	it('the refusal names the tool and says what to do, never that a Members tool may stay', async () => {
		const { answers } = await callSend(members('Save customer', UPSERT));
		const [[answer]] = answers as IDataObject[][];
		expect(answer.message).toContain('"Save customer"');
		expect(answer.details).toMatch(/human review/);
		expect(answer.details).toMatch(/HTTP Request/);
		expect(`${answer.details} ${answer.whatToDo}`).not.toMatch(/fine|may stay/);
	});

	it.each([
		['a name like the send tool', 'Tool '],
		['a name of invisible characters and look-alikes', 'Саmpaign Аlimtalk\u200b'],
		['a name that says it only reads', 'Campaign Members Get (read only)'],
	])('a Members Create or Update tool with %s: refused', async (_, name) => {
		const { answers } = await callSend(members(name, UPSERT));
		expect(answers).toEqual([[REFUSED]]);
		expect(sentTo()).toEqual([]);
	});

	it('a Members write tool of typeVersion 2 (resource mapper): refused', async () => {
		const v2 = { apiVersion: 'v2', operation: 'upsert' };
		const { answers } = await callSend(members('Members', v2, { typeVersion: 2 }));
		expect(answers).toEqual([[REFUSED]]);
	});

	it("a Members Get tool of the same agent (it answers the member's number): refused", async () => {
		const { answers } = await callSend(members('Members', GET));
		expect(answers).toEqual([[REFUSED]]);
		expect(sb.requests).toEqual([]);
		expect(sentTo()).toEqual([]);
	});

	it.each([
		['named like a read', 'Campaign Members Get (read only)', 'campaignApi', CAMPAIGN],
		['selecting the credential by its parameters only', 'HTTP Request', 'campaignApi', {}],
		['with an expression as its credential type', 'HTTP', '={{ "campaignApi" }}', CAMPAIGN],
	])(
		'an HTTP Request tool holding the Campaign credential, %s: refused, nothing read or sent',
		async (_, name, nodeCredentialType, credentials) => {
			const { answers } = await callSend(httpTool(name, nodeCredentialType, credentials));
			expect(answers).toEqual([
				[expect.objectContaining({ ...REFUSED, message: expect.stringContaining(`"${name}"`) })],
			]);
			expect(sb.requests).toEqual([]);
			expect(sentTo()).toEqual([]);
		},
	);

	it('an HTTP Request tool with another credential, or disabled: sent', async () => {
		const other = httpTool('Other', 'httpHeaderAuth', { httpHeaderAuth: { id: '2', name: 'H' } });
		const off = httpTool('Off', 'campaignApi', CAMPAIGN, { disabled: true });
		const { answers } = await callSend({
			nodes: [...other.nodes, ...off.nodes],
			connections: { ...other.connections, ...off.connections },
			types: other.types,
		});
		expect(answers).toEqual([[expect.objectContaining({ outcome: 'sent' })]]);
		expect(sentTo()).toEqual(['821012345678']);
	});

	it('a disabled Members write tool (no tool at all): sent', async () => {
		const { answers } = await callSend(members('Members', UPSERT, { disabled: true }));
		expect(answers).toEqual([[expect.objectContaining({ outcome: 'sent' })]]);
		expect(sentTo()).toEqual(['821012345678']);
	});

	it('a Members write tool of another agent of the same workflow: sent', async () => {
		const other = nodeOf('other-agent', 'Other Agent', CALLER_TYPE);
		const more = members('Members', UPSERT, {}, 'Other Agent');
		const { answers } = await callSend({ ...more, nodes: [...more.nodes, other] });
		expect(answers).toEqual([[expect.objectContaining({ outcome: 'sent' })]]);
		expect(sentTo()).toEqual(['821012345678']);
	});

	it('a Members write tool behind a human-review node of the same agent: sent', async () => {
		const reviewNode = nodeOf('review', 'Review', 'test.reviewHitlTool');
		const more = members('Members', UPSERT, {}, 'Review');
		const { answers } = await callSend({
			nodes: [...more.nodes, reviewNode],
			connections: { ...more.connections, Review: toolOf(CALLER) },
			types: { 'test.reviewHitlTool': review },
		});
		expect(answers).toEqual([[expect.objectContaining({ outcome: 'sent' })]]);
	});

	it('the send on a sub-agent whose own agent has a Members write tool: refused', async () => {
		const top = nodeOf('top-agent', 'Top Agent', CALLER_TYPE);
		const more = members('Members', UPSERT, {}, 'Top Agent');
		const { answers } = await callSend({
			nodes: [...more.nodes, top],
			connections: { ...more.connections, [CALLER]: toolOf('Top Agent') },
		});
		expect(answers).toEqual([[REFUSED]]);
		expect(sentTo()).toEqual([]);
	});

	it('Recipient Phone Number beside a Members write tool: sent (the model names the number anyway)', async () => {
		const byPhone: IDataObject = {
			...BY_MEMBER,
			recipient: 'phoneNumber',
			phoneNumber: fromAI('phoneNumber'),
		};
		delete byPhone.memberId;
		const { answers } = await callSend(members('Members', UPSERT), byPhone, {
			phoneNumber: '821012345678',
		});
		expect(answers).toEqual([[expect.objectContaining({ outcome: 'sent' })]]);
		expect(sentTo()).toEqual(['821012345678']);
	});

	it('outside tool mode a send to a member ID, in a workflow with a Members write: sent', async () => {
		sb.state.membersV2.set('01012345678', {
			memberId: 'm-1',
			phoneNumber: '010-1234-5678',
			isReceive: 'true',
		});
		const send = nodeOf('send', NODE_NAME, `${PACKAGE_NAME}.campaignAlimtalk`, {
			parameters: { ...BY_MEMBER, memberId: 'm-1' } as INode['parameters'],
			credentials: { campaignApi: { id: '1', name: 'Campaign API' } },
		});
		const write = nodeOf('members', 'Members', `${PACKAGE_NAME}.campaignMembers`, {
			parameters: UPSERT,
		});
		const { outputs, error } = await runWorkflow({
			nodes: [sourceOf([{}]), send, write],
			connections: { Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
			credentials: { campaignApi: credential() as never },
		});
		expect(error).toBeUndefined();
		expect(outputs(NODE_NAME)[0].map((item) => item.json.status)).toEqual(['sent']);
	});
});
