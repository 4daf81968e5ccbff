/**
 * End-to-end, the send limit under n8n's AI Agent (docs/agent-tools.md, "Guard rails"): AI Agent
 * 3.1 and 2.2 with the scripted model calling a send by member id (key `notice-<memberId>-<day>`,
 * at most 2 per hour) five times in one turn, under `n8n start`: the limit holds (a workflow per
 * agent version: the limit is per node). The same send over MCP, and the other guard rails, are in
 * guardrails.e2e.ts. Each call's outcome is logged and kept in
 * test-artifacts/e2e/guardrails-agent/calls.json; what each call told the model, in
 * agent-<version>.tool-results.json. Tools: test/e2e/support/guardrails.ts.
 */
import * as rt from '../../scripts/runtime';
import { parseToolAnswers } from '../support/agent-example';
import { startModelServer, type ModelServer } from '../support/model-server';
import { delay, fs, path } from '../support/node';
import * as e2e from './support';

e2e.setupN8n('guardrails-agent', { demo: false });

const AGENTS = [3.1, 2.2] as const;
const agentId = (v: number) => `e2eGuardrailsAgent${String(v).replace('.', '')}`;
const agentPath = (v: number) => `e2e-guardrails-agent-${String(v).replace('.', '')}`;
const FIVE = [1, 2, 3, 4, 5].map((n) => e2e.member(`agent-member-${n}`, 10 + n));

let n8n: rt.StartedN8n;
let model: ModelServer;

beforeAll(
	async () => {
		model = await startModelServer([]);
		await e2e.importCredentials([
			{ ...e2e.OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-x', url: model.baseUrl } },
		]);
		const agents = AGENTS.map((v, i) =>
			e2e.withWebhook(
				e2e.agentWorkflow(agentId(v), v, [e2e.noticeTool('Send notice')]),
				agentPath(v),
				10 + i,
				'lastNode',
			),
		);
		await e2e.importWorkflows(agents);
		n8n = await e2e.startN8n();
		const { cookie } = await rt.setupOwner(n8n.url, n8n.ownerPassword);
		for (const v of AGENTS)
			expect(await e2e.publishWorkflow(n8n.url, cookie, agentId(v))).toBe(200);
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await n8n?.stop();
	await model?.close();
	e2e.writeCalls();
});

const sentTo = () => e2e.sb.state.sent.map((m) => m.phoneNumber);

/** POSTs to a published workflow's webhook (404 while it registers, at most 30 s); answers when the run ends. */
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
		answers.forEach((answer, i) => e2e.logCall(`agent ${version} call ${i + 1}`, answer));
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
