import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { expectEachInputOnce, pairsOf, useSandbox } from '../support';
import { consentRows, json, phoneFor, requestsTo, runMembers } from './support';

const sb = useSandbox();
const UPSERT_V2 = { operation: 'upsert', apiVersion: 'v2' };

/** 1,500 rows: bad rows at 10, 20, 30, duplicate numbers at 40, 41, 1200 and 1301. */
function mixedRows(): IDataObject[] {
	const input: IDataObject[] = Array.from({ length: 1500 }, (_, i) => ({
		memberId: `m${i}`,
		phoneNumber: phoneFor(i),
		isReceive: i % 2 === 0,
		name: `Member ${i}`,
	}));
	input[10].phoneNumber = 'not-a-phone';
	delete input[20].memberId;
	input[30].name = '가'.repeat(21); // 21 characters (63 bytes in UTF-8)
	input[31].name = '가'.repeat(20); // 20 characters: allowed although 60 bytes
	input[40].phoneNumber = phoneFor(5); // duplicates of item 5, same request
	input[41].phoneNumber = phoneFor(5).replace(/-/g, ''); // same number in another form
	input[1200].phoneNumber = phoneFor(6); // same number as item 6, but in the second request
	input[1301].phoneNumber = phoneFor(1300); // duplicate inside the second request
	return input;
}

/** The Failed items of mixedRows: the rows caught before sending, and F11 from the service. */
function expectMixedFailures(failed: INodeExecutionData[]): void {
	const byIndex = new Map(failed.map((item) => [pairsOf(item)[0], item.json]));
	expect([...byIndex.keys()].sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 41, 1301]);
	expect(byIndex.get(10)).toMatchObject({
		code: 'F02',
		memberId: 'm10',
		phoneNumber: 'not-a-phone',
		apiVersion: 'v2',
	});
	expect(byIndex.get(20)).toMatchObject({
		code: 'F01',
		memberId: null,
		phoneNumber: phoneFor(20),
	});
	expect(byIndex.get(30)).toMatchObject({ code: 'F03', memberId: 'm30' });
	expect(String(byIndex.get(30)?.message)).toContain('21 characters');
	expect(byIndex.get(40)).toMatchObject({
		code: 'F11',
		memberId: 'm40',
		phoneNumber: phoneFor(5),
		duplicateOfItem: 5,
	});
	expect(String(byIndex.get(40)?.message)).toMatch(/Input item 5 \(member ID "m5"\)/);
	expect(byIndex.get(41)).toMatchObject({ code: 'F11', memberId: 'm41', duplicateOfItem: 5 });
	expect(byIndex.get(1301)).toMatchObject({
		code: 'F11',
		memberId: 'm1301',
		duplicateOfItem: 1300,
	});
	for (const failure of byIndex.values()) expect(typeof failure.message).toBe('string');
}

/** What the sandbox holds after mixedRows. */
function expectMixedStored(): void {
	const stored = sb.state.membersV2;
	// 1500 - 3 refused - 3 duplicates left out - 1 number reused across requests (later one wins)
	expect(stored.size).toBe(1493);
	expect(stored.get(phoneFor(5).replace(/-/g, ''))?.memberId).toBe('m5');
	expect(stored.get(phoneFor(6).replace(/-/g, ''))?.memberId).toBe('m1200');
	expect(stored.get(phoneFor(31).replace(/-/g, ''))?.name).toBe('가'.repeat(20));
	expect(stored.get(phoneFor(1).replace(/-/g, ''))).toEqual({
		memberId: 'm1',
		phoneNumber: phoneFor(1),
		isReceive: 'false',
		name: 'Member 1',
	});
}

