/**
 * get and getAll of both data nodes, through the real engine against the sandbox (and a
 * scripted page server where the sandbox cannot misbehave the way a test needs).
 */
import { CUSTOM, DIALECTS, errorItemsAt, pairedIndexes, useSandbox } from '../support';
import { fill, run, scriptedCredential, startPageServer } from './support';

const sb = useSandbox();

const entryId = (json: { memberId?: unknown; key?: unknown }) =>
	`${String(json.memberId)}/${String(json.key)}`;

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
		dialect.store(sb).set(
			'a',
			new Map<string, string | number>([
				['grade', 'gold'],
				['points', 7],
				['memberId', 'x'],
			]),
		);
		dialect.store(sb).set('b', new Map<string, string | number>([['grade', 'silver']]));
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

describe.each(DIALECTS)('%s: get', (_name, dialect) => {
	const odd = ['a&b=c', 'x#y', 'with space', '김철수', '100%+/?', 'plus+sign', '__proto__'];

	it('URL-encodes member ids whatever they contain and returns only that member', async () => {
		for (const id of odd)
			dialect.store(sb).set(id, new Map<string, string | number>([['grade', `g-${id}`]]));
		dialect.store(sb).set('a', new Map<string, string | number>([['grade', 'other']]));
		const { out, error } = await run(
			sb,
			dialect,
			{ operation: 'get', memberId: '={{$json.id}}' },
			odd.map((id) => ({ id })),
		);
		expect(error).toBeUndefined();
		expect(out[0].map((i) => i.json)).toEqual(
			odd.map((id) => ({ memberId: id, key: 'grade', value: `g-${id}` })),
		);
		expect(pairedIndexes(out[0])).toEqual(odd.map((_, i) => i));
		expect(sb.requests.map((r) => r.query)).toEqual(odd.map((memberId) => ({ memberId })));
	});

	it('follows pages of one member and outputs one item per member (also when it has no data)', async () => {
		sb.configure({ pageSize: 2 });
		dialect.store(sb).set(
			'a',
			new Map<string, string | number>([
				['k1', 1],
				['k2', 2],
				['k3', 3],
			]),
		);
		const { out } = await run(
			sb,
			dialect,
			{ operation: 'get', memberId: '={{$json.id}}', options: { outputFormat: 'member' } },
			[{ id: 'a' }, { id: 'nobody' }],
		);
		expect(out[0].map((i) => i.json)).toEqual([
			{ memberId: 'a', k1: 1, k2: 2, k3: 3 },
			{ memberId: 'nobody' },
		]);
		expect(sb.requests.map((r) => r.query)).toEqual([
			{ memberId: 'a' },
			{ seq: expect.any(String) },
			{ memberId: 'nobody' },
		]);
	});

	it('stops with a clear error for an empty member id (never reads everything instead)', async () => {
		const { error } = await run(sb, dialect, { operation: 'get', memberId: '={{$json.id}}' }, [
			{ id: 'a' },
			{ id: '  ' },
		]);
		expect(error?.message).toMatch(/Member ID is empty/);
		// Every request named member "a": none without a memberId (that would read every member).
		expect(sb.requests.map((r) => r.query)).toEqual(sb.requests.map(() => ({ memberId: 'a' })));
	});

	it('under "On Error: Continue" gives an error item for the bad item only', async () => {
		dialect.store(sb).set('a', new Map<string, string | number>([['grade', 'gold']]));
		const { out, error } = await run(
			sb,
			dialect,
			{ operation: 'get', memberId: '={{$json.id}}' },
			[{ id: 'a' }, { id: null }, { id: 'a' }],
			{ onError: 'continueRegularOutput' },
		);
		expect(error).toBeUndefined();
		expect(out[0]).toHaveLength(3);
		expect(out[0][1].json.error).toMatch(/Member ID/);
		expect(pairedIndexes(out[0])).toEqual([0, 1, 2]);
	});

	it('fails the whole call with the code table message for an unknown API key', async () => {
		const { error, out } = await run(sb, dialect, { operation: 'get', memberId: 'a' }, [{}], {
			credentials: { baseUrl: sb.baseUrl, apiKey: 'not-a-known-key' },
		});
		expect(error?.message).toMatch(/customer does not exist.*-1001/i);
		expect(out).toEqual([]);
		const cont = await run(sb, dialect, { operation: 'get', memberId: 'a' }, [{}, {}], {
			credentials: { baseUrl: sb.baseUrl, apiKey: 'not-a-known-key' },
			onError: 'continueRegularOutput',
		});
		expect(cont.out).toHaveLength(1);
		expect(cont.out[0].map((i) => [i.json.code, i.pairedItem])).toEqual([
			['-1001', { item: 0 }],
			['-1001', { item: 1 }],
		]);
		const errorOutput = await run(sb, dialect, { operation: 'get', memberId: 'a' }, [{}], {
			credentials: { baseUrl: sb.baseUrl, apiKey: 'not-a-known-key' },
			onError: 'continueErrorOutput',
		});
		const at = await errorItemsAt(errorOutput.out);
		expect(errorOutput.out.map((o) => o.length)).toEqual([0, 0].map((_, i) => (i === at ? 1 : 0)));
		expect(errorOutput.out[at][0].json.details).toMatchObject({ code: '-1001' });
	});
});

