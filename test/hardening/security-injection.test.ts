/**
 * Security, values from items and expressions: they never become request headers and always
 * arrive as exactly the query value they were (CR/LF, &, =, #, %, Korean, emoji), or are refused
 * before anything is sent. The API key: security-api-key.test.ts.
 */
import fc from 'fast-check';
import { envelope } from '../support/scripted-server';
import { HOSTILE_IDS, anyText } from './arbitraries';
import {
	API_KEY,
	type RunResult,
	SEED,
	SEND_PARAMETERS,
	afterScripted,
	countSandbox,
	expectClearError,
	pairsOf,
	prepareCampaigns,
	prepareData,
	prepareMembers,
	run,
	scripted,
	sendInputs,
	sendJson,
	server,
	tally,
	useHardeningSandbox,
	useScripted,
} from './support';
import { DIALECTS } from '../support';

const sb = useHardeningSandbox('security-injection');
useScripted();

/** Half of a UTF-16 surrogate pair, alone. */
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What a member id (trimmed) is refused for by every node, or undefined when it is sent. */
function refusedMemberId(trimmed: string): string | undefined {
	// eslint-disable-next-line no-control-regex
	if (trimmed === '' || /[\u0000-\u001f\u007f]/.test(trimmed)) return 'Member ID';
	return UNPAIRED.test(trimmed) ? '"memberId" contains a broken character' : undefined;
}

