/**
 * delete and deleteKeys of both data nodes: collected ids, chunks, refused deletes with
 * retryAfter while the other chunks still run, and bad input.
 */
import { DIALECTS, expectAllAccounted, pairsOf, useSandbox } from '../support';
import { run } from './support';

const sb = useSandbox();

const seed = (store: Map<string, Map<string, string | number>>, ids: string[]) => {
	for (const id of ids)
		store.set(
			id,
			new Map<string, string | number>([
				['grade', 'g'],
				['points', 1],
				['joined', '2024-01-01'],
			]),
		);
};

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

describe.each(DIALECTS)('%s: deleteKeys', (_name, dialect) => {
	it('trims, drops blanks, dedupes keys, merges items per member and sends {memberId: [keys]}', async () => {
		seed(dialect.store(sb), ['a', 'b']);
		const input = [
			{ id: 'a', keys: ' grade, points ,,grade ' },
			{ id: 'b', keys: 'points' },
			{ id: 'a', keys: 'joined' },
			{ id: 'b', keys: ' , ' },
		];
		const { out, error } = await run(
			sb,
			dialect,
			{ operation: 'deleteKeys', memberId: '={{$json.id}}', keys: '={{$json.keys}}' },
			input,
		);
		expect(error).toBeUndefined();
		expect(sb.requests.map((r) => [r.method, r.path, r.body])).toEqual([
			[
				'DELETE',
				`${dialect.path}/data-format-name`,
				{ a: ['grade', 'points', 'joined'], b: ['points'] },
			],
		]);
		expect(dialect.store(sb).has('a')).toBe(false);
		expect(Object.fromEntries(dialect.store(sb).get('b') ?? [])).toEqual({
			grade: 'g',
			joined: '2024-01-01',
		});
		expect(out[0].map((i) => [i.json, pairsOf(i)])).toEqual([
			[
				{ memberId: 'a', keys: ['grade', 'points', 'joined'], deleted: true, batchDeletedCount: 4 },
				[0, 2],
			],
			[{ memberId: 'b', keys: ['points'], deleted: true, batchDeletedCount: 4 }, [1]],
		]);
		expect(out[1].map((i) => [i.json.code, i.json.field, i.json.memberId, pairsOf(i)])).toEqual([
			['-9997', 'keys', 'b', [3]],
		]);
		expectAllAccounted(out, input.length);
	});

	it('reports a refused chunk (-1010) with retryAfter and its keys, other chunks applied', async () => {
		seed(dialect.store(sb), ['a', 'b', 'c']);
		sb.state.lockedMembers.set('b', -1010);
		const { out } = await run(
			sb,
			dialect,
			{
				operation: 'deleteKeys',
				memberId: '={{$json.id}}',
				keys: 'grade',
				options: { batchSize: 1 },
			},
			[{ id: 'a' }, { id: 'b' }, { id: 'c' }],
		);
		expect(sb.requests).toHaveLength(3);
		expect(out[0].map((i) => i.json.memberId)).toEqual(['a', 'c']);
		expect(out[1].map((i) => i.json)).toEqual([
			{
				code: '-1010',
				message: expect.stringMatching(/30 minutes/),
				memberId: 'b',
				keys: ['grade'],
				retryAfter: expect.any(String),
			},
		]);
		expect(dialect.store(sb).get('b')?.has('grade')).toBe(true);
		expect(dialect.store(sb).get('a')?.has('grade')).toBe(false);
	});

	it('accepts the keys as an array from an expression', async () => {
		seed(dialect.store(sb), ['a']);
		await run(
			sb,
			dialect,
			{ operation: 'deleteKeys', memberId: 'a', keys: '={{ ["grade", " points ", ""] }}' },
			[{}],
		);
		expect(sb.requests[0].body).toEqual({ a: ['grade', 'points'] });
	});
});
