/**
 * The nodes as AI-agent tools, through n8n-core's own tool path (test/support/tools.ts): what a
 * model is told for each outcome, the guard rails, and that the same node outside tool mode keeps
 * its two outputs. Runs on every n8n line of the compatibility matrix (`npm run test:compat`);
 * the real AI Agent and MCP Server Trigger are in test/e2e/agent.e2e.ts and mcp.e2e.ts.
 */
import { runNode, useSandbox } from '../support';
import { installStore } from '../support/dedup-store';
import { startScripted } from '../support/scripted-server';
import { TOOL_SEND, runAsTool } from '../support/tools';

const sb = useSandbox({ accounts: { 'tool-expired-key': 'expired' } });
const credentials = () => ({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
const FAST = { maxRetries: 0, retryDelayMs: 0 };

const SEND = {
	...TOOL_SEND,
	options: { ...FAST, deduplicationKey: "={{ $fromAI('orderId', 'The order', 'string') }}" },
};

beforeAll(async () => {
	(await installStore()).reset();
});

beforeEach(() => {
	sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
});

describe('Campaign Alimtalk as a tool', () => {
	it('tells the model a send went out, a refusal with its code and what to change, and a repeat as a duplicate', async () => {
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: SEND,
			credentials: credentials(),
			calls: [
				{ phoneNumber: '821012345678', orderId: 'o-1' },
				{ phoneNumber: '0101234567', orderId: 'o-2' },
				{ phoneNumber: '821012345678', orderId: 'o-1' },
			],
		});
		expect(answers).toEqual([
			[expect.objectContaining({ outcome: 'sent', phoneNumber: '821012345678' })],
			[
				expect.objectContaining({
					outcome: 'refused',
					code: '7012',
					message: expect.stringContaining('exactly 12 characters'),
					whatToDo: expect.stringContaining('821012345678'),
				}),
			],
			[expect.objectContaining({ outcome: 'duplicate', deduplicationKey: 'o-1' })],
		]);
		expect(sb.state.sent.map((m) => m.phoneNumber)).toEqual(['821012345678']);
	});

	it('answers an account failure instead of failing the agent, without the API key', async () => {
		const { answers, texts } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: SEND,
			credentials: { baseUrl: sb.baseUrl, apiKey: 'tool-expired-key' },
			calls: [{ phoneNumber: '821012345678', orderId: 'o-9' }],
		});
		expect(answers).toEqual([
			[expect.objectContaining({ outcome: 'error', code: '1405', message: expect.any(String) })],
		]);
		expect(texts.join('')).not.toContain('tool-expired-key');
		expect(sb.state.sent).toEqual([]);
	});

	it('outside tool mode the same refusal stays on the Failed output (nothing changes there)', async () => {
		const { out } = await runNode({
			type: 'campaignAlimtalk',
			parameters: { ...SEND, phoneNumber: '={{ $json.phone }}', options: FAST },
			input: [{ phone: '0101234567' }],
			credentials: credentials(),
		});
		expect(out[0]).toEqual([]);
		expect(out[1].map((item) => item.json)).toEqual([
			expect.not.objectContaining({ outcome: expect.anything() }),
		]);
		expect(out[1][0].json.code).toBe('7012');
	});
});

