/**
 * A read tool's whole answer is bounded, through n8n-core's tool path (test/support/tools.ts) and
 * the sandbox (docs/ai-agents.md, "Bounded answers"): custom data planted to pass the caps (a
 * key named like a field that is never cut, hundreds of long keys, a long key name, a key named
 * like the answer's own `outcome`) gives one answer of bounded size, every string bounded, the
 * `outcome` answer field its own; and a Get tool stops reading as Get Many does.
 */
import { useSandbox } from '../support';
import { answerStrings as strings } from '../support/agent-example';
import { runAsTool } from '../support/tools';

const sb = useSandbox();
const credentials = () => ({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });
const FAST = { maxRetries: 0, retryDelayMs: 0 };
const ANSWER_LIMIT = 32000;
const STRING_LIMIT = 600;

const get = (type: string, outputFormat: 'entry' | 'member') => ({
	type,
	parameters: {
		operation: 'get',
		memberId: "={{ $fromAI('memberId', 'Member ID', 'string') }}",
		options: { ...FAST, outputFormat },
	},
	credentials: credentials(),
	calls: [{ memberId: 'm-1' }],
});

/** Planted data: `code` of 6,000 characters, 300 keys of 500, names and values to impersonate the answer fields. */
function planted(): Map<string, string | number> {
	const data = new Map<string, string | number>([
		['outcome', 'sent'],
		['code', 'c'.repeat(6000)],
		['phoneNumber', '9'.repeat(6000)],
		['key', 'k'.repeat(6000)],
		[`long-${'n'.repeat(5000)}`, 'value'],
	]);
	for (let n = 0; n < 300; n++) data.set(`note-${n}`, `${n} ${'x'.repeat(495)}`);
	return data;
}

describe('a read tool answer is bounded as a whole', () => {
	it.each([
		['Legacy Data', 'member', 'campaignLegacyData'],
		['Legacy Data', 'entry', 'campaignLegacyData'],
		['Custom Data', 'member', 'campaignCustomData'],
	] as const)(
		'%s Get (%s format) on planted data: one answer under 32,000 characters, no string over 600, the answer fields their own',
		async (_, format, type) => {
			sb.state[type === 'campaignLegacyData' ? 'legacy' : 'custom'].set('m-1', planted());
			const { answers, texts } = await runAsTool(get(type, format));
			expect(texts).toHaveLength(1);
			expect(texts[0].length).toBeLessThan(ANSWER_LIMIT);
			const [answer] = answers as Array<Array<Record<string, unknown>>>;
			const longest = Math.max(...strings(answer).map((s) => s.length));
			expect(longest).toBeLessThanOrEqual(STRING_LIMIT);
			// The answer fields say that part was left out, and how to narrow the read.
			expect(answer[0]).toEqual({ outcome: 'truncated', message: expect.any(String) });
			// No item of the data carries an outcome of its own.
			expect(answer.slice(1).filter((item) => 'outcome' in item)).toEqual([]);
		},
	);

	it('One Item per Member: data keys named phoneNumber, key or campaignKey are values, cut at 200 like every other', async () => {
		const long = '9'.repeat(6000);
		sb.state.custom.set(
			'm-1',
			new Map([
				['phoneNumber', long],
				['key', long],
				['campaignKey', long],
			]),
		);
		const { answers } = await runAsTool(get('campaignCustomData', 'member'));
		const [[member]] = answers as Array<Array<Record<string, string>>>;
		for (const name of ['phoneNumber', 'key', 'campaignKey']) {
			expect(member[name]).toMatch(/^9{200}… \[cut: 6000 characters in all\]$/);
		}
	});

	it("One Item per Member: data keys that only look like the answer fields' names never stand beside them", async () => {
		const lookAlikes = [
			'outcome\u200b',
			'ｍｅｓｓａｇｅ',
			'\u043eutcome',
			'whatToDo ',
			'retryAfter',
		];
		sb.state.custom.set('m-1', new Map(lookAlikes.map((key) => [key, 'sent'])));
		const { answers } = await runAsTool(get('campaignCustomData', 'member'));
		const [[member]] = answers as Array<Array<Record<string, string>>>;
		expect(Object.keys(member)).toEqual(['memberId', ...lookAlikes.map((key) => `${key} (data)`)]);
	});

	it('a Get tool stops reading one entry past what a model is shown, as Get Many does', async () => {
		sb.configure({ pageSize: 10 });
		sb.state.custom.set('m-1', new Map(Array.from({ length: 120 }, (_, n) => [`k${n}`, n])));
		const { answers } = await runAsTool(get('campaignCustomData', 'entry'));
		const [answer] = answers as Array<Array<Record<string, unknown>>>;
		expect(answer).toHaveLength(51);
		expect(answer[0]).toEqual({
			outcome: 'truncated',
			message: expect.stringContaining('first 50 results; more exist'),
		});
		// 51 entries at 10 a page: 6 pages, not the 12 the whole read would take.
		expect(sb.requests.filter((r) => r.method === 'GET')).toHaveLength(6);
	});

	it('One Item per Member: a Get tool says that more keys exist than it shows', async () => {
		sb.configure({ pageSize: 10 });
		sb.state.legacy.set('m-1', new Map(Array.from({ length: 120 }, (_, n) => [`k${n}`, n])));
		const { answers } = await runAsTool(get('campaignLegacyData', 'member'));
		const [answer] = answers as Array<Array<Record<string, unknown>>>;
		expect(answer).toHaveLength(2);
		expect(answer[0]).toEqual({ outcome: 'truncated', message: expect.any(String) });
		expect(answer[1].memberId).toBe('m-1');
		expect(sb.requests.filter((r) => r.method === 'GET')).toHaveLength(6);
	});
});
