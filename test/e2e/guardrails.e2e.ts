/**
 * End-to-end, the guard rails for agents (README "Guard rails for agents", docs/ai-agents.md):
 * under one `n8n start`,
 * - an MCP Server Trigger with a send by member id (key `notice-<memberId>-<day>`, at most 2 per
 *   hour) and the same send without a key, listed and called by the official MCP client: what the
 *   tools list says, and the outcome of each call (no Members write tool beside them: a send by
 *   member would refuse to run, which mcp.e2e.ts checks);
 * - AI Agent 3.1 and 2.2 with the scripted model calling the send five times in one turn: the
 *   limit holds (a workflow per agent version: the limit is per node);
 * - a hostile model over MCP: a member ID spelled three ways, a member whose number cannot be
 *   sent, a member who refuses messages (a send by member, key of member and day, Only Members
 *   Who Accept Messages, 5 per hour), and a Legacy Data Get on planted data.
 * Each call's outcome is logged and kept in test-artifacts/e2e/guardrails/calls.json.
 * Tools: test/e2e/support/guardrails.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as rt from '../../scripts/runtime';
import { answerStrings as strings, parseToolAnswers } from '../support/agent-example';
import { startModelServer, type ModelServer } from '../support/model-server';
import { delay, fs, path } from '../support/node';
import * as e2e from './support';

e2e.setupN8n('guardrails', { demo: false });

const MCP_ID = 'e2eGuardrailsMcp';
const BEARER = `e2e-${crypto.randomUUID()}`;
const AGENTS = [3.1, 2.2] as const;
const agentId = (v: number) => `e2eGuardrailsAgent${String(v).replace('.', '')}`;
const agentPath = (v: number) => `e2e-guardrails-agent-${String(v).replace('.', '')}`;

const [A, B, C] = ['member-a', 'member-b', 'member-c'].map((id, i) => e2e.member(id, i + 1));
const FIVE = [1, 2, 3, 4, 5].map((n) => e2e.member(`agent-member-${n}`, 10 + n));

let n8n: rt.StartedN8n;
let model: ModelServer;
const calls: e2e.Json[] = [];

beforeAll(
	async () => {
		model = await startModelServer([]);
		await e2e.importCredentials([
			{ ...e2e.MCP_CREDENTIAL, type: 'httpBearerAuth', data: { token: BEARER } },
			{ ...e2e.OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-x', url: model.baseUrl } },
		]);
		const mcpTools = [
			e2e.noticeTool('Send notice'),
			e2e.noticeTool('Send keyless', { key: false, limit: 0 }),
			e2e.noticeTool('Send checked', { limit: 5, accepting: true }),
			e2e.LEGACY_GET_TOOL,
		];
		const agents = AGENTS.map((v, i) =>
			e2e.withWebhook(
				e2e.agentWorkflow(agentId(v), v, [e2e.noticeTool('Send notice')]),
				agentPath(v),
				10 + i,
				'lastNode',
			),
		);
		await e2e.importWorkflows([e2e.mcpWorkflow(MCP_ID, mcpTools), ...agents]);
		n8n = await e2e.startN8n();
		const { cookie } = await rt.setupOwner(n8n.url, n8n.ownerPassword);
		const ids = [MCP_ID, ...AGENTS.map(agentId)];
		expect(await e2e.publishWithMcp(n8n.url, cookie, ids)).toEqual(ids.map(() => 200));
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await n8n?.stop();
	await model?.close();
	fs.writeFileSync(path.join(e2e.ARTIFACTS, 'calls.json'), `${JSON.stringify(calls, null, 2)}\n`);
});

/** Keeps and logs one call's outcome (the closing note quotes them). */
function logCall(label: string, answer: e2e.Json[]): void {
	const outcomes = answer.map((a) => ({ outcome: a.outcome, code: a.code, message: a.message }));
	calls.push({ label, outcomes });
	rt.log(`guardrails: ${label}: ${JSON.stringify(outcomes)}`);
}

const sentTo = () => e2e.sb.state.sent.map((m) => m.phoneNumber);

