/**
 * Security, the API key: it never reaches an output item, an error, the run data or n8n's log,
 * even when the service echoes it back in any field, and a key that cannot be sent as a header
 * is refused before anything is sent. (Base URL rules and a key with CR/LF are covered by
 * test/shared/transport/.) Values from items and expressions: security-injection.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { envelope, type Answer } from '../support/scripted-server';
import {
	API_KEY,
	SEND_PARAMETERS,
	afterScripted,
	expectClearError,
	finishSuite,
	oneSendJson,
	run,
	scripted,
	server,
	useScripted,
} from './support';

finishSuite('security-api-key');
useScripted();

describe('the key echoed by the service never reaches an item, an error or a log', () => {
	const echo = `echo of ${API_KEY} here`;
	const cases: Array<[string, string, IDataObject, IDataObject[], Answer]> = [
		[
			'custom data failure rows',
			'campaignCustomData',
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'A' }],
			{
				body: envelope(1, [
					{
						memberId: 'a',
						failKey: 'grade',
						failValue: API_KEY,
						failCode: 'F02',
						failMessage: echo,
					},
				]),
			},
		],
		[
			'custom data failure row naming the key as member',
			'campaignCustomData',
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'A' }],
			{
				body: envelope(1, [
					{ memberId: API_KEY, failKey: API_KEY, failValue: echo, failCode: echo },
				]),
			},
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
					dataList: [{ memberId: API_KEY, customDataKey: echo, customDataValue: echo }],
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
					{ memberId: API_KEY, phoneNumber: echo, failureCode: 'F02', failureMessage: echo },
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
			{ status: 503, body: envelope(-1006, { memberId: API_KEY }, { message: echo }) },
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
			oneSendJson(),
			{ body: { code: 0, message: echo, echo: { key: API_KEY } } },
		],
		[
			'send refusal',
			'campaignAlimtalk',
			SEND_PARAMETERS,
			oneSendJson(),
			{ status: 400, body: { code: 7011, message: echo } },
		],
		[
			'send account failure',
			'campaignAlimtalk',
			SEND_PARAMETERS,
			oneSendJson(),
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
				body: `{"processCode":1,"processValue":[{"memberId":"a","failKey":"grade","failCode":"F02","failMessage":"${API_KEY.replace(/^h/, '\\u0068').replace(/-/g, '\\u002d')}"}]}`,
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
					credentials: { baseUrl: server?.baseUrl ?? '', apiKey: API_KEY, memberApiVersion: 'any' },
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

describe('a key that cannot travel in a header is refused before anything is sent', () => {
	it.each([
		['a trailing line feed', `${API_KEY}\n`],
		['a tab', `${API_KEY}\tx`],
		['a NUL', `${API_KEY}\u0000`],
		['a DEL', `${API_KEY}\u007f`],
		['a line separator (U+2028)', `${API_KEY}\u2028X-Evil: 1`],
		['Korean letters', `${API_KEY}키`],
		['an emoji', `${API_KEY}😀`],
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
					input: oneSendJson(),
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
