/**
 * End-to-end: the package's nodes as tools of n8n's MCP Server Trigger (Bearer Auth), under
 * `n8n start`, listed and called by the official MCP TypeScript client over streamable HTTP. A
 * call without the token is refused and sends nothing. The tools list shows each tool's automatic
 * description (the Delete tool's says it deletes permanently, the send's that it is billed), a
 * send tool without a Deduplication Key is refused, and so is a send to a member ID beside the
 * Members Delete tool. A second trigger serves a Members Create or Update tool beside the
 * recommended send by member: the client saves a member of its choosing, and the send to it is
 * refused. A third serves n8n's HTTP Request tool with the Campaign credential beside the same send
 * (README, "Credentials"): its requests carry no API key, to the service or to another host
 * on 127.0.0.1, and the send is refused. Workflows: test/e2e/support/agent.ts and guardrails.ts;
 * the client: support/mcp.ts.
 */
import * as rt from '../../scripts/runtime';
import { startScripted, type ScriptedServer } from '../support/scripted-server';
import * as e2e from './support';

e2e.setupN8n('mcp');

const WORKFLOW_ID = 'e2eMcpServer';
/** The second trigger: Save Member (Create or Update) beside the recommended send by member. */
const RELAY_ID = 'e2eMcpRelay';
const RELAY_PATH = 'campaign-relay';
/** The third: n8n's HTTP Request tool with the Campaign credential beside the same send. */
const HTTP_ID = 'e2eMcpHttp';
const HTTP_PATH = 'campaign-http';
// A fresh bearer token for each run: the trigger's credential and the client share it.
const BEARER = `e2e-${crypto.randomUUID()}`;
/**
 * A Members Delete tool (listed, never called), a send tool without a Deduplication Key, and a
 * send to a member ID (refused beside the Delete tool).
 */
const DELETE_TOOL: e2e.ToolNode = {
	name: 'Delete Member',
	type: 'campaignMembers',
	parameters: {
		apiVersion: 'v2',
		operation: 'delete',
		phoneNumber: "={{ $fromAI('phoneNumber', 'The member phone number', 'string') }}",
	},
};
const KEYLESS_TOOL: e2e.ToolNode = {
	name: 'Send Keyless',
	type: 'campaignAlimtalk',
	parameters: e2e.FIXED_SEND,
};
const MCP_TOOLS = [
	...e2e.TOOLS.filter((t) => ['Send Alimtalk', 'Find Member'].includes(t.name)),
	DELETE_TOOL,
	KEYLESS_TOOL,
	e2e.noticeTool('Send Member'),
];

let n8n: rt.StartedN8n;

const connect = (token: string | undefined) => e2e.connectMcp(n8n.url, token);

beforeAll(
	async () => {
		await e2e.importCredentials([
			{ ...e2e.MCP_CREDENTIAL, type: 'httpBearerAuth', data: { token: BEARER } },
		]);
		const relay = [e2e.SAVE_MEMBER_TOOL, e2e.guardedTool('Send Member')];
		const http = [e2e.HTTP_CAMPAIGN_TOOL, e2e.guardedTool('Send Member')];
		await e2e.importWorkflows([
			e2e.mcpWorkflow(WORKFLOW_ID, MCP_TOOLS),
			e2e.mcpWorkflow(RELAY_ID, relay, RELAY_PATH, 1),
			e2e.mcpWorkflow(HTTP_ID, http, HTTP_PATH, 2),
		]);
		n8n = await e2e.startN8n();
		const { cookie } = await rt.setupOwner(n8n.url, n8n.ownerPassword);
		const paths = [e2e.MCP_PATH, RELAY_PATH, HTTP_PATH];
		const ids = [WORKFLOW_ID, RELAY_ID, HTTP_ID];
		expect(await e2e.publishWithMcp(n8n.url, cookie, ids, paths)).toEqual([200, 200, 200]);
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await n8n?.stop();
});

