/**
 * Failure rows only the service can give (the node's own checks catch the documented rules
 * first), from a scripted server: v2 save rows with F00-F03, a v2 delete row with F02, and a
 * row that matches nothing that was sent.
 */
import type { IDataObject } from 'n8n-workflow';
import { envelope, startScripted, type ScriptedServer } from '../support/scripted-server';
import { expectEachInputOnce, pairsOf, runNode } from '../support';
import { json } from './support';

let server: ScriptedServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function run(parameters: IDataObject, input: IDataObject[], processValue: unknown) {
	server = await startScripted(() => ({ body: envelope(0, processValue) }));
	const result = await runNode({
		type: 'campaignMembers',
		parameters: { ...parameters, options: { retryDelayMs: 0 } },
		input,
		credentials: { baseUrl: server.baseUrl, apiKey: 'scripted-key' },
	});
	return {
		...result,
		sent: server.seen.map((s) => ({ url: s.url, body: JSON.parse(s.body) as unknown })),
	};
}

describe('v2 failure rows from the service', () => {
	it('routes save rows the service refuses to Failed with its code and message, the rest to Success', async () => {
		const input = [
			{ memberId: 'a', phoneNumber: '010-1111-1111' },
			{ memberId: 'b', phoneNumber: '010-2222-2222', name: 'Bo' },
			{ memberId: 'c', phoneNumber: '010-3333-3333' },
		];
		const { out, error } = await run({ operation: 'upsert', apiVersion: 'v2' }, input, {
			failList: [
				{
					memberId: 'b',
					phoneNumber: '010-2222-2222',
					isReceive: 'false',
					name: 'Bo',
					failureCode: 'f03',
					failureMessage: 'name rule',
				},
				{
					memberId: null,
					phoneNumber: '010-3333-3333',
					isReceive: 'false',
					name: null,
					failureCode: 'F01',
				},
			],
		});
		expect(error).toBeUndefined();
		expect(json(out[0]).map((r) => r.memberId)).toEqual(['a']);
		expect(json(out[1])).toEqual([
			{
				code: 'F03',
				message: 'The name is longer than 20 characters (name rule)',
				memberId: 'b',
				phoneNumber: '010-2222-2222',
				apiVersion: 'v2',
			},
			{
				code: 'F01',
				message: 'No member ID',
				memberId: 'c',
				phoneNumber: '010-3333-3333',
				apiVersion: 'v2',
			},
		]);
		expectEachInputOnce(out, 3);
	});

	it('routes F00 and F02 save rows the service refuses (a phone the service reads differently) with their codes', async () => {
		const input = [
			{ memberId: 'a', phoneNumber: '010-1111-1111' },
			{ memberId: 'b', phoneNumber: '010-2222-2222' },
			{ memberId: 'c', phoneNumber: '010-3333-3333', isReceive: 'Y' },
		];
		const { out, error, sent } = await run({ operation: 'upsert', apiVersion: 'v2' }, input, [
			{
				memberId: 'a',
				phoneNumber: '010-1111-1111',
				isReceive: 'false',
				name: null,
				failureCode: 'F02',
				failureMessage: 'phone format',
			},
			{
				memberId: '',
				phoneNumber: '010-2222-2222',
				isReceive: 'false',
				name: null,
				failureCode: 'F00',
			},
		]);
		expect(error).toBeUndefined();
		expect(sent).toHaveLength(1);
		expect(json(out[0])).toEqual([
			{
				memberId: 'c',
				phoneNumber: '010-3333-3333',
				isReceive: true,
				name: null,
				apiVersion: 'v2',
			},
		]);
		expect(json(out[1]).map((r) => [r.code, r.memberId, r.phoneNumber])).toEqual([
			['F02', 'a', '010-1111-1111'],
			['F00', 'b', '010-2222-2222'],
		]);
		expect(String(json(out[1])[0].message)).toContain('phone format');
		expect(json(out[1])[1].message).toBe(
			'No member ID, and the phone number format does not match',
		);
		expectEachInputOnce(out, 3);
	});

	it('matches a delete failure row (F02) by phone number', async () => {
		const input = [{ tel: '010-1111-1111' }, { tel: '010-2222-2222' }];
		const { out, sent } = await run(
			{ operation: 'delete', apiVersion: 'v2', phoneNumber: '={{ $json.tel }}' },
			input,
			[
				{
					phoneNumber: '010-2222-2222',
					failureCode: 'F02',
					failureMessage: 'phone missing or wrong format',
				},
			],
		);
		expect(sent[0].url).toMatch(/^\/v2\/users\/sms\?delete(=)?$/);
		expect(json(out[0])).toEqual([
			{ phoneNumber: '010-1111-1111', deleted: true, apiVersion: 'v2' },
		]);
		expect(out[1][0]).toMatchObject({
			json: { code: 'F02', phoneNumber: '010-2222-2222' },
			pairedItem: { item: 1 },
		});
	});

	it('reports a failure row that matches no sent row against the whole request', async () => {
		const input = [
			{ memberId: 'a', phoneNumber: '010-1111-1111' },
			{ memberId: 'b', phoneNumber: '010-2222-2222' },
		];
		const { out } = await run({ operation: 'upsert', apiVersion: 'v2' }, input, [
			{ memberId: 'zzz', phoneNumber: '010-9999-9999', failureCode: 'F02' },
		]);
		expect(out[0]).toHaveLength(2);
		expect(out[1]).toHaveLength(1);
		expect(out[1][0].json).toMatchObject({
			code: 'F02',
			memberId: 'zzz',
			phoneNumber: '010-9999-9999',
		});
		expect(String(out[1][0].json.message)).toContain('matches no row sent');
		expect(pairsOf(out[1][0])).toEqual([0, 1]);
	});
});
