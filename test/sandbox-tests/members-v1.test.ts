/**
 * Conformance: member records v1 (docs/service-rules.md#members) on `/v1/users/sms`.
 */
import { call, del, get, post, useTestSandbox } from './support';

interface Row {
	memberId: string;
	phoneNumber: string;
	isReceive: boolean;
	name?: string;
}

const PATH = '/v1/users/sms';
const row = (
	memberId: string,
	phoneNumber = '010-1234-5678',
	extra: Record<string, unknown> = { isReceive: true },
) => ({
	memberId,
	phoneNumber,
	...extra,
});

const sb = useTestSandbox();

describe('read (4.3)', () => {
	beforeEach(() => {
		sb.state.membersV1.set('a', {
			memberId: 'a',
			phoneNumber: '01012345678',
			isReceive: true,
			name: 'Kim',
		});
		sb.state.membersV1.set('b', { memberId: 'b', phoneNumber: '011 123 4567', isReceive: false });
	});

	it('-9997 without memberId and phoneNumber', async () => {
		expect((await get(sb, PATH)).code).toBe(-9997);
		expect((await get(sb, `${PATH}?memberId=&phoneNumber=`)).code).toBe(-9997);
	});

	it('by memberId: rows with the phone hyphenated whatever the stored format, isReceive boolean', async () => {
		expect((await get(sb, `${PATH}?memberId=a`)).value<Row[]>()).toEqual([
			{ memberId: 'a', phoneNumber: '010-1234-5678', isReceive: true, name: 'Kim' },
		]);
		expect((await get(sb, `${PATH}?memberId=b`)).value<Row[]>()).toEqual([
			{ memberId: 'b', phoneNumber: '011-123-4567', isReceive: false },
		]);
	});

	it('no name field when no name is stored (2.4)', async () => {
		const [record] = (await get(sb, `${PATH}?memberId=b`)).value<Row[]>();
		expect('name' in record).toBe(false);
	});

	it('by phoneNumber, with or without hyphens', async () => {
		expect(
			(await get(sb, `${PATH}?phoneNumber=010-1234-5678`)).value<Row[]>().map((r) => r.memberId),
		).toEqual(['a']);
		expect(
			(await get(sb, `${PATH}?phoneNumber=0111234567`)).value<Row[]>().map((r) => r.memberId),
		).toEqual(['b']);
	});

	it('with both, a record must match both; no match is an empty array', async () => {
		expect(
			(await get(sb, `${PATH}?memberId=a&phoneNumber=01012345678`)).value<Row[]>(),
		).toHaveLength(1);
		const none = await get(sb, `${PATH}?memberId=a&phoneNumber=0111234567`);
		expect(none.code).toBe(0);
		expect(none.value<Row[]>()).toEqual([]);
	});
});

