import type { IDataObject } from 'n8n-workflow';
import { expectEachInputOnce, useSandbox } from '../support';
import { json, phoneFor, requestsTo, runMembers } from './support';

const sb = useSandbox();

function seedV1(count: number): void {
	for (let i = 0; i < count; i++) {
		sb.state.membersV1.set(`m${i}`, {
			memberId: `m${i}`,
			phoneNumber: phoneFor(i),
			isReceive: true,
		});
	}
}

function seedV2(count: number): void {
	for (let i = 0; i < count; i++) {
		const phoneNumber = phoneFor(i);
		sb.state.membersV2.set(phoneNumber.replace(/-/g, ''), {
			memberId: `m${i}`,
			phoneNumber,
			isReceive: 'true',
		});
	}
}

describe('members v1 delete', () => {
	const DELETE_V1 = { operation: 'delete', apiVersion: 'v1', memberId: '={{ $json.id }}' };

	it('deletes by member id with DELETE and an array of ids, chunked at Batch Size', async () => {
		seedV1(30);
		const input: IDataObject[] = Array.from({ length: 25 }, (_, i) => ({ id: `m${i}` }));
		input.push({ id: '' });
		const { out, error } = await runMembers(sb, {
			parameters: { ...DELETE_V1, options: { batchSize: 10 } },
			input,
		});
		expect(error).toBeUndefined();
		const deletes = requestsTo(sb, 'DELETE', '/v1/users/sms');
		expect(deletes.map((r) => r.body)).toEqual([
			Array.from({ length: 10 }, (_, i) => `m${i}`),
			Array.from({ length: 10 }, (_, i) => `m${i + 10}`),
			Array.from({ length: 5 }, (_, i) => `m${i + 20}`),
		]);
		expect(out[0]).toHaveLength(25);
		expect(out[0][0].json).toEqual({ memberId: 'm0', deleted: true, apiVersion: 'v1' });
		expect(out[1]).toHaveLength(1);
		expect(out[1][0]).toMatchObject({
			json: { code: '-1006', memberId: null },
			pairedItem: { item: 25 },
		});
		expectEachInputOnce(out, 26);
		expect([...sb.state.membersV1.keys()]).toEqual(['m25', 'm26', 'm27', 'm28', 'm29']);
	});

	it('with Delete All Information, sends POST ?delete with {memberId}, one member per request', async () => {
		seedV1(4);
		const { out } = await runMembers(sb, {
			parameters: { ...DELETE_V1, options: { deleteAllInformation: true, batchSize: 1000 } },
			input: [{ id: 'm0' }, { id: 'm2' }, { id: 'm3' }],
		});
		const posts = requestsTo(sb, 'POST', '/v1/users/sms');
		expect(posts).toHaveLength(3);
		for (const post of posts) expect(post.query).toEqual({ delete: '' });
		expect(posts.map((r) => r.body)).toEqual([
			{ memberId: 'm0' },
			{ memberId: 'm2' },
			{ memberId: 'm3' },
		]);
		expect(json(out[0])).toEqual([
			{ memberId: 'm0', deleted: true, allInformation: true, apiVersion: 'v1' },
			{ memberId: 'm2', deleted: true, allInformation: true, apiVersion: 'v1' },
			{ memberId: 'm3', deleted: true, allInformation: true, apiVersion: 'v1' },
		]);
		expect([...sb.state.membersV1.keys()]).toEqual(['m1']);
	});
});

describe('members v2 delete', () => {
	const DELETE_V2 = { operation: 'delete', apiVersion: 'v2', phoneNumber: '={{ $json.tel }}' };

	it('deletes by phone number with POST ?delete and rows of {phoneNumber}, chunked at Batch Size', async () => {
		seedV2(30);
		const input: IDataObject[] = Array.from({ length: 21 }, (_, i) => ({
			tel: phoneFor(i).replace(/-/g, ''),
		}));
		input.push({ tel: 'garbage' });
		const { out, error } = await runMembers(sb, {
			parameters: { ...DELETE_V2, options: { batchSize: 10 } },
			input,
		});
		expect(error).toBeUndefined();
		const posts = requestsTo(sb, 'POST', '/v2/users/sms');
		expect(posts).toHaveLength(3);
		for (const post of posts) expect(post.query).toEqual({ delete: '' });
		expect(posts[0].body).toEqual(
			Array.from({ length: 10 }, (_, i) => ({ phoneNumber: phoneFor(i) })),
		);
		expect((posts[1].body as unknown[]).length).toBe(10);
		// A request of one row carries exactly the documented object.
		expect(posts[2].body).toEqual({ phoneNumber: phoneFor(20) });
		expect(out[0]).toHaveLength(21);
		expect(out[0][0].json).toEqual({ phoneNumber: phoneFor(0), deleted: true, apiVersion: 'v2' });
		expect(out[1]).toHaveLength(1);
		expect(out[1][0]).toMatchObject({
			json: { code: 'F02', phoneNumber: 'garbage', apiVersion: 'v2' },
			pairedItem: { item: 21 },
		});
		expectEachInputOnce(out, 22);
		expect(sb.state.membersV2.size).toBe(9);
	});

	it('works when the service wraps its (empty) failure rows in an object and sends codes as strings', async () => {
		seedV2(3);
		sb.configure({ v2FailureShape: 'object', stringCodes: true });
		const { out } = await runMembers(sb, {
			parameters: DELETE_V2,
			input: [{ tel: phoneFor(0) }, { tel: phoneFor(1) }],
		});
		expect(out[0]).toHaveLength(2);
		expect(sb.state.membersV2.size).toBe(1);
	});
});

describe('members v1 delete: a member ID that is a number but not a finite one', () => {
	it.each(['abc', '1e999'])(
		'v1 delete refuses Number(%p) on Failed with -1006 and sends nothing',
		async (id) => {
			const result = await runMembers(sb, {
				parameters: { apiVersion: 'v1', operation: 'delete', memberId: '={{ Number($json.id) }}' },
				input: [{ id }],
			});
			expect(sb.requests).toHaveLength(0);
			expect(result.out[0]).toHaveLength(0);
			expect(json(result.out[1])).toEqual([
				expect.objectContaining({
					code: '-1006',
					message: expect.stringMatching(/not a valid member ID/),
				}),
			]);
		},
	);
});
