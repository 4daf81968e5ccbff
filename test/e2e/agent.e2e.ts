/**
 * End-to-end: the package's nodes as tools of n8n's AI Agent (3.1, the editor's default, and
 * 2.2, the older path), run with `n8n execute`. A scripted model (test/support/model-server.ts)
 * calls each tool once per planned turn; the test reads what each call returned to the model and
 * what reached the sandbox. Workflows: test/e2e/agent-support.ts.
 */
import * as rt from '../../scripts/runtime';
import { startModelServer, type ModelServer, type ToolStep } from '../support/model-server';
import { fs, path } from '../support/node';
import { agentWorkflow, EXPIRED_CREDENTIAL, OPENAI_CREDENTIAL, TOOLS } from './agent-support';
import { ARTIFACTS, paths, resetSandbox, sb, setupN8n, userFolder, type Json } from './n8n-support';

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
		await rt.importCredentials(paths, userFolder, [
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
		]);
		const dir = path.join(ARTIFACTS, 'agent-workflows');
		fs.mkdirSync(dir, { recursive: true });
		const files = ([3.1, 2.2] as const).map((version) => {
			const file = path.join(dir, `agent-${version}.json`);
			fs.writeFileSync(file, JSON.stringify(agentWorkflow(idOf(version), version, TOOLS), null, 2));
			return file;
		});
		await rt.importWorkflows(paths, userFolder, files);
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
	model.requests.length = 0;
	const result = await rt.executeWorkflow(paths, userFolder, idOf(version));
	fs.writeFileSync(
		path.join(ARTIFACTS, `agent-${version}.execute.log`),
		`${result.stdout}\n--- stderr ---\n${result.stderr}`,
	);
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
	});

	test('print', () => {
		console.log(JSON.stringify({ version, answers, sends: sends.length }, null, 1));
	});
});
