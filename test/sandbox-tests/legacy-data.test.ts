/**
 * Conformance: legacy custom data v1 (docs/service-rules.md#custom-data) on `/v1/legacy`.
 */
import { del, get, post, put, useTestSandbox, storeOf } from './support';

interface Entry {
	memberId: string;
	legacyDataKey: string;
	legacyDataValue: string | number;
}
interface Page {
	nextPageSeq?: number | string | null;
	dataList: Entry[];
}

const sb = useTestSandbox();
beforeEach(() => {
	sb.registerKey('name', 'string');
	sb.registerKey('points', 'number');
	sb.registerKey('birthday', 'date');
});

function seed(members: number, keys = 3): void {
	for (let m = 0; m < members; m++) {
		sb.state.legacy.set(
			`m${m}`,
			new Map(Array.from({ length: keys }, (_, k) => [`k${k}`, `v${m}.${k}`] as [string, string])),
		);
	}
}

describe('read (4.2 rule 1)', () => {
	it('entries use legacyDataKey / legacyDataValue, pages of at most 1000 linked by nextPageSeq', async () => {
		seed(700); // 2100 entries
		const first = await get(sb, '/v1/legacy');
		const page1 = first.value<Page>();
		expect(page1.dataList).toHaveLength(1000);
		expect(page1.dataList[0]).toEqual({
			memberId: 'm0',
			legacyDataKey: 'k0',
			legacyDataValue: 'v0.0',
		});
		const page2 = (await get(sb, `/v1/legacy?seq=${String(page1.nextPageSeq)}`)).value<Page>();
		const page3 = (await get(sb, `/v1/legacy?seq=${String(page2.nextPageSeq)}`)).value<Page>();
		expect(page2.dataList).toHaveLength(1000);
		expect(page3.dataList).toHaveLength(100);
		expect(page3.nextPageSeq).toBeNull();
		expect(page3.dataList[99]).toEqual({
			memberId: 'm699',
			legacyDataKey: 'k2',
			legacyDataValue: 'v699.2',
		});
	});

	it('read one member by memberId', async () => {
		seed(3);
		const res = await get(sb, '/v1/legacy?memberId=m1');
		expect(res.value<Page>().dataList.map((e) => e.legacyDataKey)).toEqual(['k0', 'k1', 'k2']);
		expect(res.value<Page>().dataList.every((e) => e.memberId === 'm1')).toBe(true);
	});

	it('the v1 and v2 stores are separate', async () => {
		seed(1);
		expect((await get(sb, '/v2/custom')).value<Page>().dataList).toEqual([]);
	});
});

describe('register and change (4.2 rules 1-2)', () => {
	it('register answers the number of stored entries', async () => {
		const res = await post(sb, '/v1/legacy', {
			m1: { name: 'Kim', points: '7', birthday: '2000-12-31' },
			m2: { name: 'Lee' },
		});
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBe(4);
		expect(storeOf(sb.state.legacy)).toEqual({
			m1: { name: 'Kim', points: 7, birthday: '2000-12-31' },
			m2: { name: 'Lee' },
		});
	});

	it('values that do not match the registered format are silently not stored (not counted)', async () => {
		const res = await post(sb, '/v1/legacy', {
			m1: { points: 'many', birthday: '31/12/2000', name: 'ok' },
		});
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBe(1);
		expect(storeOf(sb.state.legacy)).toEqual({ m1: { name: 'ok' } });
	});

	it('keys outside the registry are accepted and stored as text', async () => {
		const res = await post(sb, '/v1/legacy', { m1: { memo: 'hello', code: 12, flag: true } });
		expect(res.body.processValue).toBe(2);
		expect(storeOf(sb.state.legacy)).toEqual({ m1: { memo: 'hello', code: '12' } });
	});

	it('registering an existing member id and key updates that entry (rule 2)', async () => {
		await post(sb, '/v1/legacy', { m1: { name: 'Old', points: 1 } });
		const res = await post(sb, '/v1/legacy', { m1: { name: 'New' } });
		expect(res.body.processValue).toBe(1);
		expect(storeOf(sb.state.legacy)).toEqual({ m1: { name: 'New', points: 1 } });
	});

	it('change (PUT) answers the number of changed entries', async () => {
		await post(sb, '/v1/legacy', { m1: { name: 'Old' } });
		const res = await put(sb, '/v1/legacy', { m1: { name: 'New', points: 'x' } });
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBe(1);
		expect(storeOf(sb.state.legacy)).toEqual({ m1: { name: 'New' } });
	});

	it('-1004 for more than 1000 member ids in a write, nothing applied', async () => {
		const body = Object.fromEntries(
			Array.from({ length: 1001 }, (_, i) => [`m${i}`, { name: 'x' }]),
		);
		expect((await post(sb, '/v1/legacy', body)).code).toBe(-1004);
		expect(sb.state.legacy.size).toBe(0);
	});

	it('-9997 for a body that is not an object of objects', async () => {
		expect((await post(sb, '/v1/legacy', [{ memberId: 'm1' }])).code).toBe(-9997);
		expect((await put(sb, '/v1/legacy', { m1: 'x' })).code).toBe(-9997);
	});
});

describe('delete (4.2 rule 3)', () => {
	it('delete members answers the number of deleted entries', async () => {
		seed(3);
		const res = await del(sb, '/v1/legacy', ['m0', 'm1']);
		expect(res.code).toBe(0);
		expect(res.body.processValue).toBe(6);
		expect([...sb.state.legacy.keys()]).toEqual(['m2']);
	});

	it('delete some keys answers the number of deleted entries', async () => {
		seed(2);
		const res = await del(sb, '/v1/legacy/data-format-name', { m0: ['k0', 'k2'], m1: ['k9'] });
		expect(res.body.processValue).toBe(2);
		expect(storeOf(sb.state.legacy).m0).toEqual({ k1: 'v0.1' });
	});

	it('-1009 refuses the whole delete (retry after 30 minutes), nothing deleted', async () => {
		seed(2);
		sb.state.lockedMembers.set('m0', -1009);
		expect((await del(sb, '/v1/legacy/data-format-name', { m0: ['k0'], m1: ['k0'] })).code).toBe(
			-1009,
		);
		expect(storeOf(sb.state.legacy).m1).toHaveProperty('k0');
	});

	it('-1010 refuses the whole delete, nothing deleted', async () => {
		seed(2);
		sb.state.lockedMembers.set('m1', -1010);
		expect((await del(sb, '/v1/legacy', ['m0', 'm1'])).code).toBe(-1010);
		expect(sb.state.legacy.size).toBe(2);
	});

	it('-1004 for more than 1000 ids in a delete', async () => {
		expect(
			(
				await del(
					sb,
					'/v1/legacy',
					Array.from({ length: 1001 }, (_, i) => `m${i}`),
				)
			).code,
		).toBe(-1004);
	});

	it('-9997 for a bad delete body', async () => {
		expect((await del(sb, '/v1/legacy', { m0: ['k0'] })).code).toBe(-9997);
		expect((await del(sb, '/v1/legacy/data-format-name', ['m0'])).code).toBe(-9997);
	});
});
