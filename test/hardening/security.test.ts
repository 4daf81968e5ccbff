/**
 * Security: the API key never reaches an output item, an error, the run data or n8n's log, even
 * when the service echoes it back in any field; values from items and expressions never become
 * request headers and always arrive as exactly the query value they were (CR/LF, &, =, #, %,
 * Korean, emoji); a key that cannot be sent as a header is refused before anything is sent.
 * (Base URL rules and a key with CR/LF are covered by test/transport.)
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import {
	envelope,
	startScripted,
	type Answer,
	type ScriptedServer,
} from '../support/scripted-server';
import { HOSTILE_IDS, anyText } from './arbitraries';
import {
	SEND_PARAMETERS,
	prepareCampaigns,
	prepareData,
	sendInputs,
	sendJson,
	prepareMembers,
} from './fixtures';
import {
	KEY,
	SEED,
	checkHeaders,
	countSandbox,
	expectClearError,
	finishSuite,
	pairsOf,
	run,
	scanRequests,
	tally,
	type RunResult,
} from './support';
import { DIALECTS, useSandbox } from '../support';

const sb = useSandbox({ apiKey: KEY });
finishSuite('security');

/** Half of a UTF-16 surrogate pair, alone. */
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What a member id (trimmed) is refused for by every node, or undefined when it is sent. */
function refusedMemberId(trimmed: string): string | undefined {
	// eslint-disable-next-line no-control-regex
	if (trimmed === '' || /[\u0000-\u001f\u007f]/.test(trimmed)) return 'Member ID';
	return UNPAIRED.test(trimmed) ? '"memberId" contains a broken character' : undefined;
}

let server: ScriptedServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function scripted(answer: (index: number, url: URL) => Answer) {
	server = await startScripted((req, index) => {
		tally.badResponses++;
		return answer(index, new URL(req.url, 'http://127.0.0.1'));
	});
	return server;
}

const afterScripted = (label: string) => {
	scanRequests(
		label,
		(server?.seen ?? []).map((s) => ({ body: s.body, url: s.url })),
	);
	for (const s of server?.seen ?? []) checkHeaders(label, s.headers as Record<string, unknown>);
};

