import type { IDataObject } from 'n8n-workflow';
import { expectEachInputOnce, pairsOf, useSandbox } from '../support';
import { consentRows, json, phoneFor, requestsTo, runMembers } from './support';

const sb = useSandbox();
const UPSERT_V1 = { operation: 'upsert', apiVersion: 'v1' };

const rows = (count: number, from = 0): IDataObject[] =>
	Array.from({ length: count }, (_, k) => ({
		memberId: `m${from + k}`,
		phoneNumber: phoneFor(from + k),
		isReceive: true,
	}));

/** Extra requests the halving may spend: 2 * ceil(log2 n) per refused row. */
const bound = (n: number, bad: number) => 2 * bad * Math.ceil(Math.log2(n));

describe('members v1 upsert', () => {
	describe.each([
		['HTTP 200 with the envelope', 'ok'],
		['HTTP 503 with the envelope', 'mapped'],
	] as const)(
		'a row the service refuses although it looks valid (%s)',
		(_label, errorHttpStatus) => {
			beforeEach(() => sb.configure({ errorHttpStatus }));

			it('stores all 999 valid rows of 1,000, fails only the refused one, within 2*log2(n) extra requests', async () => {
				sb.state.v1RejectMemberIds.set('m537', -1007);
				const { out, error } = await runMembers(sb, { parameters: UPSERT_V1, input: rows(1000) });
				expect(error).toBeUndefined();
				const saves = requestsTo(sb, 'POST', '/v1/users/sms');
				// The whole chunk, then halves down to the refused row: 20 more, within the 2*log2(n) bound.
				expect(saves).toHaveLength(21);
				expect(saves.length - 1).toBeLessThanOrEqual(bound(1000, 1));
				expect(saves[0].status).toBe(errorHttpStatus === 'mapped' ? 503 : 200);
				expect(saves[0].processCode).toBe(-1007);
				expect(out[1]).toHaveLength(1);
				expect(out[1][0].json).toMatchObject({
					code: '-1007',
					memberId: 'm537',
					phoneNumber: phoneFor(537),
					apiVersion: 'v1',
				});
				expect(out[1][0].pairedItem).toEqual({ item: 537 });
				expect(out[0]).toHaveLength(999);
				expectEachInputOnce(out, 1000);
				expect(sb.state.membersV1.size).toBe(999);
				expect(sb.state.membersV1.has('m537')).toBe(false);
			});

			it('finds several refused rows spread over several chunks by halving, within the bound per chunk', async () => {
				sb.state.v1RejectMemberIds.set('m3', -1006);
				sb.state.v1RejectMemberIds.set('m140', -1013);
				sb.state.v1RejectMemberIds.set('m141', -1012);
				const { out } = await runMembers(sb, {
					parameters: { ...UPSERT_V1, options: { batchSize: 100 } },
					input: rows(250),
				});
				const saves = requestsTo(sb, 'POST', '/v1/users/sms');
				// 3 chunks (100, 100, 50); chunk 1 holds one refused row, chunk 2 two.
				expect(saves).toHaveLength(33);
				expect(saves.length - 3).toBeLessThanOrEqual(bound(100, 1) + bound(100, 2));
				expect(json(out[1]).map((f) => [f.memberId, f.code])).toEqual([
					['m3', '-1006'],
					['m140', '-1013'],
					['m141', '-1012'],
				]);
				expect(sb.state.membersV1.size).toBe(247);
				expectEachInputOnce(out, 250);
			});
		},
	);

	it('checks the documented rules before sending, with the v1 codes, and never sends those rows', async () => {
		const input: IDataObject[] = [
			{ memberId: 'ok1', phoneNumber: '010-1000-0001', isReceive: true },
			{ memberId: '', phoneNumber: '010-1000-0002', isReceive: true },
			{ memberId: 'badphone', phoneNumber: '02-123-4567', isReceive: true },
			{ phoneNumber: 'nope' },
			{
				memberId: 'longname',
				phoneNumber: '010-1000-0005',
				isReceive: true,
				name: 'abcdefghijklmnopqrstu',
			},
			{ memberId: 'consent', phoneNumber: '010-1000-0006', isReceive: 'maybe' },
			{ memberId: 'ok2', phoneNumber: '010-1000-0007', name: '이영희' },
		];
		const { out } = await runMembers(sb, { parameters: UPSERT_V1, input });
		expect(json(out[1]).map((f) => [f.memberId, f.code])).toEqual([
			[null, '-1006'],
			['badphone', '-1007'],
			[null, '-1006'],
			['longname', '-1013'],
			['consent', '-1012'],
		]);
		expect(String(out[1][4].json.message)).toContain('"maybe"');
		const saves = requestsTo(sb, 'POST', '/v1/users/sms');
		expect(saves).toHaveLength(1);
		expect(saves[0].body).toEqual([
			{ memberId: 'ok1', phoneNumber: '010-1000-0001', isReceive: true },
			{ memberId: 'ok2', phoneNumber: '010-1000-0007', isReceive: false, name: '이영희' },
		]);
		expect(json(out[0]).map((r) => r.memberId)).toEqual(['ok1', 'ok2']);
		expectEachInputOnce(out, input.length);
	});

	it('always sends isReceive as a boolean, false when absent (v1 answers a missing field with -1012)', async () => {
		const forms: unknown[] = [true, 'false', 'y', 'N', 1, '0', undefined, null, ''];
		const consent = [true, false, true, false, true, false, false, false, false];
		const { out } = await runMembers(sb, { parameters: UPSERT_V1, input: consentRows(forms) });
		const sent = requestsTo(sb, 'POST', '/v1/users/sms')[0].body as IDataObject[];
		expect(sent.map((r) => r.isReceive)).toEqual(consent);
		expect(out[1]).toHaveLength(0);
		expect([...sb.state.membersV1.values()].map((r) => r.isReceive)).toEqual(consent);
	});

	it('normalizes phone numbers by default; with normalization off sends any mobile form as given', async () => {
		const input = [
			{ memberId: 'a', phoneNumber: '+82 10 1234 5678' },
			{ memberId: 'b', phoneNumber: '01023456789' },
		];
		await runMembers(sb, { parameters: UPSERT_V1, input });
		expect(
			(requestsTo(sb, 'POST', '/v1/users/sms')[0].body as IDataObject[]).map((r) => r.phoneNumber),
		).toEqual(['010-1234-5678', '010-2345-6789']);
		sb.reset();
		await runMembers(sb, {
			parameters: { ...UPSERT_V1, options: { normalizePhoneNumbers: false } },
			input: [input[1]],
		});
		expect((requestsTo(sb, 'POST', '/v1/users/sms')[0].body as IDataObject[])[0].phoneNumber).toBe(
			'01023456789',
		);
	});

	it('is not confused by the "col" misspelling of the status field', async () => {
		sb.configure({ v1ColMisspelling: true });
		const { out } = await runMembers(sb, { parameters: UPSERT_V1, input: rows(3) });
		expect(out[0]).toHaveLength(3);
		expect(out[0].map((item) => pairsOf(item)[0])).toEqual([0, 1, 2]);
	});
});
