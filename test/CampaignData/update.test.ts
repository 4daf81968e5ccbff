/**
 * update of both data nodes: the same planning, merging and batching as create (create.test.ts,
 * create.values.test.ts, create.results.test.ts cover them), sent with PUT to change entries.
 */
import { DIALECTS, expectAllAccounted, pairsOf, useSandbox } from '../support';
import { asObject, registerWriteKeys, run, seed, storedOf } from './support';

const sb = useSandbox();
registerWriteKeys(sb);
const stored = storedOf(sb);

describe.each(DIALECTS)('%s: update', (_name, dialect) => {
	it('update sends PUT and changes existing entries', async () => {
		seed(dialect.store(sb), ['a'], { grade: 'old', points: 1 });
		const { out } = await run(sb, dialect, { operation: 'update' }, [
			{ memberId: 'a', grade: 'new' },
		]);
		expect(sb.requests.map((r) => r.method)).toEqual(['PUT']);
		expect(stored(dialect, 'a')).toEqual({ grade: 'new', points: 1 });
		expect(out[0]).toHaveLength(1);
	});

	it('sends every batch with PUT, each member once, every item paired', async () => {
		seed(dialect.store(sb), ['a', 'b', 'c'], { grade: 'old' });
		const input = [
			{ memberId: 'a', grade: 'a1' },
			{ memberId: 'b', grade: 'b1' },
			{ memberId: 'a', points: 2 },
			{ memberId: 'c', grade: 'c1' },
		];
		const { out, error } = await run(
			sb,
			dialect,
			{ operation: 'update', options: { batchSize: 2 } },
			input,
		);
		expect(error).toBeUndefined();
		expect(sb.requests.map((r) => [r.method, r.path, asObject(r.body)])).toEqual([
			['PUT', dialect.path, { a: { grade: 'a1', points: 2 }, b: { grade: 'b1' } }],
			['PUT', dialect.path, { c: { grade: 'c1' } }],
		]);
		expect(stored(dialect, 'a')).toEqual({ grade: 'a1', points: 2 });
		expect(out[0].map((i) => [i.json.memberId, pairsOf(i)])).toEqual([
			['a', [0, 2]],
			['b', [1]],
			['c', [3]],
		]);
		expectAllAccounted(out, input.length);
	});
});
