/**
 * No keyless send as a tool (helpers/guard.ts): as an AI-agent or MCP tool, a send without a
 * Deduplication Key is refused before anything is read or sent, and the model is told to set one.
 * A keyed tool still sends; outside tool mode a keyless send is unchanged.
 */
import { installStore } from '../support/dedup-store';
import { TOOL_SEND, runAsTool } from '../support/tools';
import { useSendFixture } from './support';

const { sb, send } = useSendFixture();
const FAST = { maxRetries: 0, retryDelayMs: 0 };

const credentials = () => ({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });

beforeAll(async () => {
	(await installStore()).reset();
});

describe('Campaign Alimtalk send as a tool, without a Deduplication Key', () => {
	it.each([
		['no options', {}],
		['an empty key', { deduplicationKey: '' }],
		['a key of spaces', { deduplicationKey: '  ' }],
		['an expression with nothing in it', { deduplicationKey: '=' }],
	])('is refused before anything is sent (%s)', async (_, options) => {
		const { answers, texts } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: { ...TOOL_SEND, options: { ...FAST, ...options } },
			credentials: credentials(),
			calls: [{ phoneNumber: '821012345678' }, { phoneNumber: '821012345679' }],
		});
		const refusal = {
			outcome: 'error',
			code: 'deduplicationKeyRequired',
			message: expect.stringContaining('Deduplication Key'),
			details: expect.stringContaining('Deduplicate per Recipient'),
		};
		expect(answers).toEqual([[refusal], [refusal]]);
		// The advice names no value the model fills: it would be a key the model varies freely.
		expect(JSON.stringify(answers)).not.toMatch(/fromAI/);
		expect(texts.join('')).not.toContain(sb.apiKey);
		expect(sb.requests).toEqual([]);
		expect(sb.state.sent).toEqual([]);
	});

	it('a keyless Member ID tool is told the advice of its Recipient: a key of the day and Deduplicate per Recipient, no key the model fills', async () => {
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: {
				...TOOL_SEND,
				recipient: 'memberId',
				memberId: "={{ $fromAI('memberId', 'The member', 'string') }}",
				options: FAST,
			},
			credentials: credentials(),
			calls: [{ memberId: 'm-kim' }],
		});
		expect(answers).toEqual([
			[
				expect.objectContaining({
					code: 'deduplicationKeyRequired',
					details: expect.stringContaining("member's number per day"),
				}),
			],
		]);
		expect(JSON.stringify(answers)).not.toMatch(/fromAI/);
		expect(sb.requests).toEqual([]);
	});

	it('a tool with a key sends', async () => {
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: {
				...TOOL_SEND,
				options: { ...FAST, deduplicationKey: `=notice-${TOOL_SEND.phoneNumber.slice(1)}` },
			},
			credentials: credentials(),
			calls: [{ phoneNumber: '821012345678' }],
		});
		expect(answers).toEqual([[expect.objectContaining({ outcome: 'sent' })]]);
		expect(sb.state.sent.map((m) => m.phoneNumber)).toEqual(['821012345678']);
	});

	it('outside tool mode a send without a key still sends', async () => {
		const { out, error } = await send([
			{ campaign: 'WELCOME', phone: '821012345678', name: 'Kim' },
		]);
		expect(error).toBeUndefined();
		expect(out[0].map((item) => item.json.status)).toEqual(['sent']);
		expect(sb.state.sent).toHaveLength(1);
	});
});
