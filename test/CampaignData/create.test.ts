/**
 * create of both data nodes (update shares its path, write/store.ts: update.test.ts checks what
 * differs): chunking, merging, whole-call failures, and every input item accounted for on
 * Success or Failed. The values and fields written are in create.values.test.ts; failure rows
 * (v2), counts (v1), retries and the declared outputs in create.results.test.ts.
 */
import { DIALECTS, errorItemsAt, expectAllAccounted, pairsOf, useSandbox } from '../support';
import { asObject, registerWriteKeys, run, storedOf, unknownKey } from './support';

const sb = useSandbox();
registerWriteKeys(sb);
const stored = storedOf(sb);

describe.each(DIALECTS)('%s: create', (_name, dialect) => {
	it('writes 2,500 items in exactly 3 requests, in input order, with every entry stored', async () => {
		const input = Array.from({ length: 2500 }, (_, i) => ({
			memberId: `m${i}`,
			grade: `g${i}`,
			points: i,
		}));
		const { out, error } = await run(sb, dialect, { operation: 'create' }, input);
		expect(error).toBeUndefined();
		expect(
			sb.requests.map((r) => [r.method, r.path, Object.keys(asObject(r.body)).length]),
		).toEqual([
			['POST', dialect.path, 1000],
			['POST', dialect.path, 1000],
			['POST', dialect.path, 500],
		]);
		expect(Object.keys(asObject(sb.requests[1].body))[0]).toBe('m1000');
		expect(dialect.store(sb).size).toBe(2500);
		expect(stored(dialect, 'm2499')).toEqual({ grade: 'g2499', points: 2499 });
		expect(out[0]).toHaveLength(2500);
		expect(out[1]).toHaveLength(0);
		expect(out[0][7].json).toMatchObject({
			memberId: 'm7',
			keys: ['grade', 'points'],
			values: { grade: 'g7', points: 7 },
		});
		expect(out[0].map((i) => pairsOf(i)[0])).toEqual(input.map((_, i) => i));
	});

	it('honours batchSize 100', async () => {
		const input = Array.from({ length: 250 }, (_, i) => ({ memberId: `m${i}`, grade: 'x' }));
		const { out } = await run(
			sb,
			dialect,
			{ operation: 'create', options: { batchSize: 100 } },
			input,
		);
		expect(sb.requests.map((r) => Object.keys(asObject(r.body)).length)).toEqual([100, 100, 50]);
		expect(out[0]).toHaveLength(250);
	});

	it('merges items naming the same member: one entry per member, later value wins, no key lost, every item paired', async () => {
		const input = [
			{ memberId: 'a', grade: 'first', points: 1 },
			{ memberId: 'b', grade: 'b' },
			{ memberId: 'a', joined: '2024-01-02' },
			{ memberId: 'a', grade: 'last' },
			{ memberId: 'b' },
		];
		const { out } = await run(sb, dialect, { operation: 'create' }, input);
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].body).toEqual({
			a: { grade: 'last', points: 1, joined: '2024-01-02' },
			b: { grade: 'b' },
		});
		expect(stored(dialect, 'a')).toEqual({ grade: 'last', points: 1, joined: '2024-01-02' });
		expect(out[0].map((i) => [i.json.memberId, pairsOf(i)])).toEqual([
			['a', [0, 2, 3]],
			['b', [1, 4]],
		]);
		expectAllAccounted(out, input.length);
	});

	it('a whole-call failure (unknown key) stops the node; under "Continue" it becomes error items', async () => {
		const stop = await run(unknownKey(sb), dialect, { operation: 'create' }, [
			{ memberId: 'a', grade: 'x' },
		]);
		expect(stop.error?.message).toMatch(/-1001/);
		const cont = await run(
			unknownKey(sb),
			dialect,
			{ operation: 'create' },
			[
				{ memberId: 'a', grade: 'x' },
				{ memberId: 'b', grade: 'y' },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(cont.error).toBeUndefined();
		expect(cont.out[0].map((i) => [i.json.code, i.pairedItem])).toEqual([
			['-1001', { item: 0 }],
			['-1001', { item: 1 }],
		]);
		expect(cont.out[1]).toEqual([]);
	});

	it('under "Continue (using error output)" the error items go to the error output, after Success and Failed', async () => {
		const { out, error } = await run(
			unknownKey(sb),
			dialect,
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'x' }],
			{ onError: 'continueErrorOutput' },
		);
		expect(error).toBeUndefined();
		const at = await errorItemsAt(out);
		expect(out.map((o) => o.length)).toEqual([0, 0, 0].map((_, i) => (i === at ? 1 : 0)));
		expect(out[at][0].json).toMatchObject({
			error: expect.stringMatching(/-1001/),
			details: { code: '-1001' },
		});
		expect(out[at][0].pairedItem).toEqual({ item: 0 });
	});
});
