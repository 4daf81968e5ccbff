import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from '../support';
import { json, runMembers } from './support';

const sb = useSandbox();

function seed(): void {
	const { membersV1, membersV2 } = sb.state;
	membersV1.set('kim', {
		memberId: 'kim',
		phoneNumber: '01012345678',
		isReceive: true,
		name: '김민수',
	});
	membersV1.set('lee', { memberId: 'lee', phoneNumber: '010-2222-3333', isReceive: false });
	membersV2.set('01012345678', {
		memberId: 'kim',
		phoneNumber: '010-1234-5678',
		isReceive: 'true',
		name: '김민수',
	});
	membersV2.set('01022223333', {
		memberId: 'lee',
		phoneNumber: '010-2222-3333',
		isReceive: 'false',
	});
	membersV2.set('01044445555', {
		memberId: 'kim',
		phoneNumber: '010-4444-5555',
		isReceive: 'false',
	});
}

const SHAPE = ['apiVersion', 'isReceive', 'memberId', 'name', 'phoneNumber'];

describe('members get', () => {
	beforeEach(seed);

	it('gives v1 and v2 records in one shape (isReceive boolean, name null when none)', async () => {
		const input = [{ id: 'kim' }, { id: 'lee' }];
		const parameters = { operation: 'get', memberId: '={{ $json.id }}' };
		const v1 = await runMembers(sb, { parameters: { ...parameters, apiVersion: 'v1' }, input });
		const v2 = await runMembers(sb, { parameters: { ...parameters, apiVersion: 'v2' }, input });
		expect(v1.out).toHaveLength(1);
		expect(v2.out).toHaveLength(1);
		expect(json(v1.out[0])).toEqual([
			{
				memberId: 'kim',
				phoneNumber: '010-1234-5678',
				isReceive: true,
				name: '김민수',
				apiVersion: 'v1',
			},
			{
				memberId: 'lee',
				phoneNumber: '010-2222-3333',
				isReceive: false,
				name: null,
				apiVersion: 'v1',
			},
		]);
		// v2: a member id may have several records (one per phone number); each is one item paired with its input.
		expect(json(v2.out[0])).toEqual([
			{
				memberId: 'kim',
				phoneNumber: '010-1234-5678',
				isReceive: true,
				name: '김민수',
				apiVersion: 'v2',
			},
			{
				memberId: 'kim',
				phoneNumber: '010-4444-5555',
				isReceive: false,
				name: null,
				apiVersion: 'v2',
			},
			{
				memberId: 'lee',
				phoneNumber: '010-2222-3333',
				isReceive: false,
				name: null,
				apiVersion: 'v2',
			},
		]);
		expect(v2.out[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
		]);
		for (const record of [...json(v1.out[0]), ...json(v2.out[0])]) {
			expect(Object.keys(record).sort()).toEqual(SHAPE);
			expect(typeof record.isReceive).toBe('boolean');
		}
	});

	it.each(['v1', 'v2'])(
		'%s: finds by phone number in any form (normalized), and by both keys',
		async (apiVersion) => {
			const { out } = await runMembers(sb, {
				parameters: {
					operation: 'get',
					apiVersion,
					memberId: '={{ $json.id ?? "" }}',
					phoneNumber: '={{ $json.tel }}',
				},
				input: [
					{ tel: '01022223333' },
					{ id: 'kim', tel: '+82 10 1234 5678' },
					{ tel: '010-9999-9999' },
				],
			});
			expect(json(out[0]).map((r) => [r.memberId, r.phoneNumber])).toEqual([
				['lee', '010-2222-3333'],
				['kim', '010-1234-5678'],
			]);
			expect(out[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			const reads = sb.requests.filter((r) => r.method === 'GET');
			expect(reads.map((r) => r.query)).toEqual([
				{ phoneNumber: '010-2222-3333' },
				{ memberId: 'kim', phoneNumber: '010-1234-5678' },
				{ phoneNumber: '010-9999-9999' },
			]);
		},
	);

	it('stops with a clear error naming the item when neither member ID nor phone number is set', async () => {
		const { error, out } = await runMembers(sb, {
			parameters: { operation: 'get', apiVersion: 'v2', memberId: '={{ $json.id }}' },
			input: [{ id: 'kim' }, { id: '' }],
		});
		expect(error?.message).toBe('Set a Member ID or a Phone Number (or both) to look a member up');
		expect((error as unknown as IDataObject).context).toMatchObject({ itemIndex: 1 });
		expect(out).toEqual([]);
	});

	it('under "On Error: Continue" gives that item an error item and reads the others', async () => {
		const { error, out } = await runMembers(sb, {
			parameters: { operation: 'get', apiVersion: 'v1', memberId: '={{ $json.id }}' },
			input: [{ id: '' }, { id: 'lee' }],
			onError: 'continueRegularOutput',
		});
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1);
		expect(out[0][0]).toMatchObject({
			json: { error: expect.stringContaining('Set a Member ID') },
			pairedItem: { item: 0 },
		});
		expect(out[0][1]).toMatchObject({ json: { memberId: 'lee' }, pairedItem: { item: 1 } });
	});

	it('refuses a phone number that cannot be one, naming the item', async () => {
		const { error } = await runMembers(sb, {
			parameters: { operation: 'get', apiVersion: 'v2', phoneNumber: 'hello' },
			input: [{}],
		});
		expect(error?.message).toContain('"hello" cannot be a Korean mobile number');
		expect(sb.requests).toHaveLength(0);
	});
});

describe('members get: a member ID that is a number but not a finite one', () => {
	// Number("abc") is NaN, Number("1e999") is Infinity: what an expression gives for text that is no number.
	it.each(['abc', '1e999', '-1e999'])(
		'get refuses Number(%p) as an invalid member ID and sends nothing',
		async (id) => {
			for (const version of ['v1', 'v2'] as const) {
				sb.reset();
				const result = await runMembers(sb, {
					parameters: {
						apiVersion: version,
						operation: 'get',
						memberId: '={{ Number($json.id) }}',
					},
					input: [{ id }],
					onError: 'continueRegularOutput',
				});
				expect(sb.requests).toHaveLength(0);
				expect(json(result.out[0])).toEqual([
					expect.objectContaining({
						error: expect.stringMatching(/Member ID is not a valid member ID/),
					}),
				]);
			}
		},
	);
});