describe('MCP Server Trigger with Campaign Alimtalk and Campaign Members as tools', () => {
	let client: e2e.Client;

	beforeAll(async () => {
		e2e.resetSandbox();
		client = await connect(BEARER);
	});

	afterAll(async () => {
		await client?.close();
	});

	/** Calls a tool; the call must not be marked as an error; returns the answer's items. */
	async function call(name: string, args: e2e.Json): Promise<e2e.Json[]> {
		const { answer, isError } = await e2e.callMcp(client, name, args);
		expect(isError).toBe(false);
		return answer;
	}

	/** The send tool's arguments for one customer and order. */
	const send = (phoneNumber: string, name: string, coupon: string, orderId: string) =>
		call('Send_Alimtalk', { phoneNumber, templateVariables: { name, coupon }, orderId });

	test('the tools are listed with a schema naming their $fromAI() inputs', async () => {
		const { tools } = await client.listTools();
		const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
		expect(Object.keys(byName).sort()).toEqual([
			'Delete_Member',
			'Find_Member',
			'Send_Alimtalk',
			'Send_Keyless',
			'Send_Member',
		]);
		expect(Object.keys(byName.Send_Alimtalk.inputSchema.properties ?? {}).sort()).toEqual([
			'orderId',
			'phoneNumber',
			'templateVariables',
		]);
		expect(byName.Send_Alimtalk.inputSchema.properties?.phoneNumber).toMatchObject({
			type: 'string',
			description: expect.stringContaining('12 digits'),
		});
		expect(Object.keys(byName.Find_Member.inputSchema.properties ?? {})).toEqual(['memberId']);
	});

	test('each tool is described by its own operation: a permanent delete, a billed send, a read', async () => {
		const { tools } = await client.listTools();
		const description = (name: string) => tools.find((t) => t.name === name)?.description;
		expect(description('Delete_Member')).toBe(
			'Delete members permanently with no undo in Campaign Members',
		);
		expect(description('Send_Alimtalk')).toBe(
			'Send a real message billed to the account in Campaign Alimtalk',
		);
		expect(description('Find_Member')).toBe('Only read the records of members in Campaign Members');
	});

	test.each([
		[
			'a send tool without a Deduplication Key',
			'deduplicationKeyRequired',
			'Send_Keyless',
			{ phoneNumber: '821077770005' },
			'Deduplication Key',
		],
		[
			'a send to a member ID beside the Members Delete tool',
			'memberWriteToolBeside',
			'Send_Member',
			{ memberId: 'member-01' },
			'separate workflow',
		],
	])(
		'%s is refused (%s), and nothing reaches the service',
		async (_label, code, tool, args, details) => {
			const before = e2e.sb.requests.length;
			expect(await call(tool, args)).toEqual([
				expect.objectContaining({
					outcome: 'error',
					code,
					details: expect.stringContaining(details),
				}),
			]);
			expect(e2e.sb.requests.length).toBe(before);
			expect(e2e.sb.state.sent).toEqual([]);
		},
	);

	test('a valid send reaches the service once and the client is told it was sent', async () => {
		expect(await send('821077770001', 'Mcp Kim', 'M1', 'M-1')).toEqual([
			expect.objectContaining({ outcome: 'sent', phoneNumber: '821077770001' }),
		]);
		expect(e2e.sb.state.sent.map((m) => [m.phoneNumber, m.properties])).toEqual([
			['821077770001', { name: 'Mcp Kim', coupon: 'M1' }],
		]);
	});

	test('a refused send comes back with the code and what to change; nothing is sent', async () => {
		const before = e2e.sb.requests.length;
		expect(await send('010-7777-0002', 'Mcp Lee', 'M2', 'M-2')).toEqual([
			expect.objectContaining({
				outcome: 'refused',
				code: '7012',
				message: expect.stringContaining('exactly 12 characters'),
				whatToDo: expect.stringContaining('821012345678'),
			}),
		]);
		expect(e2e.sb.requests.length).toBe(before);
	});

	test('the same Deduplication Key again is reported as a duplicate, not sent twice', async () => {
		expect(await send('821077770001', 'Mcp Kim', 'M1', 'M-1')).toEqual([
			expect.objectContaining({ outcome: 'duplicate', deduplicationKey: 'order-M-1' }),
		]);
		expect(e2e.sb.state.sent).toHaveLength(1);
	});

	test('a member lookup returns the record; an unknown member says nothing was found', async () => {
		const found = await call('Find_Member', { memberId: 'member-01' });
		expect(found).toEqual([
			expect.objectContaining({
				memberId: 'member-01',
				phoneNumber: '010-1234-5678',
				isReceive: true,
			}),
		]);
		const missing = await call('Find_Member', { memberId: 'nobody' });
		expect(missing).toEqual([expect.objectContaining({ outcome: 'noResults' })]);
	});
});

describe('a Members Create or Update tool beside the send to a member ID (the second trigger)', () => {
	let client: e2e.Client;

	beforeAll(async () => {
		e2e.resetSandbox();
		client = await e2e.connectMcp(n8n.url, BEARER, { path: RELAY_PATH });
	});

	afterAll(async () => {
		await client?.close();
	});

	test('the client saves relay-1 with a number and consent of its choosing, then sends to it: refused (memberWriteToolBeside), nothing sent', async () => {
		const { tools } = await client.listTools();
		const inputs = (name: string) =>
			Object.keys(tools.find((t) => t.name === name)?.inputSchema.properties ?? {}).sort();
		expect(inputs('Save_Member')).toEqual(['isReceive', 'memberId', 'phoneNumber']);
		expect(inputs('Send_Member')).toEqual(['memberId']);
		const relay = { memberId: 'relay-1', phoneNumber: '010-5555-0101', isReceive: true };
		const saved = await e2e.callMcp(client, 'Save_Member', relay);
		expect(saved.answer).toEqual([
			expect.objectContaining({ outcome: 'done', memberId: 'relay-1' }),
		]);
		expect(e2e.sb.state.membersV2.get('01055550101')).toMatchObject({
			memberId: 'relay-1',
			isReceive: 'true',
		});
		const sent = [...e2e.sb.state.sent];
		const requests = e2e.sb.requests.length;
		const send = await e2e.callMcp(client, 'Send_Member', { memberId: 'relay-1' });
		expect([saved.isError, send.isError]).toEqual([false, false]);
		expect(send.answer).toEqual([
			expect.objectContaining({
				outcome: 'error',
				code: 'memberWriteToolBeside',
				message: expect.stringContaining('"Save Member"'),
			}),
		]);
		// Refused before the member was read: no request at all, and the sent list unchanged.
		expect(e2e.sb.requests.length).toBe(requests);
		expect(e2e.sb.state.sent).toEqual(sent);
	});
});

