/**
 * Conformance: custom data v2 (spec 2.2, 4.1, 7.1) on `/v2/custom`.
 */
import type { Sandbox } from '../../sandbox/types';
import { del, get, post, put, restore, startTestSandbox, storeOf } from './testkit';

interface Entry {
	memberId: string;
	customDataKey: string;
	customDataValue: string | number;
}
interface Page {
	nextPageSeq?: number | string | null;
	dataList: Entry[];
}
interface FailRow {
	memberId: string;
	failKey: string;
	failValue: unknown;
	failCode: string;
}

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => {
	restore(sb);
	sb.registerKey('name', 'string');
	sb.registerKey('points', 'number');
	sb.registerKey('birthday', 'date');
});

/** `members` members with keys k0..k4 each, straight into the state. */
function seed(members: number): Entry[] {
	const expected: Entry[] = [];
	for (let m = 0; m < members; m++) {
		const memberId = `m${m}`;
		const entries = new Map<string, string | number>();
		for (let k = 0; k < 5; k++) {
			entries.set(`k${k}`, m * 10 + k);
			expected.push({ memberId, customDataKey: `k${k}`, customDataValue: m * 10 + k });
		}
		sb.state.custom.set(memberId, entries);
	}
	return expected;
}

/** Follows nextPageSeq until the end (at most 20 pages). */
async function readAll(path = '/v2/custom'): Promise<{ pages: Page[]; entries: Entry[] }> {
	const pages: Page[] = [];
	let next: Page['nextPageSeq'] = undefined;
	for (let i = 0; i < 20; i++) {
		const sep = path.includes('?') ? '&' : '?';
		const res = await get(
			sb,
			next === undefined ? path : `${path}${sep}seq=${encodeURIComponent(String(next))}`,
		);
		expect(Number(res.code)).toBe(0);
		const page = res.value<Page>();
		pages.push(page);
		if (page.nextPageSeq === null || page.nextPageSeq === undefined || page.nextPageSeq === '')
			break;
		next = page.nextPageSeq;
	}
	return { pages, entries: pages.flatMap((p) => p.dataList) };
}