describe('the key echoed by the service never reaches an item, an error or a log', () => {
	const echo = `echo of ${KEY} here`;
	const cases: Array<[string, string, IDataObject, IDataObject[], Answer]> = [
		[
			'custom data failure rows',
			'campaignCustomData',
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'A' }],
			{
				body: envelope(1, [
					{ memberId: 'a', failKey: 'grade', failValue: KEY, failCode: 'F02', failMessage: echo },
				]),
			},
		],
		[
			'custom data failure row naming the key as member',
			'campaignCustomData',
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'A' }],
			{ body: envelope(1, [{ memberId: KEY, failKey: KEY, failValue: echo, failCode: echo }]) },
		],
		[
			'custom data refused with a message',
			'campaignCustomData',
			{ operation: 'delete', memberId: 'a' },
			[{}],
			{ body: envelope(-1009, null, { message: echo }) },
		],
		[
			'custom data page entries',
			'campaignCustomData',
			{ operation: 'getAll', returnAll: true },
			[{}],
			{
				body: envelope(0, {
					nextPageSeq: null,
					dataList: [{ memberId: KEY, customDataKey: echo, customDataValue: echo }],
				}),
			},
		],
		[
			'legacy count with a message',
			'campaignLegacyData',
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'A' }],
			{ body: envelope(0, { count: 0, note: echo }, { message: echo }) },
		],
		[
			'member failure rows',
			'campaignMembers',
			{ apiVersion: 'v2', operation: 'upsert' },
			[{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true }],
			{
				body: envelope(0, [
					{
						memberId: 'm1',
						phoneNumber: '010-1234-5678',
						failureCode: 'F03',
						failureMessage: echo,
					},
				]),
			},
		],
		[
			'member unmatched failure row',
			'campaignMembers',
			{ apiVersion: 'v2', operation: 'upsert' },
			[{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true }],
			{
				body: envelope(0, [
					{ memberId: KEY, phoneNumber: echo, failureCode: 'F02', failureMessage: echo },
				]),
			},
		],
		[
			'member records',
			'campaignMembers',
			{ apiVersion: 'v1', operation: 'get', memberId: 'm1' },
			[{}],
			{
				body: envelope(0, [
					{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true, name: echo },
				]),
			},
		],
		[
			'member v1 refusal',
			'campaignMembers',
			{ apiVersion: 'v1', operation: 'upsert' },
			[{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true }],
			{ status: 503, body: envelope(-1006, { memberId: KEY }, { message: echo }) },
		],
		[
			'account failure',
			'campaignCustomData',
			{ operation: 'getAll', returnAll: true },
			[{}],
			{ body: envelope(-1001, null, { message: echo }) },
		],
		[
			'send success body',
			'campaignAlimtalk',
			SEND_PARAMETERS,
			sendJson(
				sendInputs([{ campaign: 'PLAIN', phone: 0, k1: 'name', v1: 'Kim', k2: 'coupon', v2: 'X' }]),
			),
			{ body: { code: 0, message: echo, echo: { key: KEY } } },
		],
		[
			'send refusal',
			'campaignAlimtalk',
			SEND_PARAMETERS,
			sendJson(
				sendInputs([{ campaign: 'PLAIN', phone: 0, k1: 'name', v1: 'Kim', k2: 'coupon', v2: 'X' }]),
			),
			{ status: 400, body: { code: 7011, message: echo } },
		],
		[
			'send account failure',
			'campaignAlimtalk',
			SEND_PARAMETERS,
			sendJson(
				sendInputs([{ campaign: 'PLAIN', phone: 0, k1: 'name', v1: 'Kim', k2: 'coupon', v2: 'X' }]),
			),
			{ status: 401, body: { code: 1401, message: echo } },
		],
		[
			'the key written with JSON escapes',
			'campaignCustomData',
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'A' }],
			{
				status: 200,
				headers: { 'content-type': 'application/json' },
				body: `{"processCode":1,"processValue":[{"memberId":"a","failKey":"grade","failCode":"F02","failMessage":"${KEY.replace(/^h/, '\\u0068').replace(/-/g, '\\u002d')}"}]}`,
			},
		],
		[
			'an HTML page quoting the key',
			'campaignCustomData',
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'A' }],
			{ status: 500, body: `<html>${echo}</html>` },
		],
	];

	it.each(cases)('%s', async (label, type, parameters, input, answer) => {
		await scripted(() => answer);
		for (const onError of [
			'stopWorkflow',
			'continueRegularOutput',
			'continueErrorOutput',
		] as const) {
			const result = await run(
				{
					type,
					parameters: { ...parameters, options: { maxRetries: 0 } },
					input,
					credentials: { baseUrl: server?.baseUrl ?? '', apiKey: KEY, memberApiVersion: 'any' },
					onError,
				},
				`${label} (${onError})`,
			);
			expectClearError(result, label);
		}
		afterScripted(label);
		// The leak check itself runs over everything recorded, at the end of the file.
	});
});

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
				credentials: { baseUrl: sb.baseUrl, apiKey: KEY, memberApiVersion: 'any' },
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
				credentials: { baseUrl: sb.baseUrl, apiKey: KEY },
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
				credentials: { baseUrl: server?.baseUrl ?? '', apiKey: KEY },
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
				credentials: { baseUrl: sb.baseUrl, apiKey: KEY },
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

describe('a key that cannot travel in a header is refused before anything is sent', () => {
	it.each([
		['a trailing line feed', `${KEY}\n`],
		['a tab', `${KEY}\tx`],
		['a NUL', `${KEY}\u0000`],
		['a DEL', `${KEY}\u007f`],
		['a line separator (U+2028)', `${KEY}\u2028X-Evil: 1`],
		['Korean letters', `${KEY}키`],
		['an emoji', `${KEY}😀`],
	])('%s', async (_label, apiKey) => {
		await scripted(() => ({ body: envelope(0, { nextPageSeq: null, dataList: [] }) }));
		for (const type of ['campaignCustomData', 'campaignAlimtalk']) {
			const result = await run(
				{
					type,
					parameters:
						type === 'campaignCustomData'
							? { operation: 'getAll', returnAll: true }
							: SEND_PARAMETERS,
					input: sendJson(
						sendInputs([
							{ campaign: 'PLAIN', phone: 0, k1: 'name', v1: 'Kim', k2: 'coupon', v2: 'X' },
						]),
					),
					credentials: { baseUrl: server?.baseUrl ?? '', apiKey },
				},
				`key with ${_label}`,
			);
			expect(server?.seen).toHaveLength(0);
			expect(result.error).toBeDefined();
			expectClearError(result, 'bad key');
			expect(result.error?.message).toContain('API Key');
		}
	});
});
