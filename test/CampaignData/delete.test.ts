/**
 * delete of both data nodes: collected ids, chunks, refused deletes with retryAfter while the
 * other chunks still run, and bad input. deleteKeys, which shares delete/rows.ts, is in
 * deleteKeys.test.ts.
 */
import { DIALECTS, expectAllAccounted, pairsOf, useSandbox } from '../support';
import { run, seed } from './support';

const sb = useSandbox();

describe.each(DIALECTS)('%s: delete', (_name, dialect) => {
	it('collects member ids, sends each once, and pairs each to every item that named it', async () => {
		seed(dialect.store(sb), ['a', 'b', 'c']);
		const input = [
			{ id: 'a' },
			{ id: 'b' },
			{ id: 'a' },
			{ id: '' },
			{ id: null },
			{ id: 'nobody' },
		];
		const { out, error } = await run(
			sb,
			dialect,
			{ operation: 'delete', memberId: '={{$json.id}}' },
			input,
		);
		expect(error).toBeUndefined();
		expect(sb.requests.map((r) => [r.method, r.path, r.body])).toEqual([
			['DELETE', dialect.path, ['a', 'b', 'nobody']],
		]);
		expect([...dialect.store(sb).keys()]).toEqual(['c']);
		expect(out[0].map((i) => [i.json, pairsOf(i)])).toEqual([
			[{ memberId: 'a', deleted: true, batchDeletedCount: 6 }, [0, 2]],
			[{ memberId: 'b', deleted: true, batchDeletedCount: 6 }, [1]],
			[{ memberId: 'nobody', deleted: true, batchDeletedCount: 6 }, [5]],
		]);
		expect(out[1].map((i) => [i.json.code, i.json.field, i.json.message, pairsOf(i)])).toEqual([
			['-9997', 'memberId', 'Member ID is empty', [3]],
			['-9997', 'memberId', 'Member ID is missing (empty)', [4]],
		]);
		expectAllAccounted(out, input.length);
	});

	it('reports a refused chunk (-1009) with retryAfter 30 minutes on, and still applies the other chunks', async () => {
		const ids = Array.from({ length: 250 }, (_, i) => `m${i}`);
		seed(dialect.store(sb), ids);
		sb.state.lockedMembers.set('m150', -1009);
		const before = Date.now();
		const { out, error } = await run(
			sb,
			dialect,
			{ operation: 'delete', memberId: '={{$json.id}}', options: { batchSize: 100 } },
			ids.map((id) => ({ id })),
		);
		expect(error).toBeUndefined();
		expect(sb.requests.map((r) => [(r.body as string[]).length, r.processCode])).toEqual([
			[100, 0],
			[100, -1009],
			[50, 0],
		]);
		expect(out[0]).toHaveLength(150);
		expect(out[1]).toHaveLength(100);
		expect(out[1][0].json).toMatchObject({
			code: '-1009',
			memberId: 'm100',
			message: expect.stringMatching(/30 minutes/),
		});
		const retry = Date.parse(String(out[1][0].json.retryAfter));
		expect(retry - before).toBeGreaterThanOrEqual(30 * 60000 - 1000);
		expect(retry - before).toBeLessThan(31 * 60000);
		expect(out[1].map((i) => pairsOf(i)[0])).toEqual(
			Array.from({ length: 100 }, (_, i) => 100 + i),
		);
		// chunks 1 and 3 applied, chunk 2 untouched
		expect(dialect.store(sb).size).toBe(100);
		expect(
			dialect.store(sb).has('m100') &&
				dialect.store(sb).has('m199') &&
				!dialect.store(sb).has('m99'),
		).toBe(true);
		expectAllAccounted(out, ids.length);
	});

	it('deletes odd member ids exactly as given', async () => {
		const ids = ['a&b=c', 'x#y', 'with space', '김철수', '100%+/?', '__proto__'];
		seed(dialect.store(sb), ids);
		const { out } = await run(
			sb,
			dialect,
			{ operation: 'delete', memberId: '={{$json.id}}' },
			ids.map((id) => ({ id })),
		);
		expect(sb.requests[0].body).toEqual(ids);
		expect(dialect.store(sb).size).toBe(0);
		expect(out[0].map((i) => i.json.memberId)).toEqual(ids);
	});
});
