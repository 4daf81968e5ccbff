/**
 * End-to-end: human review of the send tool under `n8n start`. AI Agent 3.1 (the agent that runs
 * n8n's review nodes for tools; 2.x calls tools directly) with the scripted model calls Campaign
 * Alimtalk send through n8n's Send Email review node, which mails an approval request through a
 * local SMTP server (test/e2e/support/smtp.ts) and waits. The test follows the mail's Approve or
 * Decline link, as the reviewer would, and reads what reached the sandbox and what the model was
 * told. Workflow: test/e2e/support/review.ts.
 */
import * as rt from '../../scripts/runtime';
import { parseToolAnswers } from '../support/agent-example';
import { postEvent } from '../support/demo';
import { startModelServer, type ModelServer, type ToolStep } from '../support/model-server';
import { delay, fs, path } from '../support/node';
import * as e2e from './support';

e2e.setupN8n('review', { demo: false });

const WORKFLOW_ID = 'e2eHumanReview';
const WEBHOOK_PATH = 'e2e-review-send';
const SEND_TOOL = e2e.TOOLS.find((t) => t.name === 'Send Alimtalk') as e2e.ToolNode;

/** The model asks for one send; the review node wraps the tool's arguments in `toolParameters`. */
const PLAN: ToolStep[] = [
	{
		tool: /^Send_Alimtalk$/,
		args: {
			toolParameters: {
				phoneNumber: '821055550001',
				templateVariables: { name: 'Review Kim', coupon: 'R1' },
				orderId: 'R-1',
			},
			hitlParameters: {},
		},
	},
];

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36';

let n8n: rt.StartedN8n;
let cookie: string;
let smtp: e2e.SmtpServer;
let model: ModelServer;

beforeAll(
	async () => {
		smtp = await e2e.startSmtpServer();
		model = await startModelServer(PLAN);
		await e2e.importCredentials([
			{
				...e2e.OPENAI_CREDENTIAL,
				type: 'openAiApi',
				data: { apiKey: 'sk-scripted', url: model.baseUrl },
			},
			e2e.smtpCredential(smtp.host, smtp.port),
		]);
		await e2e.importWorkflows([e2e.reviewWorkflow(WORKFLOW_ID, WEBHOOK_PATH, SEND_TOOL)]);
		n8n = await e2e.startN8n();
		({ cookie } = await rt.setupOwner(n8n.url, n8n.ownerPassword));
		expect(await e2e.publishWorkflow(n8n.url, cookie, WORKFLOW_ID)).toBe(200);
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await n8n?.stop();
	await smtp?.close();
	await model?.close();
});

/** The workflow's executions once `count` exist and each has one of `statuses`. */
async function executionsIn(
	count: number,
	statuses: string[],
): Promise<Array<{ id: string; status: string }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }));
	let results: Array<{ id: string; status: string }> = [];
	for (let i = 0; i < 240; i++) {
		const res = await rt.httpRequest('GET', `${n8n.url}/rest/executions?filter=${filter}`, {
			headers: { cookie },
		});
		results = JSON.parse(res.body).data.results;
		if (results.length >= count && results.every((e) => statuses.includes(e.status))) {
			return results;
		}
		await delay(500);
	}
	for (const { id } of results) {
		const res = await rt.httpRequest('GET', `${n8n.url}/rest/executions/${id}`, {
			headers: { cookie },
		});
		fs.writeFileSync(path.join(e2e.ARTIFACTS, `execution-${id}.json`), res.body);
	}
	throw new Error(`executions not ${statuses.join(' or ')}: ${JSON.stringify(results)}`);
}

/**
 * Starts the agent, waits for the approval mail (the n-th), follows its `approved=<answer>` link
 * and waits for the execution to end. Returns the mail and what the model was told.
 */
async function review(n: number, approve: boolean) {
	e2e.resetSandbox();
	model.requests.length = 0;
	expect(await postEvent(`${n8n.url}/webhook/${WEBHOOK_PATH}`, { request: 'send' })).toBe(200);
	const mail = await smtp.mail(n);
	// Nothing is sent while the reviewer has not answered.
	expect(e2e.sb.state.sent).toEqual([]);
	const [link, ...more] = e2e.linksOf(mail, `approved=${approve}`);
	expect({ link, more }).toEqual({ link: expect.stringContaining('/webhook-waiting/'), more: [] });
	// The mail leaves a moment before the execution is saved as waiting; the link answers then.
	await executionsIn(n + 1, ['success', 'waiting']);
	// As a browser: n8n answers a request without a user agent as a link preview and records nothing.
	const answered = await rt.httpRequest('GET', link, { headers: { 'user-agent': BROWSER } });
	fs.writeFileSync(path.join(e2e.ARTIFACTS, `answer-${n}.txt`), `${link}\n${answered.body}`);
	expect({ status: answered.status, recorded: answered.body.includes('Got it, thanks') }).toEqual({
		status: 200,
		recorded: true,
	});
	const executions = await executionsIn(n + 1, ['success', 'error', 'crashed', 'canceled']);
	const label = approve ? 'approved' : 'declined';
	fs.writeFileSync(path.join(e2e.ARTIFACTS, `${label}.mail.txt`), mail.text);
	fs.writeFileSync(
		path.join(e2e.ARTIFACTS, `${label}.model-requests.json`),
		JSON.stringify(model.requests, null, 2),
	);
	return { mail, executions, results: model.toolResults() };
}

describe('AI Agent 3.1: the send tool behind a Send Email review node (local SMTP)', () => {
	test('approved: the approval mail names the call, exactly one message goes out, the model is told it was sent', async () => {
		const { mail, executions, results } = await review(0, true);
		expect(mail.to).toEqual(['<reviewer@example.test>']);
		expect(mail.text).toContain('Approve this Alimtalk send?');
		expect(mail.text).toContain('821055550001');
		expect(executions.map((e) => e.status)).toEqual(['success']);
		expect(e2e.sb.state.sent.map((m) => [m.phoneNumber, m.properties])).toEqual([
			['821055550001', { name: 'Review Kim', coupon: 'R1' }],
		]);
		expect(results.map((r) => r.tool)).toEqual(['Send_Alimtalk']);
		expect(parseToolAnswers(results.map((r) => r.content))).toEqual([
			[expect.objectContaining({ outcome: 'sent', phoneNumber: '821055550001' })],
		]);
	});

	test('declined: nothing reaches the service and the model is told the call was rejected', async () => {
		const { executions, results } = await review(1, false);
		expect(executions.map((e) => e.status)).toEqual(['success', 'success']);
		expect(e2e.sb.state.sent).toEqual([]);
		expect(e2e.sb.requests.filter((r) => r.path.includes('trigger'))).toEqual([]);
		expect(results).toEqual([
			expect.objectContaining({
				tool: 'Send_Alimtalk',
				content: expect.stringContaining('rejected the tool call'),
			}),
		]);
	});
});
