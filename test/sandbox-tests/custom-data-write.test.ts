/**
 * Conformance: custom data v2 on `/v2/custom`: register, change and delete.
 */
import { seed, useCustomDataSandbox, type Page, type FailRow } from './support';
import { del, get, post, put, storeOf } from './support';

const sb = useCustomDataSandbox();

describe('register and change (4.1 rules 2-4, 2.2 formats)', () => {
	it('full success: processCode 0, processValue null, entries stored', async () => {
		const res = await post(sb, '/v2/custom', {
			m1: { name: 'Kim', points: 10, birthday: '1990-01-31' },
			m2: { name: 'Lee' },
		});
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBeNull();
		expect(storeOf(sb.state.custom)).toEqual({
			m1: { name: 'Kim', points: 10, birthday: '1990-01-31' },
			m2: { name: 'Lee' },
		});
	});

	it('F01: an unregistered key fails, the other entries are applied, processCode 1', async () => {
		const res = await post(sb, '/v2/custom', { m1: { name: 'Kim', color: 'red' } });
		expect(res.code).toBe(1);
		expect(res.value<FailRow[]>()).toEqual([
			{ memberId: 'm1', failKey: 'color', failValue: 'red', failCode: 'F01' },
		]);
		expect(storeOf(sb.state.custom)).toEqual({ m1: { name: 'Kim' } });
	});

	it('number: a JSON number or a numeric string, stored as a number', async () => {
		const res = await post(sb, '/v2/custom', {
			a: { points: 12.5 },
			b: { points: '42' },
			c: { points: ' -7 ' },
		});
		expect(res.code).toBe(0);
		expect(storeOf(sb.state.custom)).toEqual({
			a: { points: 12.5 },
			b: { points: 42 },
			c: { points: -7 },
		});
	});

	it.each([['abc'], [''], [true], [null], [{}], [[1]], ['0x10']])(
		'number: F02 for %p',
		async (value) => {
			const res = await post(sb, '/v2/custom', { m1: { points: value, name: 'ok' } });
			expect(res.code).toBe(1);
			expect(res.value<FailRow[]>()).toEqual([
				{ memberId: 'm1', failKey: 'points', failValue: value, failCode: 'F02' },
			]);
			expect(storeOf(sb.state.custom)).toEqual({ m1: { name: 'ok' } });
		},
	);

	it('date: a real YYYY-MM-DD is stored as that text', async () => {
		expect((await post(sb, '/v2/custom', { m1: { birthday: '2024-02-29' } })).code).toBe(0);
		expect(sb.state.custom.get('m1')?.get('birthday')).toBe('2024-02-29');
	});

	it.each([
		['2023-02-29'],
		['2024-13-01'],
		['2024/01/01'],
		['2024-1-1'],
		['20240101'],
		[20240101],
		['2024-01-01T00:00:00Z'],
		[null],
	])('date: F02 for %p', async (value) => {
		const res = await post(sb, '/v2/custom', { m1: { birthday: value } });
		expect(res.code).toBe(1);
		expect(res.value<FailRow[]>()[0]).toMatchObject({ failKey: 'birthday', failCode: 'F02' });
		expect(sb.state.custom.size).toBe(0);
	});

	it('string: any text, and a number is stored as its text', async () => {
		expect((await post(sb, '/v2/custom', { a: { name: '' }, b: { name: 42 } })).code).toBe(0);
		expect(storeOf(sb.state.custom)).toEqual({ a: { name: '' }, b: { name: '42' } });
	});

	it.each([[null], [true], [{ first: 'a' }], [['a']]])('string: F02 for %p', async (value) => {
		const res = await post(sb, '/v2/custom', { m1: { name: value } });
		expect(res.value<FailRow[]>()).toEqual([
			{ memberId: 'm1', failKey: 'name', failValue: value, failCode: 'F02' },
		]);
	});

	it('failure rows come in request order; processCode 1 even when nothing was stored', async () => {
		const res = await post(sb, '/v2/custom', {
			m1: { points: 'x', color: 1 },
			m2: { birthday: 'soon' },
		});
		expect(res.code).toBe(1);
		expect(res.value<FailRow[]>().map((r) => `${r.memberId}.${r.failKey}.${r.failCode}`)).toEqual([
			'm1.points.F02',
			'm1.color.F01',
			'm2.birthday.F02',
		]);
		expect(sb.state.custom.size).toBe(0);
	});

	it('register on an existing key updates it (no duplicate entry)', async () => {
		await post(sb, '/v2/custom', { m1: { name: 'Old', points: 1 } });
		await post(sb, '/v2/custom', { m1: { name: 'New' } });
		expect(storeOf(sb.state.custom)).toEqual({ m1: { name: 'New', points: 1 } });
	});

	it('change (PUT) updates existing entries and creates missing ones, with the same validation', async () => {
		await post(sb, '/v2/custom', { m1: { name: 'Old' } });
		const res = await put(sb, '/v2/custom', {
			m1: { name: 'New', points: '5' },
			m2: { birthday: 'bad' },
		});
		expect(res.code).toBe(1);
		expect(res.value<FailRow[]>()).toEqual([
			{ memberId: 'm2', failKey: 'birthday', failValue: 'bad', failCode: 'F02' },
		]);
		expect(storeOf(sb.state.custom)).toEqual({ m1: { name: 'New', points: 5 } });
	});

	it('-1004 for more than 1000 member ids, nothing applied; exactly 1000 is accepted', async () => {
		const body = (n: number) =>
			Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, { points: i }]));
		expect((await post(sb, '/v2/custom', body(1001))).code).toBe(-1004);
		expect(sb.state.custom.size).toBe(0);
		expect((await put(sb, '/v2/custom', body(1001))).code).toBe(-1004);
		expect((await post(sb, '/v2/custom', body(1000))).code).toBe(0);
		expect(sb.state.custom.size).toBe(1000);
	});

	it.each([
		['an array', [{ m1: { name: 'a' } }]],
		['a member whose value is not an object', { m1: 'name=a' }],
		['a member whose value is an array', { m1: [['name', 'a']] }],
		['an empty member id', { '': { name: 'a' } }],
		['null', null],
	])('-9997 for a body that is %s, nothing applied', async (_label, body) => {
		const res = await post(sb, '/v2/custom', body);
		expect(res.code).toBe(-9997);
		expect(sb.state.custom.size).toBe(0);
	});

	it('-9997 for an empty body', async () => {
		expect((await post(sb, '/v2/custom', undefined)).code).toBe(-9997);
	});
});

