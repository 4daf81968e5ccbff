/**
 * End-to-end: the package's nodes as tools of n8n's AI Agent (3.1, the editor's default, and
 * 2.2, the older path), run with `n8n execute`. A scripted model (test/support/model-server.ts)
 * calls each tool once per planned turn; the test reads what each call returned to the model and
 * what reached the sandbox. Workflows: test/e2e/support/agent.ts.
 */
import {
	AGENT_EXAMPLE_ANSWERS,
	AGENT_EXAMPLE_PLAN,
	agentExampleCredential,
	parseToolAnswers,
} from '../support/agent-example';
import { startModelServer, type ModelServer, type ToolStep } from '../support/model-server';
import { fs, path } from '../support/node';
import {
	ARTIFACTS,
	EXAMPLES,
	EXPIRED_CREDENTIAL,
	OPENAI_CREDENTIAL,
	TOOLS,
	agentWorkflow,
	execute,
	importCredentials,
	importWorkflows,
	resetSandbox,
	runExample,
	sb,
	setupN8n,
	type Json,
} from './support';

setupN8n('agent');

/** The planned tool calls, in order; each test below reads the answer to one of them. */
const PLAN: ToolStep[] = [
	{
		tool: /^Send_Alimtalk$/,
		args: {
			phoneNumber: '821012345678',
			templateVariables: { name: 'Kim', coupon: 'C1' },
			orderId: 'A-1',
		},
	},
	{
		tool: /^Send_Alimtalk$/,
		args: {
			phoneNumber: '0101234567',
			templateVariables: { name: 'Lee', coupon: 'C2' },
			orderId: 'A-2',
		},
	},
	{
		tool: /^Send_Alimtalk$/,
		args: {
			phoneNumber: '821012345678',
			templateVariables: { name: 'Kim', coupon: 'C1' },
			orderId: 'A-1',
		},
	},
	{ tool: /^Find_Member$/, args: { memberId: 'member-01' } },
	{ tool: /^Find_Member$/, args: { memberId: 'nobody-here' } },
	{ tool: /^Read_Custom_Data$/, args: { memberId: 'member-02' } },
	{ tool: /^Read_Custom_Data$/, args: { memberId: '' } },
	{ tool: /^Save_Custom_Data$/, args: { memberId: 'member-05', key: 'points', value: '4321' } },
	{ tool: /^Save_Custom_Data$/, args: { memberId: 'member-05', key: 'shoeSize', value: '270' } },
	{ tool: /^Read_Legacy_Data$/, args: { memberId: 'member-03' } },
	{ tool: /^Read_Legacy_Data$/, args: { memberId: ' ' } },
	{ tool: /^Send_Alimtalk_Expired$/, args: { phoneNumber: '821099998888' } },
];

let model: ModelServer;

beforeAll(
	async () => {
		model = await startModelServer(PLAN);
		await importCredentials([
			{
				...OPENAI_CREDENTIAL,
				type: 'openAiApi',
				data: { apiKey: 'sk-scripted', url: model.baseUrl },
			},
			{
				...EXPIRED_CREDENTIAL,
				type: 'campaignApi',
				data: { baseUrl: sb.baseUrl, apiKey: 'e2e-expired-key', memberApiVersion: 'any' },
			},
			agentExampleCredential(model.baseUrl),
		]);
		const workflows = ([3.1, 2.2] as const).map((v) => agentWorkflow(idOf(v), v, TOOLS));
		await importWorkflows(workflows, 'agent-workflows');
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await model?.close();
});

function idOf(version: number): string {
	return `e2eAgent${String(version).replace('.', '')}`;
}

async function runAgent(version: 3.1 | 2.2) {
	resetSandbox();
	model.plan = PLAN;
	model.requests.length = 0;
	const result = await execute(idOf(version), `agent-${version}`);
	fs.writeFileSync(
		path.join(ARTIFACTS, `agent-${version}.model-requests.json`),
		JSON.stringify(model.requests, null, 2),
	);
	const results = model.toolResults();
	fs.writeFileSync(
		path.join(ARTIFACTS, `agent-${version}.tool-results.json`),
		JSON.stringify(results, null, 2),
	);
	return { result, results };
}