describe('read (4.1 rule 1)', () => {
	it('pages hold at most 1000 entries and nextPageSeq leads through all of them in a stable order', async () => {
		const expected = seed(500); // 2500 entries
		const { pages, entries } = await readAll();
		expect(pages.map((p) => p.dataList.length)).toEqual([1000, 1000, 500]);
		expect(pages[2].nextPageSeq).toBeNull();
		expect(entries).toEqual(expected);
	});

	it('nextPageSeq is an opaque number (neither an offset nor a page number)', async () => {
		seed(300);
		const first = (await get(sb, '/v2/custom')).value<Page>();
		expect(typeof first.nextPageSeq).toBe('number');
		expect(first.nextPageSeq).not.toBe(1000);
		expect(first.nextPageSeq).not.toBe(2);
	});

	it('-9997 for a seq the service never issued', async () => {
		seed(300);
		expect((await get(sb, '/v2/custom?seq=2')).code).toBe(-9997);
		expect((await get(sb, '/v2/custom?seq=abc')).code).toBe(-9997);
	});

	it('read one member: only that member, exact match on any characters', async () => {
		seed(3);
		const odd = 'a b/ü&?=#x';
		sb.state.custom.set(odd, new Map([['name', 'Odd']]));
		sb.state.custom.set('a b', new Map([['name', 'Prefix']]));
		const res = await get(sb, `/v2/custom?memberId=${encodeURIComponent(odd)}`);
		expect(res.value<Page>()).toEqual({
			nextPageSeq: null,
			dataList: [{ memberId: odd, customDataKey: 'name', customDataValue: 'Odd' }],
		});
	});

	it('read one unknown member: empty dataList, processCode 0', async () => {
		seed(2);
		const res = await get(sb, '/v2/custom?memberId=nobody');
		expect(res.code).toBe(0);
		expect(res.value<Page>().dataList).toEqual([]);
	});

	it('read one member pages too when that member has more than a page of entries', async () => {
		sb.configure({ pageSize: 2 });
		sb.state.custom.set(
			'big',
			new Map([
				['a', '1'],
				['b', '2'],
				['c', '3'],
			]),
		);
		sb.state.custom.set('other', new Map([['a', 'x']]));
		const { pages, entries } = await readAll('/v2/custom?memberId=big');
		expect(pages).toHaveLength(2);
		expect(entries.map((e) => e.customDataKey)).toEqual(['a', 'b', 'c']);
	});

	it("pagingEnd 'absent': the last page has no nextPageSeq field", async () => {
		sb.configure({ pagingEnd: 'absent', pageSize: 4 });
		seed(1);
		const { pages } = await readAll();
		expect(pages).toHaveLength(2);
		expect('nextPageSeq' in pages[1]).toBe(false);
	});

	it("pagingEnd 'emptyString': the last page has nextPageSeq ''", async () => {
		sb.configure({ pagingEnd: 'emptyString', pageSize: 4 });
		seed(1);
		const { pages } = await readAll();
		expect(pages[1].nextPageSeq).toBe('');
	});

	it("pagingEnd 'emptyPage': the last data page still has a nextPageSeq, then comes an empty page with null", async () => {
		sb.configure({ pagingEnd: 'emptyPage', pageSize: 5 });
		seed(2);
		const { pages, entries } = await readAll();
		expect(pages.map((p) => p.dataList.length)).toEqual([5, 5, 0]);
		expect(typeof pages[1].nextPageSeq).toBe('number');
		expect(pages[2].nextPageSeq).toBeNull();
		expect(entries).toHaveLength(10);
	});

	it('an empty seq (what a client might send back after nextPageSeq "") reads the first page again', async () => {
		sb.configure({ pageSize: 2 });
		seed(1);
		const first = await get(sb, '/v2/custom');
		const again = await get(sb, '/v2/custom?seq=');
		expect(again.value<Page>().dataList).toEqual(first.value<Page>().dataList);
	});

	it('pageSize option: smaller pages; values above 1000 are capped at 1000', async () => {
		seed(300);
		sb.configure({ pageSize: 7 });
		expect((await get(sb, '/v2/custom')).value<Page>().dataList).toHaveLength(7);
		sb.configure({ pageSize: 5000 });
		expect((await get(sb, '/v2/custom')).value<Page>().dataList).toHaveLength(1000);
	});

	it('stringCodes: nextPageSeq is a string, and passing it back works', async () => {
		sb.configure({ stringCodes: true, pageSize: 3 });
		seed(1);
		const { pages, entries } = await readAll();
		expect(typeof pages[0].nextPageSeq).toBe('string');
		expect(entries).toHaveLength(5);
	});

	it('order: insertion order of members, then of keys; a new key of an old member stays with it', async () => {
		await post(sb, '/v2/custom', { b: { name: 'B' }, a: { name: 'A' } });
		await post(sb, '/v2/custom', { b: { points: 2 } });
		const { entries } = await readAll();
		expect(entries.map((e) => `${e.memberId}.${e.customDataKey}`)).toEqual([
			'b.name',
			'b.points',
			'a.name',
		]);
	});
});

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
		seed(3);
		const res = await del(sb, '/v2/custom', ['m0', 'm2', 'ghost']);
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBe(10);
		expect([...sb.state.custom.keys()]).toEqual(['m1']);
	});

	it('delete some keys: answers the number of deleted entries, only those keys go', async () => {
		seed(2);
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
		seed(1);
		const ids = Array.from({ length: 1001 }, (_, i) => `m${i}`);
		expect((await del(sb, '/v2/custom', ids)).code).toBe(-1004);
		const byKey = Object.fromEntries(ids.map((id) => [id, ['k0']]));
		expect((await del(sb, '/v2/custom/data-format-name', byKey)).code).toBe(-1004);
		expect(sb.state.custom.get('m0')?.size).toBe(5);
	});

	it('-1009: a delete naming a member whose deletion is refused now; nothing in that request deleted', async () => {
		seed(2);
		sb.state.lockedMembers.set('m1', -1009);
		const res = await del(sb, '/v2/custom', ['m0', 'm1']);
		expect(res.code).toBe(-1009);
		expect(sb.state.custom.size).toBe(2);
	});

	it('-1010: a delete of keys naming a member with a deletion error; nothing deleted', async () => {
		seed(2);
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
		seed(1);
		expect((await del(sb, path, body)).code).toBe(-9997);
		expect(sb.state.custom.get('m0')?.size).toBe(5);
	});
});