describe('MCP Server Trigger: send by member, key of member and day, 2 per hour; keyless send', () => {
	let client: Client;

	beforeAll(async () => {
		e2e.resetSandbox();
		e2e.seedMembers(e2e.sb, [A, B, C]);
		client = new Client({ name: 'campaign-e2e-guardrails', version: '1.0.0' });
		const url = new URL(`${n8n.url}/mcp/${e2e.MCP_PATH}`);
		const headers = { authorization: `Bearer ${BEARER}` };
		await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
	});

	afterAll(async () => {
		await client?.close();
	});

	async function call(label: string, name: string, memberId: string): Promise<e2e.Json[]> {
		const result = (await client.callTool({ name, arguments: { memberId } })) as e2e.Json;
		const text = (result.content as e2e.Json[]).find((p) => p.type === 'text')?.text as string;
		const [answer] = parseToolAnswers([text]);
		logCall(`MCP ${label}`, answer);
		expect(result.isError).toBeFalsy();
		return answer;
	}

	test('the tools list: the send asks for a member ID only; a send says billed', async () => {
		const { tools } = await client.listTools();
		const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
		expect(Object.keys(byName).sort()).toEqual([
			'Member_data',
			'Send_checked',
			'Send_keyless',
			'Send_notice',
		]);
		expect(Object.keys(byName.Send_notice.inputSchema.properties ?? {})).toEqual(['memberId']);
		expect(byName.Send_notice.description).toMatch(/billed/i);
		expect(byName.Send_keyless.description).toMatch(/billed/i);
	});

	test("member A: sent, to A's number in the send form (the model is told the member, not the number)", async () => {
		const answer = await call('send A', 'Send_notice', A.memberId);
		expect(answer).toEqual([expect.objectContaining({ outcome: 'sent', memberId: A.memberId })]);
		// The model named a member: it is never told the member's number.
		expect(answer[0]).not.toHaveProperty('phoneNumber');
		expect(sentTo()).toEqual([A.sendForm]);
	});

	test('member A again: a duplicate of the key of member and day, not sent', async () => {
		expect(await call('send A again', 'Send_notice', A.memberId)).toEqual([
			expect.objectContaining({
				outcome: 'duplicate',
				// The day is n8n's ($now in the instance's time zone).
				deduplicationKey: expect.stringMatching(
					new RegExp(`^notice-${A.memberId}-\\d{4}-\\d{2}-\\d{2}$`),
				),
			}),
		]);
		expect(sentTo()).toEqual([A.sendForm]);
	});

	test('an unknown member: refused (memberNotAvailable, as every refused lookup), not sent', async () => {
		expect(await call('send unknown member', 'Send_notice', 'member-nobody')).toEqual([
			expect.objectContaining({ outcome: 'refused', code: 'memberNotAvailable' }),
		]);
		expect(sentTo()).toEqual([A.sendForm]);
	});

	test("member B: sent, to B's number (the second of the hour)", async () => {
		const answer = await call('send B', 'Send_notice', B.memberId);
		expect(answer).toEqual([expect.objectContaining({ outcome: 'sent', memberId: B.memberId })]);
		// The model named a member: it is never told the member's number.
		expect(answer[0]).not.toHaveProperty('phoneNumber');
	});

	test('member C: refused (sendLimitReached), the message names the limit and the period', async () => {
		expect(await call('send C', 'Send_notice', C.memberId)).toEqual([
			expect.objectContaining({
				outcome: 'refused',
				code: 'sendLimitReached',
				message: expect.stringMatching(/\b2\b[\s\S]*hour/),
			}),
		]);
	});

	test('the keyless send: refused before anything is sent (deduplicationKeyRequired)', async () => {
		const before = e2e.sb.requests.length;
		expect(await call('keyless send', 'Send_keyless', C.memberId)).toEqual([
			expect.objectContaining({ outcome: 'error', code: 'deduplicationKeyRequired' }),
		]);
		expect(e2e.sb.requests.length).toBe(before);
	});

	test("exactly 2 messages reached the service, to A's and B's numbers", () => {
		expect(sentTo()).toEqual([A.sendForm, B.sendForm]);
	});
});

