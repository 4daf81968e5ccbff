/**
 * Conformance: member records v2 (docs/service-rules.md#members) on `/v2/users/sms`.
 */
import type { MemberV2Record } from '../../sandbox/types';
import { get, post, useTestSandbox } from './support';

interface SaveFailure {
	memberId: unknown;
	phoneNumber: unknown;
	isReceive: unknown;
	name: unknown;
	failureCode: string;
	failureMessage: string;
}

const PATH = '/v2/users/sms';
const DELETE_PATH = '/v2/users/sms?delete';

const sb = useTestSandbox();

const records = () => [...sb.state.membersV2.values()];

describe('save (4.4 rules 2-6)', () => {
	it.each([
		['a bare array', (rows: unknown[]) => rows],
		['{ rows }', (rows: unknown[]) => ({ rows })],
		['{ users }', (rows: unknown[]) => ({ users: rows })],
		['{ data }', (rows: unknown[]) => ({ data: rows })],
		['{ list }', (rows: unknown[]) => ({ list: rows })],
	])('accepts the rows as %s (container not shown)', async (_label, wrap) => {
		const res = await post(
			sb,
			PATH,
			wrap([{ memberId: 'a', phoneNumber: '010-1234-5678', isReceive: 'true', name: 'Kim' }]),
		);
		expect(res.code).toBe(0);
		expect(res.body.processValue).toEqual([]);
		expect(records()).toEqual([
			{ memberId: 'a', phoneNumber: '010-1234-5678', isReceive: 'true', name: 'Kim' },
		]);
	});

	it('accepts a single row object', async () => {
		expect((await post(sb, PATH, { memberId: 'a', phoneNumber: '010-1234-5678' })).code).toBe(0);
		expect(records()).toHaveLength(1);
	});

	it('isReceive: default "false"; "true"/"false" and booleans are stored as strings', async () => {
		await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: '010-1111-1111' },
			{ memberId: 'b', phoneNumber: '010-2222-2222', isReceive: true },
			{ memberId: 'c', phoneNumber: '010-3333-3333', isReceive: 'false' },
		]);
		expect(records().map((r) => r.isReceive)).toEqual(['false', 'true', 'false']);
	});

	it('-9997 for an isReceive that is not "true"/"false" (no row code fits), nothing stored', async () => {
		const res = await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: '010-1111-1111' },
			{ memberId: 'b', phoneNumber: '010-2222-2222', isReceive: 'Y' },
		]);
		expect(res.code).toBe(-9997);
		expect(records()).toEqual([]);
	});

	it('F00: no member id and a bad phone', async () => {
		const res = await post(sb, PATH, [{ phoneNumber: '01012345678', isReceive: 'true' }]);
		expect(res.code).toBe(0);
		expect(res.value<SaveFailure[]>()).toEqual([
			{
				memberId: null,
				phoneNumber: '01012345678',
				isReceive: 'true',
				name: null,
				failureCode: 'F00',
				failureMessage: expect.any(String),
			},
		]);
	});

	it('F01: no member id (or an empty one, or not a string)', async () => {
		const res = await post(sb, PATH, [
			{ phoneNumber: '010-1111-1111' },
			{ memberId: '', phoneNumber: '010-2222-2222' },
			{ memberId: 7, phoneNumber: '010-3333-3333' },
		]);
		expect(res.value<SaveFailure[]>().map((r) => r.failureCode)).toEqual(['F01', 'F01', 'F01']);
		expect(records()).toEqual([]);
	});

	it.each([
		['01012345678'],
		['010 1234 5678'],
		['010.1234.5678'],
		['+82-10-1234-5678'],
		['02-123-4567'],
		['010-12345-678'],
		[null],
	])('F02: the phone %p is not 01X-XXX(X)-XXXX', async (phone) => {
		const res = await post(sb, PATH, [{ memberId: 'a', phoneNumber: phone, name: 'Kim' }]);
		expect(res.value<SaveFailure[]>()).toEqual([
			expect.objectContaining({
				memberId: 'a',
				phoneNumber: phone,
				name: 'Kim',
				failureCode: 'F02',
			}),
		]);
		expect(records()).toEqual([]);
	});

	it('accepts 010-XXXX-XXXX and 01X-XXX-XXXX', async () => {
		const res = await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: '010-1234-5678' },
			{ memberId: 'b', phoneNumber: '011-123-4567' },
		]);
		expect(res.value<SaveFailure[]>()).toEqual([]);
		expect(records()).toHaveLength(2);
	});

	it('F03: a name longer than 20 characters; 20 is fine', async () => {
		const res = await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: '010-1111-1111', name: 'x'.repeat(21) },
			{ memberId: 'b', phoneNumber: '010-2222-2222', name: 'x'.repeat(20) },
		]);
		expect(res.value<SaveFailure[]>()).toEqual([
			expect.objectContaining({ memberId: 'a', failureCode: 'F03' }),
		]);
		expect(records().map((r) => r.memberId)).toEqual(['b']);
	});

	it('F11: a phone repeating an earlier row of the request; the first row wins (rule 3)', async () => {
		const res = await post(sb, PATH, [
			{ memberId: 'first', phoneNumber: '010-1111-1111' },
			{ memberId: 'other', phoneNumber: '010-2222-2222' },
			{ memberId: 'second', phoneNumber: '010-1111-1111' },
		]);
		expect(res.value<SaveFailure[]>()).toEqual([
			expect.objectContaining({
				memberId: 'second',
				phoneNumber: '010-1111-1111',
				failureCode: 'F11',
			}),
		]);
		expect(records().map((r) => r.memberId)).toEqual(['first', 'other']);
	});

	it('correct rows are processed, erroneous rows come back in request order (rule 5)', async () => {
		const res = await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: 'bad' },
			{ memberId: 'b', phoneNumber: '010-1111-1111' },
			{ phoneNumber: '010-2222-2222' },
		]);
		expect(res.code).toBe(0);
		expect(res.value<SaveFailure[]>().map((r) => r.failureCode)).toEqual(['F02', 'F01']);
		expect(records().map((r) => r.memberId)).toEqual(['b']);
	});

	it('a save changes the record matched on the phone (rule 2): member id, consent and name', async () => {
		await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: '010-1111-1111', isReceive: 'true', name: 'Kim' },
		]);
		await post(sb, PATH, [{ memberId: 'b', phoneNumber: '010-1111-1111' }]);
		expect(records()).toEqual([
			{ memberId: 'b', phoneNumber: '010-1111-1111', isReceive: 'false' },
		]);
	});

	it('one member id may own several records (one per phone)', async () => {
		await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: '010-1111-1111' },
			{ memberId: 'a', phoneNumber: '010-2222-2222' },
		]);
		expect(records()).toHaveLength(2);
	});

	it('-1004 for more than 1000 rows (rule 4), nothing stored', async () => {
		const rows = Array.from({ length: 1001 }, (_, i) => ({
			memberId: `m${i}`,
			phoneNumber: `010-${String(1000 + i).padStart(4, '0')}-0000`,
		}));
		expect((await post(sb, PATH, { rows })).code).toBe(-1004);
		expect(records()).toEqual([]);
	});

	it("v2FailureShape 'object': processValue is { failList: [...] }", async () => {
		sb.configure({ v2FailureShape: 'object' });
		const ok = await post(sb, PATH, [{ memberId: 'a', phoneNumber: '010-1111-1111' }]);
		expect(ok.body.processValue).toEqual({ failList: [] });
		const bad = await post(sb, PATH, [{ memberId: 'a', phoneNumber: 'x' }]);
		expect(bad.value<{ failList: SaveFailure[] }>().failList[0].failureCode).toBe('F02');
	});

	it('-9997 for a body that is not JSON rows (a string, a container that is not an array)', async () => {
		expect((await post(sb, PATH, 'a')).code).toBe(-9997);
		expect((await post(sb, PATH, { rows: { memberId: 'a' } })).code).toBe(-9997);
	});
});