describe.each([3.1, 2.2] as const)('AI Agent %s with the four nodes as tools', (version) => {
	let run: Awaited<ReturnType<typeof runAgent>>;
	let answers: Json[][];
	let sends: Json[];

	beforeAll(
		async () => {
			run = await runAgent(version);
			answers = run.results.map((r) => {
				const parsed = JSON.parse(r.content) as unknown;
				return (typeof parsed === 'string' ? JSON.parse(parsed) : parsed) as Json[];
			});
			sends = sb.requests.filter((r) => r.method === 'POST' && r.path.includes('trigger'));
		},
		10 * 60 * 1000,
	);

	test('the agent ran every planned tool call and finished', () => {
		expect({ code: run.result.code, calls: run.results.length }).toEqual({
			code: 0,
			calls: PLAN.length,
		});
		expect(run.results.map((r) => r.tool)).toEqual(
			PLAN.map((step) => step.tool.source.slice(1, -1)),
		);
	});

	test('Alimtalk: a valid send reaches the service once and the model is told it was sent', () => {
		expect(answers[0]).toEqual([
			expect.objectContaining({
				outcome: 'sent',
				message: 'The message was sent.',
				phoneNumber: '821012345678',
			}),
		]);
		expect(Object.keys(answers[0][0]).slice(0, 2)).toEqual(['outcome', 'message']);
		expect(answers[0][0]).not.toHaveProperty('response');
		expect(sb.state.sent.map((m) => [m.phoneNumber, m.properties])).toEqual([
			['821012345678', { name: 'Kim', coupon: 'C1' }],
		]);
	});

	test('Alimtalk: a refused send (7012) reaches the model with the code, the reason and what to change', () => {
		expect(answers[1]).toEqual([
			expect.objectContaining({
				outcome: 'refused',
				code: '7012',
				message: expect.stringContaining('exactly 12 characters (got 10'),
				whatToDo: expect.stringContaining('Convert Phone Numbers'),
				phoneNumber: '0101234567',
			}),
		]);
		expect(Object.keys(answers[1][0]).slice(0, 3)).toEqual(['outcome', 'code', 'message']);
	});

	test('Alimtalk: the model repeating a send with the same Deduplication Key is told it is a duplicate', () => {
		expect(answers[2]).toEqual([
			expect.objectContaining({
				outcome: 'duplicate',
				duplicate: true,
				deduplicationKey: 'order-A-1',
			}),
		]);
		// Two sends reached the service in all: the valid one and the expired account's (refused there).
		expect(sends.map((r) => (r.body as Json).users[0].phoneNumber)).toEqual([
			'821012345678',
			'821099998888',
		]);
	});

	test('Members get: a member and its consent; an unknown member is "nothing found", not an empty answer', () => {
		expect(answers[3]).toEqual([
			expect.objectContaining({
				memberId: 'member-01',
				phoneNumber: '010-1234-5678',
				isReceive: true,
			}),
		]);
		expect(answers[4]).toEqual([{ outcome: 'noResults', message: 'Nothing was found.' }]);
	});

	test("Custom Data get: a member's entries; an empty member ID is an error the model can act on", () => {
		expect(answers[5]).toHaveLength(5);
		expect(answers[5]).toEqual(
			expect.arrayContaining([{ memberId: 'member-02', key: 'points', value: 300 }]),
		);
		expect(answers[6]).toEqual([
			expect.objectContaining({
				outcome: 'error',
				message: 'Member ID is empty',
				details: expect.any(String),
			}),
		]);
	});

	test('Custom Data create: a saved value, and a refused key (F01) with the code and what to change', () => {
		expect(answers[7]).toEqual([
			expect.objectContaining({ outcome: 'done', memberId: 'member-05', values: { points: 4321 } }),
		]);
		expect(sb.state.custom.get('member-05')?.get('points')).toBe(4321);
		expect(answers[8]).toEqual([
			expect.objectContaining({
				outcome: 'refused',
				code: 'F01',
				key: 'shoeSize',
				whatToDo: expect.any(String),
			}),
		]);
		expect(sb.state.custom.get('member-05')?.has('shoeSize')).toBe(false);
	});

	test('Legacy Data get: entries, and an error for a blank member ID', () => {
		expect(answers[9]).toEqual(
			expect.arrayContaining([{ memberId: 'member-03', key: 'memo', value: 'legacy note 3' }]),
		);
		expect(answers[10]).toEqual([
			expect.objectContaining({ outcome: 'error', message: 'Member ID is empty' }),
		]);
	});

	test('an account failure (expired, 1405) comes back as an answer, the agent keeps going', () => {
		expect(answers[11]).toEqual([
			expect.objectContaining({
				outcome: 'error',
				code: '1405',
				message: expect.stringContaining('expired'),
			}),
		]);
		expect(JSON.stringify(run.results)).not.toContain('e2e-expired-key');
		expect(JSON.stringify(run.results)).not.toContain(sb.apiKey);
	});
});

describe('the example workflow (examples/agent-tools.json) with the scripted model', () => {
	test('sends the shipping notice by member ID once, and hears the repeat as a duplicate', async () => {
		resetSandbox();
		model.plan = AGENT_EXAMPLE_PLAN;
		model.requests.length = 0;
		const run = await runExample(EXAMPLES.agent.id);
		expect(run.nodes).toEqual(expect.arrayContaining(['AI Agent', 'Send shipping notice']));
		// No tool of the example tells the model a phone number (docs/ai-agents.md).
		expect(model.tools().map((t) => t.name)).toEqual(['Send_shipping_notice']);
		// The model is asked for a member ID only: no phone number, no template variables.
		const send = model.tools().find((t) => t.name === 'Send_shipping_notice');
		expect(Object.keys(send?.parameters.properties ?? {})).toEqual(['memberId']);
		const answers = parseToolAnswers(model.toolResults().map((r) => r.content));
		expect(answers).toEqual(
			AGENT_EXAMPLE_ANSWERS.map((answer) =>
				answer.map((fields) => expect.objectContaining(fields)),
			),
		);
		expect(answers[0][0]).not.toHaveProperty('phoneNumber');
		expect(sb.state.sent.map((m) => [m.campaignKey, m.phoneNumber, m.properties])).toEqual([
			['DEMO-WELCOME', '821012345678', { name: 'Customer', coupon: '-' }],
		]);
	});
});
