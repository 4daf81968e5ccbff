/**
 * getAll of both data nodes, through the real engine against the sandbox: every page read to its
 * end however the end is signalled, the limit, the output by member, and one read per item.
 * The paging guards and faults are in paging.test.ts; get is in get.test.ts.
 */
import { DIALECTS, pairedIndexes, useSandbox } from '../support';
import { entryId, fill, run, seed } from './support';

const sb = useSandbox();

describe.each(DIALECTS)('%s: getAll', (_name, dialect) => {
	it.each(['null', 'absent', 'emptyString', 'emptyPage'] as const)(
		'reads 2,345 entries page after page when the end is signalled by %s, none missing or repeated',
		async (pagingEnd) => {
			sb.configure({ pagingEnd });
			fill(dialect.store(sb), 469, 5); // 2,345 entries
			const { out, error } = await run(sb, dialect, { operation: 'getAll', returnAll: true }, [{}]);
			expect(error).toBeUndefined();
			expect(out).toHaveLength(1);
			const items = out[0];
			expect(items).toHaveLength(2345);
			expect(new Set(items.map((i) => entryId(i.json))).size).toBe(2345);
			expect(items[0].json).toEqual({ memberId: 'm00000', key: 'k0', value: 0 });
			expect(items[2344].json).toEqual({ memberId: 'm00468', key: 'k4', value: 2344 });
			expect(pairedIndexes(items).every((i) => i === 0)).toBe(true);
			const gets = sb.requests.filter((r) => r.method === 'GET');
			expect(gets).toHaveLength(pagingEnd === 'emptyPage' ? 4 : 3);
			expect(gets[0].query).toEqual({});
			for (const page of gets.slice(1)) expect(Object.keys(page.query)).toEqual(['seq']);
		},
	);

	it('follows nextPageSeq given as text (stringCodes)', async () => {
		sb.configure({ stringCodes: true, pageSize: 100 });
		fill(dialect.store(sb), 50, 5);
		const { out, error } = await run(sb, dialect, { operation: 'getAll', returnAll: true }, [{}]);
		expect(error).toBeUndefined();
		expect(out[0]).toHaveLength(250);
		expect(new Set(out[0].map((i) => entryId(i.json))).size).toBe(250);
		expect(sb.requests).toHaveLength(3);
	});

	it('stops at limit 10 with one request', async () => {
		fill(dialect.store(sb), 500, 5);
		const { out } = await run(sb, dialect, { operation: 'getAll', returnAll: false, limit: 10 }, [
			{},
		]);
		expect(out[0]).toHaveLength(10);
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].query).toEqual({});
	});

	it('stops at exactly the limit, requesting no page beyond the one that fills it', async () => {
		fill(dialect.store(sb), 600, 5);
		let result = await run(sb, dialect, { operation: 'getAll', limit: 1000 }, [{}]);
		expect(result.out[0]).toHaveLength(1000);
		expect(sb.requests).toHaveLength(1);
		sb.requests.length = 0;
		result = await run(sb, dialect, { operation: 'getAll', limit: 1500 }, [{}]);
		expect(result.out[0]).toHaveLength(1500);
		expect(new Set(result.out[0].map((i) => entryId(i.json))).size).toBe(1500);
		expect(sb.requests).toHaveLength(2);
	});

	it('outputs one item per member with the keys as fields', async () => {
		seed(dialect.store(sb), ['a'], { grade: 'gold', points: 7, memberId: 'x' });
		seed(dialect.store(sb), ['b'], { grade: 'silver' });
		const { out } = await run(
			sb,
			dialect,
			{ operation: 'getAll', returnAll: true, options: { outputFormat: 'member' } },
			[{}],
		);
		expect(out[0].map((i) => i.json)).toEqual([
			{ memberId: 'a', grade: 'gold', points: 7, 'memberId (key)': 'x' },
			{ memberId: 'b', grade: 'silver' },
		]);
		expect(out[0].map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('reads once per input item, each result paired to its item', async () => {
		fill(dialect.store(sb), 3, 1);
		const { out } = await run(sb, dialect, { operation: 'getAll', returnAll: true }, [{}, {}]);
		expect(out[0]).toHaveLength(6);
		expect(pairedIndexes(out[0])).toEqual([0, 0, 0, 1, 1, 1]);
	});
});