describe('MCP Server Trigger: a hostile model (member by member, consent, 5 per hour; Legacy Data Get)', () => {
	let client: Client;
	const KIM = e2e.member('m-kim', 21);
	const NO = e2e.member('m-no', 22);

	beforeAll(async () => {
		e2e.resetSandbox();
		e2e.seedMembers(e2e.sb, [KIM, NO]);
		e2e.sb.state.membersV2.get(NO.stored.replace(/-/g, ''))!.isReceive = 'false';
		// A stored number with no 12-character send form (a 10-digit mobile number).
		e2e.sb.state.membersV2.set('0119876543', {
			memberId: 'm-old',
			phoneNumber: '011-987-6543',
			isReceive: 'true',
		});
		client = new Client({ name: 'campaign-e2e-hostile', version: '1.0.0' });
		const url = new URL(`${n8n.url}/mcp/${e2e.MCP_PATH}`);
		const headers = { authorization: `Bearer ${BEARER}` };
		await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
	});

	afterAll(async () => {
		await client?.close();
	});

	async function call(label: string, name: string, memberId: string) {
		const result = (await client.callTool({ name, arguments: { memberId } })) as e2e.Json;
		const text = (result.content as e2e.Json[]).find((p) => p.type === 'text')?.text as string;
		const [answer] = parseToolAnswers([text]);
		logCall(`MCP hostile ${label}`, answer);
		expect(result.isError).toBeFalsy();
		return { answer, text };
	}

	test('"m-kim", " m-kim" and "m-kim" + U+3000: exactly 1 message; the look-alikes are refused (-1006)', async () => {
		const first = await call('m-kim', 'Send_checked', 'm-kim');
		expect(first.answer).toEqual([expect.objectContaining({ outcome: 'sent', memberId: 'm-kim' })]);
		for (const id of [' m-kim', 'm-kim\u3000']) {
			const { answer } = await call(JSON.stringify(id), 'Send_checked', id);
			expect(answer).toEqual([expect.objectContaining({ outcome: 'refused', code: '-1006' })]);
		}
		expect((await call('m-kim again', 'Send_checked', 'm-kim')).answer).toEqual([
			expect.objectContaining({ outcome: 'duplicate' }),
		]);
		expect(sentTo()).toEqual([KIM.sendForm]);
	});

	test('a member whose stored number cannot be sent: refused (memberNotAvailable), no digits of the number reach the client', async () => {
		const { answer, text } = await call('m-old', 'Send_checked', 'm-old');
		expect(answer).toEqual([
			expect.objectContaining({ outcome: 'refused', code: 'memberNotAvailable' }),
		]);
		expect(text).not.toMatch(/0119876543|119876543|987.?6543/);
		expect(sentTo()).toEqual([KIM.sendForm]);
	});

	test("a member who refuses messages: refused, and the model is told to ask the workflow's owner, never how to get around it", async () => {
		const { answer, text } = await call('m-no', 'Send_checked', NO.memberId);
		expect(answer).toEqual([
			expect.objectContaining({
				outcome: 'refused',
				code: 'memberNotAvailable',
				whatToDo: expect.stringContaining("workflow's owner"),
			}),
		]);
		expect(text).not.toMatch(/turn off|Options|instead/i);
		expect(text).not.toContain(NO.stored.slice(4));
		expect(sentTo()).toEqual([KIM.sendForm]);
	});

	test('Legacy Data Get on planted data: one answer under 32,000 characters, no string over 600, the envelope its own', async () => {
		const data = new Map<string, string | number>([
			['outcome', 'sent'],
			['code', 'c'.repeat(6000)],
		]);
		for (let n = 0; n < 300; n++) data.set(`note-${n}`, `${n} ${'x'.repeat(495)}`);
		e2e.sb.state.legacy.set('m-kim', data);
		const { answer, text } = await call('legacy get', 'Member_data', 'm-kim');
		rt.log(`guardrails: legacy get answer ${text.length} characters`);
		expect(text.length).toBeLessThan(32000);
		expect(Math.max(...strings(answer).map((s) => s.length))).toBeLessThanOrEqual(600);
		expect(answer[0]).toEqual({ outcome: 'truncated', message: expect.any(String) });
		expect(answer.slice(1)).toEqual([expect.objectContaining({ memberId: 'm-kim' })]);
		expect(answer.slice(1).filter((item) => 'outcome' in item)).toEqual([]);
	});
});

/** POSTs to a published workflow's webhook (404 while it registers); answers when the run ends. */
async function runAgent(version: number): Promise<number> {
	const url = `${n8n.url}/webhook/${agentPath(version)}`;
	for (let i = 0; ; i++) {
		const res = await rt.httpRequest('POST', url, { body: {}, timeoutMs: 3 * 60 * 1000 });
		if (res.status !== 404 || i >= 60) return res.status;
		await delay(500);
	}
}

describe.each(AGENTS)('AI Agent %s: five sends in one turn, limit 2 per hour', (version) => {
	test('exactly 2 messages go out; the 3 others are refused with sendLimitReached', async () => {
		e2e.resetSandbox();
		e2e.seedMembers(e2e.sb, FIVE);
		model.plan = [FIVE.map((m) => ({ tool: /^Send_notice$/, args: { memberId: m.memberId } }))];
		model.requests.length = 0;
		expect(await runAgent(version)).toBe(200);
		const results = model.toolResults();
		fs.writeFileSync(
			path.join(e2e.ARTIFACTS, `agent-${version}.tool-results.json`),
			JSON.stringify(results, null, 2),
		);
		const answers = parseToolAnswers(results.map((r) => r.content));
		answers.forEach((answer, i) => logCall(`agent ${version} call ${i + 1}`, answer));
		expect(results.map((r) => r.tool)).toEqual(Array(5).fill('Send_notice'));
		// A sent answer carries the service's code ('0'); a refusal, its reason.
		const outcomes = answers.map(([a]) =>
			a?.outcome === 'sent' ? 'sent' : `${a?.outcome}:${a?.code}`,
		);
		expect(outcomes.sort()).toEqual([
			'refused:sendLimitReached',
			'refused:sendLimitReached',
			'refused:sendLimitReached',
			'sent',
			'sent',
		]);
		expect(sentTo()).toHaveLength(2);
		expect(FIVE.map((m) => m.sendForm)).toEqual(expect.arrayContaining(sentTo()));
	});
});
