/**
 * The paging of a getAll (nodes/CampaignData/helpers/paging.ts): a page retried after a transient
 * fault, and, on a scripted page server where the sandbox cannot misbehave the way a test
 * needs, a repeated nextPageSeq, an empty page naming a next one, and 200,000 entries.
 */
import type { DialectCase } from '../support';
import { CUSTOM, DIALECTS, useSandbox } from '../support';
import type { PageServer, RunExtra } from './support';
import { entryId, fill, run, scriptedCredential, startPageServer } from './support';

const sb = useSandbox();

/** A getAll with Return All on, one input item, against a scripted page server. */
const readAll = (server: PageServer, dialect: DialectCase, extra?: RunExtra) =>
	run(
		scriptedCredential(server.baseUrl),
		dialect,
		{ operation: 'getAll', returnAll: true },
		[{}],
		extra,
	);

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
			const { error } = await readAll(server, CUSTOM);
			expect(error?.message).toMatch(/same next-page marker twice \(nextPageSeq "7"\)/);
			expect(server.seen).toHaveLength(3);
			// Under "Continue" the item becomes one error item; the entries read before the loop are not half-delivered.
			const cont = await readAll(server, CUSTOM, { onError: 'continueRegularOutput' });
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
				const { out, error } = await readAll(server, dialect);
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
			const { out, error } = await readAll(server, CUSTOM);
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
