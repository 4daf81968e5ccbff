/**
 * Bad answers from a scripted server, for every operation of every node: HTML pages, empty and
 * truncated bodies, 10 MB bodies, JSON that is not an envelope, a processValue of the wrong type,
 * failure rows with fields missing, unknown codes (the list: bad-answers.ts). Each run must end
 * with a clear error (naming what was expected) or with well-formed items, never with a crash, a
 * message carrying a crash, a 10 MB message, or a success claimed for an answer that says nothing.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { envelope, startScripted } from '../support/scripted-server';
import { BAD, type Bad } from './bad-answers';
import {
	API_KEY,
	type RunResult,
	SEND_PARAMETERS,
	checkWriteOutputs,
	expectClearError,
	finishSuite,
	run,
	scanRequests,
	sendInputs,
	sendJson,
	tally,
} from './support';

finishSuite('bad-responses');

interface Op {
	name: string;
	type: string;
	parameters: IDataObject;
	input: IDataObject[];
	read: boolean;
	failedFields: string[];
	/** The answer of a send may be empty or any JSON (its shape is not shown): those count as sent. */
	send?: boolean;
}

const members = [
	{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true },
	{ memberId: 'm2', phoneNumber: '010-1234-5679', isReceive: false, name: '김' },
];

const OPS: Op[] = [
	{
		name: 'custom data get',
		type: 'campaignCustomData',
		parameters: { operation: 'get', memberId: 'a' },
		input: [{}],
		read: true,
		failedFields: [],
	},
	{
		name: 'custom data getAll',
		type: 'campaignCustomData',
		parameters: { operation: 'getAll', returnAll: true },
		input: [{}],
		read: true,
		failedFields: [],
	},
	{
		name: 'legacy data getAll (limit)',
		type: 'campaignLegacyData',
		parameters: { operation: 'getAll', limit: 5 },
		input: [{}],
		read: true,
		failedFields: [],
	},
	{
		name: 'custom data create',
		type: 'campaignCustomData',
		parameters: { operation: 'create' },
		input: [
			{ memberId: 'a', grade: 'A' },
			{ memberId: 'b', points: 3 },
		],
		read: false,
		failedFields: ['memberId'],
	},
	{
		name: 'legacy data update',
		type: 'campaignLegacyData',
		parameters: { operation: 'update' },
		input: [
			{ memberId: 'a', grade: 'A' },
			{ memberId: 'b', points: 3 },
		],
		read: false,
		failedFields: ['memberId'],
	},
	{
		name: 'custom data delete',
		type: 'campaignCustomData',
		parameters: { operation: 'delete', memberId: '={{ $json.id }}' },
		input: [{ id: 'a' }, { id: 'b' }],
		read: false,
		failedFields: ['memberId'],
	},
	{
		name: 'legacy data deleteKeys',
		type: 'campaignLegacyData',
		parameters: { operation: 'deleteKeys', memberId: '={{ $json.id }}', keys: 'grade, points' },
		input: [{ id: 'a' }, { id: 'b' }],
		read: false,
		failedFields: ['memberId'],
	},
	{
		name: 'members v1 get',
		type: 'campaignMembers',
		parameters: { apiVersion: 'v1', operation: 'get', memberId: 'm1' },
		input: [{}],
		read: true,
		failedFields: [],
	},
	{
		name: 'members v2 get',
		type: 'campaignMembers',
		parameters: { apiVersion: 'v2', operation: 'get', phoneNumber: '010-1234-5678' },
		input: [{}],
		read: true,
		failedFields: [],
	},
	{
		name: 'members v1 upsert',
		type: 'campaignMembers',
		parameters: { apiVersion: 'v1', operation: 'upsert' },
		input: members,
		read: false,
		failedFields: ['memberId', 'phoneNumber'],
	},
	{
		name: 'members v2 upsert',
		type: 'campaignMembers',
		parameters: { apiVersion: 'v2', operation: 'upsert' },
		input: members,
		read: false,
		failedFields: ['memberId', 'phoneNumber'],
	},
	{
		name: 'members v1 delete',
		type: 'campaignMembers',
		parameters: { apiVersion: 'v1', operation: 'delete', memberId: '={{ $json.memberId }}' },
		input: members,
		read: false,
		failedFields: ['memberId'],
	},
	{
		name: 'members v2 delete',
		type: 'campaignMembers',
		parameters: { apiVersion: 'v2', operation: 'delete', phoneNumber: '={{ $json.phoneNumber }}' },
		input: members,
		read: false,
		failedFields: ['phoneNumber'],
	},
	{
		name: 'alimtalk send',
		type: 'campaignAlimtalk',
		parameters: SEND_PARAMETERS,
		input: sendJson(
			sendInputs([
				{ campaign: 'PLAIN', phone: 0, k1: 'name', v1: 'Kim', k2: 'coupon', v2: 'X' },
				{ campaign: 'PLAIN', phone: 1, k1: 'name', v1: 'Lee', k2: 'coupon', v2: 'Y' },
			]),
		),
		read: false,
		failedFields: ['campaignKey', 'phoneNumber'],
		send: true,
	},
];

