/**
 * Text the service supplies (an envelope's message, a failure row's message) reaches errors,
 * Failed items and tool answers cut to MAX_SERVICE_TEXT characters with an ellipsis: a broken or
 * hostile endpoint cannot fill an execution's data, a log or an agent's context with it.
 */
import type { IDataObject } from 'n8n-workflow';
import { MAX_SERVICE_TEXT } from '../../nodes/shared/codes';
import { FAST, runNode } from '../support';
import { readAll, sendOnce } from './support';
import { startScripted } from '../support/scripted-server';
import { columns } from '../CampaignMembers/support';

const API_KEY = ['text', 'test', 'key', '9c41'].join('-');
/** 100,000 characters of one letter, then a marker that must never come through. */
const LONG = `${'m'.repeat(100_000)}END-OF-TEXT`;

/** The longest run of "m" in `text`: how much of LONG came through. */
const longestRun = (text: string) => Math.max(0, ...(text.match(/m+/g) ?? []).map((r) => r.length));

/** Compared as a summary: a failure prints a few numbers, not 100,000 characters. */
function expectCut(text: string) {
	const run = longestRun(text);
	expect({
		endCameThrough: text.includes('END-OF-TEXT'),
		cutWithEllipsis: text.includes('m…'),
		runWithinLimit: run <= MAX_SERVICE_TEXT && run > MAX_SERVICE_TEXT - 10,
		length: text.length < 2 * MAX_SERVICE_TEXT + 1000,
	}).toEqual({
		endCameThrough: false,
		cutWithEllipsis: true,
		runWithinLimit: true,
		length: true,
	});
}

it('a whole-call error carries the service message cut, in its message and description', async () => {
	const server = await startScripted(() => ({
		status: 200,
		body: { processCode: -1001, processValue: null, message: LONG },
	}));
	try {
		const result = await readAll(server.baseUrl, API_KEY);
		const error = result.error as unknown as { message: string; description?: string };
		expectCut(`${error.message} ${error.description ?? ''}`);
	} finally {
		await server.close();
	}
});

it('a refused send puts the service message on Failed cut', async () => {
	const server = await startScripted(() => ({
		status: 400,
		body: { code: 7012, message: LONG },
	}));
	try {
		const result = await sendOnce(server.baseUrl, API_KEY, FAST);
		expect(result.error).toBeUndefined();
		expect(result.out[1]).toHaveLength(1);
		expectCut(String(result.out[1][0].json.message));
	} finally {
		await server.close();
	}
});

it("a member row the service refused carries the row's message cut", async () => {
	const server = await startScripted(() => ({
		status: 200,
		body: {
			processCode: 0,
			processValue: [{ phoneNumber: '010-1234-5678', failureCode: 'F02', failureMessage: LONG }],
		},
	}));
	try {
		const result = await runNode({
			type: 'campaignMembers',
			typeVersion: 2,
			parameters: {
				operation: 'upsert',
				apiVersion: 'v2',
				columns: await columns('v2', 'defineBelow', {
					memberId: 'm1',
					phoneNumber: '010-1234-5678',
					isReceive: true,
				}),
				options: FAST,
			},
			input: [{} as IDataObject],
			credentials: { baseUrl: server.baseUrl, apiKey: API_KEY },
		});
		expect(result.error).toBeUndefined();
		expect(result.out[1]).toHaveLength(1);
		expectCut(String(result.out[1][0].json.message));
	} finally {
		await server.close();
	}
});