describe("n8n's HTTP Request tool with the Campaign credential beside the send to a member ID (the third trigger)", () => {
	let client: e2e.Client;
	let elsewhere: ScriptedServer | undefined;

	beforeAll(async () => {
		e2e.resetSandbox();
		client = await e2e.connectMcp(n8n.url, BEARER, { path: HTTP_PATH });
	});

	afterAll(async () => {
		await client?.close();
		await elsewhere?.close();
	});

	const member = { memberId: 'http-1', phoneNumber: '010-5555-0202', isReceive: true };

	test('the client writes a member with its own number through the HTTP Request tool: the request reaches the service without the key, and nothing is saved', async () => {
		const before = e2e.sb.requests.length;
		const saved = await e2e.callMcp(client, 'Call_Service', {
			url: `${e2e.sb.baseUrl}/v2/users/sms`,
			body: JSON.stringify([member]),
		});
		expect(saved.isError).toBe(false);
		expect(
			e2e.sb.requests.slice(before).map((r) => [r.method, r.path, r.headers['x-api-key']]),
		).toEqual([['POST', '/v2/users/sms', undefined]]);
		expect(saved.text).toContain('-1000');
		expect(e2e.sb.state.membersV2.has('01055550202')).toBe(false);
	});

	test('with that member on record all the same, the send to it is refused (memberWriteToolBeside): no message reaches the number', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((t) => t.name).sort()).toEqual(['Call_Service', 'Send_Member']);
		e2e.seedMembers(e2e.sb, [{ memberId: 'http-1', stored: member.phoneNumber, sendForm: '' }]);
		const requests = e2e.sb.requests.length;
		const send = await e2e.callMcp(client, 'Send_Member', { memberId: 'http-1' });
		expect(send.isError).toBe(false);
		expect(send.answer).toEqual([
			expect.objectContaining({
				outcome: 'error',
				code: 'memberWriteToolBeside',
				message: expect.stringContaining('"Call Service"'),
				details: expect.stringContaining('HTTP Request'),
			}),
		]);
		expect(e2e.sb.requests.length).toBe(requests);
		expect(e2e.sb.state.sent.map((m) => m.phoneNumber)).not.toContain('821055550202');
	});

	test('the HTTP Request tool pointed at another 127.0.0.1 port: the request arrives there without the key', async () => {
		elsewhere = await startScripted(() => ({ body: { ok: true } }));
		const call = await e2e.callMcp(client, 'Call_Service', {
			url: `${elsewhere.baseUrl}/collect`,
			body: '{"note":"hello"}',
		});
		expect(call.isError).toBe(false);
		expect(elsewhere.seen.map((r) => [r.method, r.url])).toEqual([['POST', '/collect']]);
		expect(elsewhere.seen[0].headers).not.toHaveProperty('x-api-key');
		expect(JSON.stringify(elsewhere.seen[0])).not.toContain(e2e.sb.apiKey);
	});
});

describe('the MCP Server Trigger refuses a client without the right token', () => {
	test.each([
		['no token', undefined],
		['a wrong token', 'not-the-token'],
	])('%s: refused, and nothing is sent', async (_label, token) => {
		const before = { requests: e2e.sb.requests.length, sent: e2e.sb.state.sent.length };
		let refused: unknown;
		try {
			const client = await connect(token);
			await client.callTool({
				name: 'Send_Alimtalk',
				arguments: { phoneNumber: '821077770009', templateVariables: {}, orderId: 'X-9' },
			});
			await client.close();
		} catch (error) {
			refused = error;
		}
		expect(String(refused)).toContain('Authorization data is wrong');
		// The same refusal as plain HTTP: the initialize request itself is turned away.
		const raw = await rt.httpRequest('POST', `${n8n.url}/mcp/${e2e.MCP_PATH}`, {
			headers: {
				accept: 'application/json, text/event-stream',
				...(token ? { authorization: `Bearer ${token}` } : {}),
			},
			body: {
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: {
					protocolVersion: '2025-03-26',
					capabilities: {},
					clientInfo: { name: 'raw', version: '1' },
				},
			},
		});
		expect([401, 403]).toContain(raw.status);
		expect({ requests: e2e.sb.requests.length, sent: e2e.sb.state.sent.length }).toEqual(before);
	});
});