const LIMIT = 2000;

/** Everything wrong with one run, in words (empty when the run behaved). */
function problems(op: Op, bad: Bad, result: RunResult): string[] {
	const found: string[] = [];
	const check = (fn: () => void) => {
		try {
			fn();
		} catch (error) {
			found.push((error as Error).message);
		}
	};
	if (result.error) {
		check(() => expectClearError(result, 'error'));
		const e = result.error as unknown as { message?: string; description?: string };
		if ((e.message ?? '').length > LIMIT || (e.description ?? '').length > LIMIT)
			found.push('the error message carries the body');
		return found;
	}
	const out: INodeExecutionData[][] = result.out;
	if (op.read) {
		if (op.type === 'campaignMembers' ? (bad.memberReadFails ?? bad.readFails) : bad.readFails)
			found.push(`the read ended without an error (${out[0]?.length ?? 0} items)`);
		for (const item of out[0] ?? []) {
			const json = item.json;
			if (json.error !== undefined) continue;
			const wellFormed =
				op.type === 'campaignMembers'
					? json.memberId !== null || json.phoneNumber !== null
					: typeof json.key === 'string' && json.key !== '' && json.memberId !== '';
			if (!wellFormed)
				found.push(`a read item without its identity: ${JSON.stringify(json).slice(0, 200)}`);
		}
		return found;
	}
	check(() =>
		checkWriteOutputs(out, op.input.length, {
			failedFields: op.failedFields,
			eachIndexOnce: false,
		}),
	);
	const sendTolerates =
		op.send === true &&
		/empty body, HTTP 200|JSON (null|array|string|number)|without a code/.test(bad.name);
	if (bad.noSuccess && !sendTolerates && (out[0]?.length ?? 0) > 0)
		found.push(`${out[0].length} items on Success for an answer that says nothing`);
	if (JSON.stringify(out).length > LIMIT * 10 && !op.send) found.push('the outputs carry the body');
	return found;
}

describe.each(OPS.map((op): [string, Op] => [op.name, op]))('%s', (_name, op) => {
	it('answers every bad response with a clear error or well-formed items', async () => {
		const found: string[] = [];
		for (const bad of BAD) {
			const server = await startScripted(() => bad.answer);
			try {
				const result = await run(
					{
						type: op.type,
						parameters: {
							...op.parameters,
							options: {
								...((op.parameters.options as IDataObject) ?? {}),
								maxRetries: 0,
								timeoutMs: 10000,
							},
						},
						input: op.input,
						credentials: { baseUrl: server.baseUrl, apiKey: API_KEY, memberApiVersion: 'any' },
					},
					`${op.name} / ${bad.name}`,
				);
				tally.badResponses += server.seen.length;
				scanRequests(
					op.name,
					server.seen.map((s) => ({ body: s.body, url: s.url })),
				);
				if (server.seen.length === 0) found.push(`${bad.name}: no request was sent`);
				for (const p of problems(op, bad, result)) found.push(`${bad.name}: ${p}`);
			} finally {
				await server.close();
			}
		}
		expect(found).toEqual([]);
	});
});

describe('failure rows that name no member of the request', () => {
	it('claim nothing stored: every item goes to Failed, none to Success', async () => {
		const server = await startScripted(() => ({
			body: envelope(1, [{ failCode: 'F02', failKey: 'grade' }]),
		}));
		try {
			const input = [
				{ memberId: 'a', grade: 'A' },
				{ memberId: 'b', points: 3 },
			];
			const result = await run(
				{
					type: 'campaignCustomData',
					parameters: { operation: 'create', options: { maxRetries: 0 } },
					input,
					credentials: { baseUrl: server.baseUrl, apiKey: API_KEY },
				},
				'failure row naming no member',
			);
			tally.badResponses += server.seen.length;
			expect(result.error).toBeUndefined();
			checkWriteOutputs(result.out, input.length, {
				failedFields: ['memberId'],
				eachIndexOnce: false,
			});
			expect(result.out[0]).toHaveLength(0);
			expect(String(result.out[1][0].json.message)).toContain('named no member of this request');
		} finally {
			await server.close();
		}
	});
});
