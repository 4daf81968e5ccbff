/**
 * Conformance: custom data v2 on `/v2/custom`: reading, paging.
 */
import { seed, readAll, useCustomDataSandbox, type Page } from './support';
import { get, post } from './support';

const sb = useCustomDataSandbox();

describe('read (4.1 rule 1)', () => {
	it('pages hold at most 1000 entries and nextPageSeq leads through all of them in a stable order', async () => {
		const expected = seed(sb, 500); // 2500 entries
		const { pages, entries } = await readAll(sb);
		expect(pages.map((p) => p.dataList.length)).toEqual([1000, 1000, 500]);
		expect(pages[2].nextPageSeq).toBeNull();
		expect(entries).toEqual(expected);
	});

	it('nextPageSeq is an opaque number (neither an offset nor a page number)', async () => {
		seed(sb, 300);
		const first = (await get(sb, '/v2/custom')).value<Page>();
		expect(typeof first.nextPageSeq).toBe('number');
		expect(first.nextPageSeq).not.toBe(1000);
		expect(first.nextPageSeq).not.toBe(2);
	});

	it('-9997 for a seq the service never issued', async () => {
		seed(sb, 300);
		expect((await get(sb, '/v2/custom?seq=2')).code).toBe(-9997);
		expect((await get(sb, '/v2/custom?seq=abc')).code).toBe(-9997);
	});

	it('read one member: only that member, exact match on any characters', async () => {
		seed(sb, 3);
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
		seed(sb, 2);
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
		const { pages, entries } = await readAll(sb, '/v2/custom?memberId=big');
		expect(pages).toHaveLength(2);
		expect(entries.map((e) => e.customDataKey)).toEqual(['a', 'b', 'c']);
	});

	it("pagingEnd 'absent': the last page has no nextPageSeq field", async () => {
		sb.configure({ pagingEnd: 'absent', pageSize: 4 });
		seed(sb, 1);
		const { pages } = await readAll(sb);
		expect(pages).toHaveLength(2);
		expect('nextPageSeq' in pages[1]).toBe(false);
	});

	it("pagingEnd 'emptyString': the last page has nextPageSeq ''", async () => {
		sb.configure({ pagingEnd: 'emptyString', pageSize: 4 });
		seed(sb, 1);
		const { pages } = await readAll(sb);
		expect(pages[1].nextPageSeq).toBe('');
	});

	it("pagingEnd 'emptyPage': the last data page still has a nextPageSeq, then comes an empty page with null", async () => {
		sb.configure({ pagingEnd: 'emptyPage', pageSize: 5 });
		seed(sb, 2);
		const { pages, entries } = await readAll(sb);
		expect(pages.map((p) => p.dataList.length)).toEqual([5, 5, 0]);
		expect(typeof pages[1].nextPageSeq).toBe('number');
		expect(pages[2].nextPageSeq).toBeNull();
		expect(entries).toHaveLength(10);
	});

	it('an empty seq (what a client might send back after nextPageSeq "") reads the first page again', async () => {
		sb.configure({ pageSize: 2 });
		seed(sb, 1);
		const first = await get(sb, '/v2/custom');
		const again = await get(sb, '/v2/custom?seq=');
		expect(again.value<Page>().dataList).toEqual(first.value<Page>().dataList);
	});

	it('pageSize option: smaller pages; values above 1000 are capped at 1000', async () => {
		seed(sb, 300);
		sb.configure({ pageSize: 7 });
		expect((await get(sb, '/v2/custom')).value<Page>().dataList).toHaveLength(7);
		sb.configure({ pageSize: 5000 });
		expect((await get(sb, '/v2/custom')).value<Page>().dataList).toHaveLength(1000);
	});

	it('stringCodes: nextPageSeq is a string, and passing it back works', async () => {
		sb.configure({ stringCodes: true, pageSize: 3 });
		seed(sb, 1);
		const { pages, entries } = await readAll(sb);
		expect(typeof pages[0].nextPageSeq).toBe('string');
		expect(entries).toHaveLength(5);
	});

	it('order: insertion order of members, then of keys; a new key of an old member stays with it', async () => {
		await post(sb, '/v2/custom', { b: { name: 'B' }, a: { name: 'A' } });
		await post(sb, '/v2/custom', { b: { points: 2 } });
		const { entries } = await readAll(sb);
		expect(entries.map((e) => `${e.memberId}.${e.customDataKey}`)).toEqual([
			'b.name',
			'b.points',
			'a.name',
		]);
	});
});