describe('save (4.3, 2.4, 7.2)', () => {
	it('stores an array of members; processValue has no value', async () => {
		const res = await post(sb, PATH, [
			row('a', '010-1234-5678', { isReceive: true, name: 'Kim' }),
			row('b', '01198765432', { isReceive: false }),
		]);
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBeNull();
		expect([...sb.state.membersV1.values()]).toEqual([
			{ memberId: 'a', phoneNumber: '010-1234-5678', isReceive: true, name: 'Kim' },
			{ memberId: 'b', phoneNumber: '01198765432', isReceive: false },
		]);
	});

	it.each([
		[true, true],
		[false, false],
		['Y', true],
		['N', false],
		['true', true],
		['false', false],
	])('isReceive %p is stored as %p', async (sent, stored) => {
		expect((await post(sb, PATH, [row('a', '010-1234-5678', { isReceive: sent })])).code).toBe(0);
		expect(sb.state.membersV1.get('a')?.isReceive).toBe(stored);
	});

	it('-1012 when isReceive is missing; the whole request is rejected', async () => {
		const res = await post(sb, PATH, [row('ok'), { memberId: 'b', phoneNumber: '010-2222-3333' }]);
		expect(res.code).toBe(-1012);
		expect(sb.state.membersV1.size).toBe(0);
	});

	it('-9997 for an isReceive that is neither boolean, Y/N nor "true"/"false"', async () => {
		expect((await post(sb, PATH, [row('a', '010-1234-5678', { isReceive: 'maybe' })])).code).toBe(
			-9997,
		);
		expect((await post(sb, PATH, [row('a', '010-1234-5678', { isReceive: 1 })])).code).toBe(-9997);
	});

	it.each([
		[{ phoneNumber: '010-1234-5678', isReceive: true }],
		[row('')],
		[row(123 as unknown as string)],
	])(
		'-1006 for a row without a valid memberId (%p), the failed row in processValue',
		async (bad) => {
			const res = await post(sb, PATH, [row('ok'), bad]);
			expect(res.code).toBe(-1006);
			expect(res.body.processValue).toEqual(bad);
			expect(sb.state.membersV1.size).toBe(0);
		},
	);

	it("-1006 is HTTP 503 with the envelope in errorHttpStatus 'mapped' mode (the spec's sample)", async () => {
		sb.configure({ errorHttpStatus: 'mapped' });
		const res = await post(sb, PATH, [row('')]);
		expect(res.status).toBe(503);
		expect(res.body.httpStatus.code).toBe(503);
		expect(res.code).toBe(-1006);
	});

	it.each([
		['02-123-4567'],
		['+82-10-1234-5678'],
		['010-12-345'],
		['0101234567890'],
		['010.1234.5678'],
		[null],
		[1012345678],
	])('-1007 for the phone %p', async (phone) => {
		const res = await post(sb, PATH, [row('a', phone as string)]);
		expect(res.code).toBe(-1007);
		expect(sb.state.membersV1.size).toBe(0);
	});

	it('accepts Korean mobile numbers with hyphens, spaces or neither (10 or 11 digits)', async () => {
		const res = await post(sb, PATH, [
			row('a', '010 1234 5678'),
			row('b', '0111234567'),
			row('c', '016-123-4567'),
		]);
		expect(res.code).toBe(0);
		expect(sb.state.membersV1.size).toBe(3);
	});

	it('-1013 for a name longer than 20 characters; exactly 20 is fine', async () => {
		expect(
			(
				await post(sb, PATH, [
					row('a', '010-1234-5678', { isReceive: true, name: '가'.repeat(21) }),
				])
			).code,
		).toBe(-1013);
		expect(sb.state.membersV1.size).toBe(0);
		expect(
			(
				await post(sb, PATH, [
					row('a', '010-1234-5678', { isReceive: true, name: '가'.repeat(20) }),
				])
			).code,
		).toBe(0);
	});

	it('the FIRST offending row decides the code', async () => {
		const res = await post(sb, PATH, [row('ok'), row('b', 'bad'), row('')]);
		expect(res.code).toBe(-1007);
		expect(res.body.processValue).toEqual(row('b', 'bad'));
	});

	it('a rule the client cannot see: v1RejectMemberIds rejects a valid-looking row with its code', async () => {
		sb.state.v1RejectMemberIds.set('vip', -1007);
		const res = await post(sb, PATH, [row('a'), row('vip')]);
		expect(res.code).toBe(-1007);
		expect(sb.state.membersV1.size).toBe(0);
	});

	it('-1004 for more than 1000 rows, nothing stored', async () => {
		const rows = Array.from({ length: 1001 }, (_, i) => row(`m${i}`));
		expect((await post(sb, PATH, rows)).code).toBe(-1004);
		expect(sb.state.membersV1.size).toBe(0);
	});

	it('a save replaces the phone (rule 1); a name not sent is no longer stored', async () => {
		await post(sb, PATH, [row('a', '010-1111-1111', { isReceive: true, name: 'Kim' })]);
		await post(sb, PATH, [row('a', '010-2222-2222', { isReceive: 'N' })]);
		expect(sb.state.membersV1.get('a')).toEqual({
			memberId: 'a',
			phoneNumber: '010-2222-2222',
			isReceive: false,
		});
		expect((await get(sb, `${PATH}?memberId=a`)).value<Row[]>()).toEqual([
			{ memberId: 'a', phoneNumber: '010-2222-2222', isReceive: false },
		]);
	});

	it('-9997 for a body that is not an array', async () => {
		expect((await post(sb, PATH, row('a'))).code).toBe(-9997);
	});

	it("v1ColMisspelling: save and delete answers spell httpStatus.code as 'col'; reads keep 'code'", async () => {
		sb.configure({ v1ColMisspelling: true });
		const save = await post(sb, PATH, [row('a')]);
		expect(save.body.httpStatus).toEqual({ col: 200, reasonPhrase: 'OK' });
		expect((await del(sb, PATH, ['a'])).body.httpStatus).toEqual({ col: 200, reasonPhrase: 'OK' });
		expect((await get(sb, `${PATH}?memberId=a`)).body.httpStatus).toEqual({
			code: 200,
			reasonPhrase: 'OK',
		});
	});
});

describe('delete (4.3)', () => {
	beforeEach(async () => {
		await post(sb, PATH, [row('a'), row('b', '010-2222-3333'), row('c', '010-3333-4444')]);
	});

	it('DELETE with an array of member ids removes them; unknown ids are not an error', async () => {
		const res = await del(sb, PATH, ['a', 'ghost']);
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBeNull();
		expect([...sb.state.membersV1.keys()]).toEqual(['b', 'c']);
	});

	it('DELETE: -1004 for more than 1000 ids, -1006 for an id that is not a non-empty string', async () => {
		expect(
			(
				await del(
					sb,
					PATH,
					Array.from({ length: 1001 }, (_, i) => `m${i}`),
				)
			).code,
		).toBe(-1004);
		expect((await del(sb, PATH, ['a', ''])).code).toBe(-1006);
		expect(sb.state.membersV1.size).toBe(3);
	});

	it.each([
		['?delete', { memberId: 'a' }],
		['?delete=', { memberId: 'a' }],
		['?delete=true', { memberId: 'a' }],
		['?delete', [{ memberId: 'a' }]],
		['?delete', { memberIds: ['a'] }],
		['?delete', { memberId: ['a'] }],
		['?delete', ['a']],
	])('POST %s with %p deletes the member', async (query, body) => {
		const res = await post(sb, `${PATH}${query}`, body);
		expect(res.code).toBe(0);
		expect(sb.state.membersV1.has('a')).toBe(false);
		expect(sb.state.membersV1.size).toBe(2);
	});

	it('POST ?delete with several ids removes all of them', async () => {
		await post(sb, `${PATH}?delete`, [{ memberId: 'a' }, { memberId: 'c' }]);
		expect([...sb.state.membersV1.keys()]).toEqual(['b']);
	});

	it.each([[{}], [{ memberId: '' }], [{ memberId: 5 }], [[]], [{ id: 'a' }]])(
		'POST ?delete: -1006 for %p',
		async (body) => {
			expect((await post(sb, `${PATH}?delete`, body)).code).toBe(-1006);
			expect(sb.state.membersV1.size).toBe(3);
		},
	);

	it('POST ?delete: -1006 for an empty body, -9997 for a body that is not an object or array', async () => {
		expect(
			(await call(sb, 'POST', `${PATH}?delete`, { raw: '', contentType: 'application/json' })).code,
		).toBe(-1006);
		expect((await post(sb, `${PATH}?delete`, 'a')).code).toBe(-9997);
	});
});