describe('delete (4.1)', () => {
	it('delete members: answers the number of deleted entries; unknown ids count 0', async () => {
		seed(sb, 3);
		const res = await del(sb, '/v2/custom', ['m0', 'm2', 'ghost']);
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBe(10);
		expect([...sb.state.custom.keys()]).toEqual(['m1']);
	});

	it('delete some keys: answers the number of deleted entries, only those keys go', async () => {
		seed(sb, 2);
		const res = await del(sb, '/v2/custom/data-format-name', {
			m0: ['k1', 'k3', 'nope'],
			m1: ['k0'],
			ghost: ['k0'],
		});
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBe(3);
		expect([...(sb.state.custom.get('m0')?.keys() ?? [])]).toEqual(['k0', 'k2', 'k4']);
		expect(sb.state.custom.get('m1')?.size).toBe(4);
	});

	it('delete some keys: a member left without entries disappears from reads', async () => {
		sb.state.custom.set('solo', new Map([['name', 'x']]));
		await del(sb, '/v2/custom/data-format-name', { solo: ['name'] });
		expect((await get(sb, '/v2/custom')).value<Page>().dataList).toEqual([]);
	});

	it('-1004 for more than 1000 ids in a delete, nothing deleted', async () => {
		seed(sb, 1);
		const ids = Array.from({ length: 1001 }, (_, i) => `m${i}`);
		expect((await del(sb, '/v2/custom', ids)).code).toBe(-1004);
		const byKey = Object.fromEntries(ids.map((id) => [id, ['k0']]));
		expect((await del(sb, '/v2/custom/data-format-name', byKey)).code).toBe(-1004);
		expect(sb.state.custom.get('m0')?.size).toBe(5);
	});

	it('-1009: a delete naming a member whose deletion is refused now; nothing in that request deleted', async () => {
		seed(sb, 2);
		sb.state.lockedMembers.set('m1', -1009);
		const res = await del(sb, '/v2/custom', ['m0', 'm1']);
		expect(res.code).toBe(-1009);
		expect(sb.state.custom.size).toBe(2);
	});

	it('-1010: a delete of keys naming a member with a deletion error; nothing deleted', async () => {
		seed(sb, 2);
		sb.state.lockedMembers.set('m0', -1010);
		const res = await del(sb, '/v2/custom/data-format-name', { m1: ['k0'], m0: ['k0'] });
		expect(res.code).toBe(-1010);
		expect(sb.state.custom.get('m1')?.size).toBe(5);
	});

	it.each([
		['/v2/custom', { m0: true }],
		['/v2/custom', [1, 2]],
		['/v2/custom/data-format-name', ['m0']],
		['/v2/custom/data-format-name', { m0: 'k0' }],
		['/v2/custom/data-format-name', { m0: [1] }],
	])('-9997 for a bad delete body on %s: %p', async (path, body) => {
		seed(sb, 1);
		expect((await del(sb, path, body)).code).toBe(-9997);
		expect(sb.state.custom.get('m0')?.size).toBe(5);
	});
});