describe('the reads as tools', () => {
	it("a failure of the whole call: its code, the package's words and what to do, never the service's own text", async () => {
		const service = await startScripted(() => ({
			body: { httpStatus: { code: 200 }, processCode: -1003, message: 'SERVICE-TEXT: ended' },
		}));
		try {
			const { answers, texts } = await runAsTool({
				type: 'campaignCustomData',
				parameters: {
					operation: 'get',
					memberId: "={{ $fromAI('memberId', 'Member ID', 'string') }}",
					options: FAST,
				},
				credentials: { baseUrl: service.baseUrl, apiKey: 'tool-key' },
				calls: [{ memberId: 'm-1' }],
			});
			expect(answers).toEqual([
				[
					expect.objectContaining({
						outcome: 'error',
						code: '-1003',
						message: expect.stringContaining('contract period has expired'),
						details: expect.stringContaining('Contact the service operator'),
					}),
				],
			]);
			expect(texts[0]).not.toContain('SERVICE-TEXT');
		} finally {
			await service.close();
		}
	});

	it('returns at most 50 entries with a note that more exist, and stops paging early', async () => {
		sb.configure({ pageSize: 10 });
		sb.registerKey('points', 'number');
		for (let i = 0; i < 120; i++) sb.state.custom.set(`m-${i}`, new Map([['points', i]]));
		const { answers } = await runAsTool({
			type: 'campaignCustomData',
			parameters: { operation: 'getAll', returnAll: true, options: FAST },
			credentials: credentials(),
			calls: [{}],
		});
		const [answer] = answers as Array<Array<Record<string, unknown>>>;
		expect(answer).toHaveLength(51);
		expect(answer[0]).toEqual({
			outcome: 'truncated',
			message: expect.stringContaining('first 50 results; more exist'),
		});
		expect(answer.slice(1).every((entry) => typeof entry.memberId === 'string')).toBe(true);
		// 51 entries at 10 a page: 6 pages, not the 12 the whole read would take.
		expect(sb.requests.filter((r) => r.method === 'GET')).toHaveLength(6);
	});

	it('cuts a value planted in custom data, keeping the member id and the key whole', async () => {
		sb.registerKey('note', 'string');
		sb.state.custom.set('m-1', new Map([['note', 'x'.repeat(5000)]]));
		const { answers } = await runAsTool({
			type: 'campaignCustomData',
			parameters: {
				operation: 'get',
				memberId: "={{ $fromAI('memberId', 'Member ID', 'string') }}",
				options: FAST,
			},
			credentials: credentials(),
			calls: [{ memberId: 'm-1' }],
		});
		const value = expect.stringMatching(/^x{200}… \[cut: 5000 characters in all\]$/);
		expect(answers).toEqual([[{ memberId: 'm-1', key: 'note', value }]]);
	});

	it('says "nothing found" for a member that does not exist, never an empty answer', async () => {
		const { answers } = await runAsTool({
			type: 'campaignMembers',
			parameters: {
				apiVersion: 'v2',
				operation: 'get',
				memberId: "={{ $fromAI('memberId', 'Member ID', 'string') }}",
			},
			credentials: credentials(),
			calls: [{ memberId: 'nobody' }],
		});
		expect(answers).toEqual([[{ outcome: 'noResults', message: 'Nothing was found.' }]]);
	});
});

describe('the writes as tools', () => {
	it('refuses Map Automatically with what to set instead, and sends nothing', async () => {
		const { answers } = await runAsTool({
			type: 'campaignCustomData',
			parameters: { operation: 'create', mappingMode: 'autoMapInputData', options: FAST },
			credentials: credentials(),
			calls: [{}],
		});
		expect(answers).toEqual([
			[
				expect.objectContaining({
					outcome: 'error',
					message: expect.stringContaining('Map Automatically'),
					details: expect.stringContaining('Define Below'),
				}),
			],
		]);
		expect(sb.requests).toEqual([]);
	});

	it('a refused row of Members upsert names the code and what to change', async () => {
		const { answers } = await runAsTool({
			type: 'campaignMembers',
			parameters: {
				apiVersion: 'v2',
				operation: 'upsert',
				mappingMode: 'defineBelow',
				memberId: "={{ $fromAI('memberId', 'Member ID', 'string') }}",
				phoneNumber: "={{ $fromAI('phoneNumber', 'Mobile number, e.g. 010-1234-5678', 'string') }}",
				isReceive: true,
				options: FAST,
			},
			credentials: credentials(),
			calls: [
				{ memberId: 'crm-1', phoneNumber: '010-1111-2222' },
				{ memberId: 'crm-2', phoneNumber: '12345' },
			],
		});
		expect(answers).toEqual([
			[expect.objectContaining({ outcome: 'done', memberId: 'crm-1' })],
			[
				expect.objectContaining({
					outcome: 'refused',
					code: 'F02',
					whatToDo: expect.stringContaining('010-1234-5678'),
				}),
			],
		]);
	});
});