describe('read (4.4 rule 1)', () => {
	beforeEach(async () => {
		await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: '010-1111-1111', isReceive: 'true', name: 'Kim' },
			{ memberId: 'a', phoneNumber: '010-2222-2222' },
			{ memberId: 'b', phoneNumber: '011-333-4444' },
		]);
	});

	it('by memberId: every record of that id, isReceive as a string, no name field when none stored', async () => {
		const res = await get(sb, `${PATH}?memberId=a`);
		expect(res.value<MemberV2Record[]>()).toEqual([
			{ memberId: 'a', phoneNumber: '010-1111-1111', isReceive: 'true', name: 'Kim' },
			{ memberId: 'a', phoneNumber: '010-2222-2222', isReceive: 'false' },
		]);
		expect('name' in res.value<MemberV2Record[]>()[1]).toBe(false);
	});

	it('by phoneNumber: that record', async () => {
		expect((await get(sb, `${PATH}?phoneNumber=011-333-4444`)).value<MemberV2Record[]>()).toEqual([
			{ memberId: 'b', phoneNumber: '011-333-4444', isReceive: 'false' },
		]);
	});

	it('-9997 without memberId and phoneNumber', async () => {
		expect((await get(sb, PATH)).code).toBe(-9997);
	});
});

describe('delete (4.4 rule 7)', () => {
	beforeEach(async () => {
		await post(sb, PATH, [
			{ memberId: 'a', phoneNumber: '010-1111-1111' },
			{ memberId: 'b', phoneNumber: '010-2222-2222' },
			{ memberId: 'c', phoneNumber: '010-3333-3333' },
		]);
	});

	it.each([
		['{ phoneNumber }', { phoneNumber: '010-1111-1111' }],
		['[{ phoneNumber }]', [{ phoneNumber: '010-1111-1111' }]],
		['{ phoneNumbers: [...] }', { phoneNumbers: ['010-1111-1111'] }],
		['{ rows: [...] }', { rows: [{ memberId: 'a', phoneNumber: '010-1111-1111' }] }],
		['["010-..."]', ['010-1111-1111']],
	])('POST ?delete with %s removes the record', async (_label, body) => {
		const res = await post(sb, DELETE_PATH, body);
		expect(res.code).toBe(0);
		expect(res.body.processValue).toEqual([]);
		expect(records().map((r) => r.memberId)).toEqual(['b', 'c']);
	});

	it('?delete= with an empty value works too, and several rows delete several records', async () => {
		await post(sb, `${PATH}?delete=`, [
			{ phoneNumber: '010-1111-1111' },
			{ phoneNumber: '010-3333-3333' },
		]);
		expect(records().map((r) => r.memberId)).toEqual(['b']);
	});

	it('F02 for a missing or malformed phone (with the row memberId); correct rows are processed', async () => {
		const res = await post(sb, DELETE_PATH, [
			{ memberId: 'x', phoneNumber: '01022222222' },
			{ memberId: 'y' },
			{ phoneNumber: '010-3333-3333' },
		]);
		expect(res.code).toBe(0);
		expect(res.value<Array<Record<string, unknown>>>()).toEqual([
			{
				memberId: 'x',
				phoneNumber: '01022222222',
				failureCode: 'F02',
				failureMessage: expect.any(String),
			},
			{ memberId: 'y', phoneNumber: null, failureCode: 'F02', failureMessage: expect.any(String) },
		]);
		expect(records().map((r) => r.memberId)).toEqual(['a', 'b']);
	});

	it('an unknown (well-formed) phone is not an error', async () => {
		const res = await post(sb, DELETE_PATH, { phoneNumber: '010-9999-9999' });
		expect(res.code).toBe(0);
		expect(res.body.processValue).toEqual([]);
		expect(records()).toHaveLength(3);
	});

	it('-1004 for more than 1000 rows, nothing deleted', async () => {
		const phoneNumbers = Array.from({ length: 1001 }, () => '010-1111-1111');
		expect((await post(sb, DELETE_PATH, { phoneNumbers })).code).toBe(-1004);
		expect(records()).toHaveLength(3);
	});
});
