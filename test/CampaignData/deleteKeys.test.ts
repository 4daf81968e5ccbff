/**
 * deleteKeys of both data nodes: key lists read, merged per member and sent as
 * {memberId: [keys]}; a refused chunk (-1010) with retryAfter while the others still run. The
 * batching it shares with delete (delete/rows.ts) is in delete.test.ts.
 */
import { DIALECTS, expectAllAccounted, pairsOf, useSandbox } from '../support';
import { run, seed } from './support';

const sb = useSandbox();

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