describe('transient faults', () => {
	it('retries a page that failed with an HTML 503 and loses nothing', async () => {
		fill(CUSTOM.store(sb), 300, 5);
		sb.configure({
			faults: { kinds: ['http503html'], firstN: 1, match: (r) => r.method === 'GET' },
		});
		const { out, error } = await run(sb, CUSTOM, { operation: 'getAll', returnAll: true }, [{}]);
		expect(error).toBeUndefined();
		expect(out[0]).toHaveLength(1500);
		expect(new Set(out[0].map((i) => entryId(i.json))).size).toBe(1500);
		expect(sb.requests.map((r) => r.status)).toEqual([503, 200, 200]);
	});
});

describe('paging guards and volume (scripted server)', () => {
	it('stops with a clear error when the service repeats a nextPageSeq', async () => {
		const server = await startPageServer((url) => {
			const seq = url.searchParams.get('seq');
			// page 1 -> 7, page 7 -> 8, page 8 -> 7 again (a loop)
			const next = seq === null ? 7 : seq === '7' ? '8' : 7;
			return {
				processValue: {
					nextPageSeq: next,
					dataList: [{ memberId: `m${seq}`, customDataKey: 'k', customDataValue: 1 }],
				},
			};
		});
		try {
			const { error } = await run(
				{ baseUrl: '', apiKey: '' },
				CUSTOM,
				{ operation: 'getAll', returnAll: true },
				[{}],
				{
					credentials: scriptedCredential(server.baseUrl),
				},
			);
			expect(error?.message).toMatch(/same next-page marker twice \(nextPageSeq "7"\)/);
			expect(server.seen).toHaveLength(3);
			// Under "Continue" the item becomes one error item; the entries read before the loop are not half-delivered.
			const cont = await run(
				{ baseUrl: '', apiKey: '' },
				CUSTOM,
				{ operation: 'getAll', returnAll: true },
				[{}],
				{
					credentials: scriptedCredential(server.baseUrl),
					onError: 'continueRegularOutput',
				},
			);
			expect(cont.out[0]).toHaveLength(1);
			expect(cont.out[0][0].json.error).toMatch(/same next-page marker/);
			expect(cont.out[0][0].pairedItem).toEqual({ item: 0 });
		} finally {
			await server.close();
		}
	});

	it.each(DIALECTS)(
		'%s: an empty page ends the listing even when it still names a next page',
		async (_name, dialect) => {
			const server = await startPageServer((url) => {
				const seq = url.searchParams.get('seq');
				if (seq === null) {
					const dataList = [1, 2, 3].map((n) => ({
						memberId: `m${n}`,
						[dialect.keyField]: 'k',
						[dialect.valueField]: n,
					}));
					return { processValue: { nextPageSeq: 'p2', dataList } };
				}
				// A service that keeps naming pages after the last entry: trusting it would never end.
				return { processValue: { nextPageSeq: `after-${seq}`, dataList: [] } };
			});
			try {
				const { out, error } = await run(
					{ baseUrl: '', apiKey: '' },
					dialect,
					{ operation: 'getAll', returnAll: true },
					[{}],
					{
						credentials: scriptedCredential(server.baseUrl),
					},
				);
				expect(error).toBeUndefined();
				expect(out[0].map((i) => i.json)).toEqual(
					[1, 2, 3].map((n) => ({ memberId: `m${n}`, key: 'k', value: n })),
				);
				expect(server.seen.map((r) => new URL(r.url, 'http://x').searchParams.get('seq'))).toEqual([
					null,
					'p2',
				]);
				expect(server.seen.every((r) => r.url.startsWith(dialect.path))).toBe(true);
			} finally {
				await server.close();
			}
		},
	);

	it('reads 200,000 entries in 200 pages, in order, none repeated (speed: npm run bench)', async () => {
		const total = 200000;
		const pageSize = 1000;
		const server = await startPageServer((url) => {
			const start = Number(url.searchParams.get('seq') ?? 0);
			const dataList = [];
			for (let n = start; n < Math.min(total, start + pageSize); n++) {
				dataList.push({
					memberId: `m${Math.floor(n / 4)}`,
					customDataKey: `k${n % 4}`,
					customDataValue: n,
				});
			}
			const next = start + pageSize < total ? String(start + pageSize) : null;
			return { processValue: { nextPageSeq: next, dataList } };
		});
		try {
			const { out, error } = await run(
				{ baseUrl: '', apiKey: '' },
				CUSTOM,
				{ operation: 'getAll', returnAll: true },
				[{}],
				{
					credentials: scriptedCredential(server.baseUrl),
				},
			);
			expect(error).toBeUndefined();
			expect(server.seen).toHaveLength(200);
			expect(out[0]).toHaveLength(total);
			for (let n = 0; n < total; n += 9973) expect(out[0][n].json.value).toBe(n);
			expect(out[0][total - 1].json).toEqual({ memberId: 'm49999', key: 'k3', value: total - 1 });
		} finally {
			await server.close();
		}
	});
});