describe('values never become headers, and arrive as exactly the query value they were', () => {
	const memberIds = fc.oneof(
		fc.constantFrom(...HOSTILE_IDS),
		anyText(12),
		fc.constantFrom(
			'a\r\nX-Evil: 1',
			'x\nX-Evil:1',
			'a\u0000b',
			'a%0D%0AX-Evil:%201',
			'%',
			'+',
			'a b',
			'김철수 😀',
			'?',
			'#frag',
		),
	);

	/**
	 * Whether the read went out: a value the node refuses (`refusedFor` names the field and rule
	 * it must give) is never sent, and a URL too long for the server (a 3,000-character id) is
	 * refused by it and reported clearly.
	 */
	function wasSent(result: RunResult, refusedFor: string | undefined): boolean {
		if (refusedFor !== undefined) {
			expect(sb.requests).toHaveLength(0);
			expect(String(result.out[0][0].json.error)).toContain(refusedFor);
			return false;
		}
		if (sb.requests.length === 0) {
			expect(String(result.out[0][0].json.error)).toMatch(/HTTP 4\d\d/);
			return false;
		}
		return true;
	}

	/** One member get: the query holds exactly the trimmed id, or the item fails with a clear message and nothing is sent. */
	async function memberGet(memberId: string, version: 'v1' | 'v2'): Promise<void> {
		prepareMembers(sb, [['m1', '010-1234-5678']]);
		const result = await run(
			{
				type: 'campaignMembers',
				parameters: { apiVersion: version, operation: 'get', memberId: '={{ $json.id }}' },
				input: [{ id: memberId }],
				credentials: { baseUrl: sb.baseUrl, apiKey: API_KEY, memberApiVersion: 'any' },
				onError: 'continueRegularOutput',
			},
			'members get (query)',
		);
		countSandbox('members get', sb.requests);
		expectClearError(result, 'members get');
		const trimmed = memberId.trim();
		const refusedFor = refusedMemberId(trimmed);
		if (!wasSent(result, refusedFor)) return;
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].path).toBe(`/${version}/users/sms`);
		expect(sb.requests[0].query).toEqual({ memberId: trimmed });
		for (const item of result.out[0]) expect(pairsOf(item)).toEqual([0]);
	}

	/** One custom data get: the query holds exactly the trimmed id, or the item fails with a clear message naming the field. */
	async function customGet(memberId: string): Promise<void> {
		const d = DIALECTS[0][1];
		prepareData(sb, d.store, [['a', 'grade', 'x']]);
		const result = await run(
			{
				type: d.type,
				parameters: { operation: 'get', memberId: '={{ $json.id }}' },
				input: [{ id: memberId }],
				credentials: { baseUrl: sb.baseUrl, apiKey: API_KEY },
				onError: 'continueRegularOutput',
			},
			'custom data get (query)',
		);
		countSandbox('custom data get', sb.requests);
		expectClearError(result, 'custom data get');
		const trimmed = memberId.trim();
		if (!wasSent(result, refusedMemberId(trimmed))) return;
		expect(sb.requests.map((r) => r.query)).toEqual([{ memberId: trimmed }]);
		// Only member "a" has data: an id matches it exactly or not at all.
		expect(result.out[0].map((i) => i.json.memberId)).toEqual(trimmed === 'a' ? ['a'] : []);
	}

	it('member get (v1 and v2): the member id in the query is the trimmed value, nothing else', async () => {
		for (const id of HOSTILE_IDS)
			for (const version of ['v1', 'v2'] as const) await memberGet(id, version);
		await fc.assert(
			fc.asyncProperty(
				memberIds,
				fc.constantFrom<'v1' | 'v2'>('v1', 'v2'),
				async (memberId, version) => {
					tally.generatedCases++;
					await memberGet(memberId, version);
				},
			),
			{ seed: SEED + 40, numRuns: 50 },
		);
	});

	it('custom data get: the member id in the query is exactly the value, or it is refused with a clear message naming the field', async () => {
		for (const id of HOSTILE_IDS) await customGet(id);
		await fc.assert(
			fc.asyncProperty(memberIds, async (memberId) => {
				tally.generatedCases++;
				await customGet(memberId);
			}),
			{ seed: SEED + 41, numRuns: 50 },
		);
	});

	it('a next-page marker from the service goes back as exactly one encoded seq value', async () => {
		const marker = 'x&memberId=evil#frag\r\nX-Evil: 1 %41 김';
		await scripted((index) =>
			index === 0
				? {
						body: envelope(0, {
							nextPageSeq: marker,
							dataList: [{ memberId: 'a', customDataKey: 'k', customDataValue: 1 }],
						}),
					}
				: {
						body: envelope(0, {
							nextPageSeq: null,
							dataList: [{ memberId: 'b', customDataKey: 'k', customDataValue: 2 }],
						}),
					},
		);
		const result = await run(
			{
				type: 'campaignCustomData',
				parameters: { operation: 'getAll', returnAll: true },
				input: [{}],
				credentials: { baseUrl: server?.baseUrl ?? '', apiKey: API_KEY },
			},
			'getAll (marker)',
		);
		afterScripted('getAll (marker)');
		expect(result.error).toBeUndefined();
		expect(server?.seen).toHaveLength(2);
		const second = new URL(server?.seen[1].url ?? '', 'http://127.0.0.1');
		expect(second.pathname).toBe('/v2/custom');
		expect([...second.searchParams.entries()]).toEqual([['seq', marker.trim()]]);
		expect(result.out[0].map((i) => i.json.memberId)).toEqual(['a', 'b']);
	});

	it('campaign keys, phone numbers and template variables with CR/LF stay in the body, or are refused before sending', async () => {
		prepareCampaigns(sb);
		sb.addCampaign('W\r\nX-Evil: 1');
		const inputs = sendInputs([
			{
				campaign: 'W\r\nX-Evil: 1',
				phone: 0,
				k1: 'name',
				v1: 'a\r\nX-Evil: 1',
				k2: 'coupon',
				v2: 'x',
			},
			{ campaign: 'PLAIN', phone: 0, k1: 'a\r\nX-Evil: 1', v1: 'x', k2: 'coupon', v2: 'y' },
			{ campaign: 'PLAIN', phone: 7, k1: 'name', v1: 'x', k2: 'coupon', v2: 'y' },
		]);
		const result = await run(
			{
				type: 'campaignAlimtalk',
				parameters: { ...SEND_PARAMETERS, options: { convertPhoneNumbers: false } },
				input: sendJson(inputs),
				credentials: { baseUrl: sb.baseUrl, apiKey: API_KEY },
			},
			'send (CR/LF)',
		);
		countSandbox('send (CR/LF)', sb.requests);
		expect(result.error).toBeUndefined();
		expect(sb.requests).toHaveLength(1);
		expect(sb.state.sent.map((s) => [s.campaignKey, s.properties.name])).toEqual([
			['W\r\nX-Evil: 1', 'a\r\nX-Evil: 1'],
		]);
		expect(result.out[1].map((i) => [pairsOf(i)[0], i.json.code])).toEqual([
			[1, '1203'],
			[2, '7012'],
		]);
		expect(String(result.out[1][0].json.message)).toContain('line break');
	});
});