describe('members v2 upsert', () => {
	it('sends 1,500 rows in 2 requests; F02, F01, F03 caught before sending, F11 from the service, the rest stored', async () => {
		const input = mixedRows();
		const result = await runMembers(sb, { parameters: UPSERT_V2, input });
		expect(result.error).toBeUndefined();
		const [success, failed] = result.out;

		const saves = requestsTo(sb, 'POST', '/v2/users/sms');
		expect(saves).toHaveLength(2);
		expect((saves[0].body as unknown[]).length).toBe(1000);
		expect((saves[1].body as unknown[]).length).toBe(497);
		const sentIds = new Set(
			[...(saves[0].body as IDataObject[]), ...(saves[1].body as IDataObject[])].map(
				(r) => r.phoneNumber,
			),
		);
		expect(sentIds.has('not-a-phone')).toBe(false);

		expectMixedFailures(failed);

		expect(success).toHaveLength(1494);
		expectEachInputOnce(result.out, 1500);
		expect(success[0].json).toEqual({
			memberId: 'm0',
			phoneNumber: phoneFor(0),
			isReceive: true,
			name: 'Member 0',
			apiVersion: 'v2',
		});

		expectMixedStored();
	});

	it.each([
		['a bare array', 'array'],
		['an object wrapping the array', 'object'],
	] as const)('reads failure rows given as %s, with string codes', async (_label, shape) => {
		sb.configure({ v2FailureShape: shape, stringCodes: true });
		const input = [
			{ memberId: 'a', phoneNumber: '010-1111-2222', isReceive: 'Y' },
			{ memberId: 'b', phoneNumber: '010-1111-2222', isReceive: 'N' },
			{ memberId: 'c', phoneNumber: '010-3333-4444' },
		];
		const { out, error } = await runMembers(sb, { parameters: UPSERT_V2, input });
		expect(error).toBeUndefined();
		expect(json(out[0]).map((r) => r.memberId)).toEqual(['a', 'c']);
		expect(out[1]).toHaveLength(1);
		expect(out[1][0].json).toMatchObject({
			code: 'F11',
			memberId: 'b',
			phoneNumber: '010-1111-2222',
			duplicateOfItem: 0,
		});
		expect(out[1][0].pairedItem).toEqual({ item: 1 });
		// The service's own failureMessage is kept next to the plain words.
		expect(String(out[1][0].json.message)).toContain(
			'phoneNumber repeats an earlier row of this request',
		);
	});

	it('takes every isReceive form, sends it as "true"/"false", and fails anything else naming the value', async () => {
		const forms: unknown[] = [true, false, 'true', 'FALSE', 'Y', 'n', 1, 0, '1', '0'];
		const consent = [true, false, true, false, true, false, true, false, true, false];
		// Absent means refused; 'maybe' and 2 are no consent form.
		forms.push(undefined, null, '', 'maybe', 2);
		consent.push(false, false, false);
		const input = consentRows(forms);
		const { out } = await runMembers(sb, { parameters: UPSERT_V2, input });
		const sent = requestsTo(sb, 'POST', '/v2/users/sms')[0].body as IDataObject[];
		expect(sent.map((r) => r.isReceive)).toEqual(consent.map(String));
		expect(json(out[0]).map((r) => r.isReceive)).toEqual(consent);
		expect(json(out[1])).toEqual([
			expect.objectContaining({
				code: '-9997',
				memberId: 'm13',
				message: expect.stringContaining('"maybe"'),
			}),
			expect.objectContaining({
				code: '-9997',
				memberId: 'm14',
				message: expect.stringContaining('isReceive is 2'),
			}),
		]);
		expectEachInputOnce(out, forms.length);
	});

	it('normalizes phone numbers to 010-1234-5678 by default and refuses what cannot be one without a request', async () => {
		const input = [
			{ memberId: 'a', phoneNumber: '01012345678' },
			{ memberId: 'b', phoneNumber: '010 2345 6789' },
			{ memberId: 'c', phoneNumber: '+82 10-3456-7890' },
			{ memberId: 'd', phoneNumber: '011-123-4567' },
			{ memberId: 'e', phoneNumber: '12345' },
			{ memberId: 'f', phoneNumber: '' },
		];
		const { out } = await runMembers(sb, { parameters: UPSERT_V2, input });
		expect(json(out[0]).map((r) => r.phoneNumber)).toEqual([
			'010-1234-5678',
			'010-2345-6789',
			'010-3456-7890',
			'011-123-4567',
		]);
		expect(
			(requestsTo(sb, 'POST', '/v2/users/sms')[0].body as IDataObject[]).map((r) => r.phoneNumber),
		).toEqual(['010-1234-5678', '010-2345-6789', '010-3456-7890', '011-123-4567']);
		expect(json(out[1])).toEqual([
			expect.objectContaining({
				code: 'F02',
				memberId: 'e',
				phoneNumber: '12345',
				message: expect.stringContaining('"12345"'),
			}),
			expect.objectContaining({ code: 'F02', memberId: 'f', phoneNumber: null }),
		]);
	});

	it('with normalization off, refuses a number not written 010-1234-5678 itself (F02) and sends the rest as given', async () => {
		const input = [
			{ memberId: 'a', phoneNumber: '010-1234-5678' },
			{ memberId: 'b', phoneNumber: '01023456789' },
		];
		const { out } = await runMembers(sb, {
			parameters: { ...UPSERT_V2, options: { normalizePhoneNumbers: false } },
			input,
		});
		expect(json(out[0]).map((r) => r.memberId)).toEqual(['a']);
		expect(out[1][0].json).toMatchObject({
			code: 'F02',
			memberId: 'b',
			phoneNumber: '01023456789',
		});
		expect(String(out[1][0].json.message)).toContain('Normalize Phone Numbers');
		expect(requestsTo(sb, 'POST', '/v2/users/sms')[0].body).toEqual([
			{ memberId: 'a', phoneNumber: '010-1234-5678', isReceive: 'false' },
		]);
	});

	it('refuses both a missing id and a bad phone as F00', async () => {
		const { out } = await runMembers(sb, { parameters: UPSERT_V2, input: [{ phoneNumber: 'x' }] });
		expect(out[1][0].json).toMatchObject({ code: 'F00', memberId: null, phoneNumber: 'x' });
		expect(sb.requests).toHaveLength(0);
	});

	it('reads the row from parameters in Define Below mode, per item, with expressions', async () => {
		const { out } = await runMembers(sb, {
			parameters: {
				...UPSERT_V2,
				mappingMode: 'defineBelow',
				memberId: '={{ $json.id }}',
				phoneNumber: '={{ $json.tel }}',
				isReceive: '={{ $json.consent }}',
				name: '={{ $json.fullName }}',
			},
			input: [
				{ id: 'u1', tel: '01099998888', consent: 'Y', fullName: '김철수' },
				{ id: 'u2', tel: '010-7777-6666', consent: false, fullName: '' },
			],
		});
		expect(json(out[0])).toEqual([
			{
				memberId: 'u1',
				phoneNumber: '010-9999-8888',
				isReceive: true,
				name: '김철수',
				apiVersion: 'v2',
			},
			{
				memberId: 'u2',
				phoneNumber: '010-7777-6666',
				isReceive: false,
				name: null,
				apiVersion: 'v2',
			},
		]);
		expect(requestsTo(sb, 'POST', '/v2/users/sms')[0].body).toEqual([
			{ memberId: 'u1', phoneNumber: '010-9999-8888', isReceive: 'true', name: '김철수' },
			{ memberId: 'u2', phoneNumber: '010-7777-6666', isReceive: 'false' },
		]);
	});

	it('chunks at the Batch Size option', async () => {
		const input = Array.from({ length: 25 }, (_, i) => ({
			memberId: `m${i}`,
			phoneNumber: phoneFor(i),
		}));
		const { out } = await runMembers(sb, {
			parameters: { ...UPSERT_V2, options: { batchSize: 10 } },
			input,
		});
		expect(
			requestsTo(sb, 'POST', '/v2/users/sms').map((r) => (r.body as unknown[]).length),
		).toEqual([10, 10, 5]);
		expect(out[0]).toHaveLength(25);
		expect(sb.state.membersV2.size).toBe(25);
	});
});
