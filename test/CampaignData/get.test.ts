/**
 * get of both data nodes, through the real engine against the sandbox: member ids URL-encoded,
 * one member's pages, an empty member id, and the failures of one item or of the whole call.
 */
import { DIALECTS, errorItemsAt, pairedIndexes, useSandbox } from '../support';
import { run, seed, unknownKey } from './support';

const sb = useSandbox();

describe.each(DIALECTS)('%s: get', (_name, dialect) => {
	const odd = ['a&b=c', 'x#y', 'with space', '김철수', '100%+/?', 'plus+sign', '__proto__'];

	it('URL-encodes member ids whatever they contain and returns only that member', async () => {
		for (const id of odd) seed(dialect.store(sb), [id], { grade: `g-${id}` });
		seed(dialect.store(sb), ['a'], { grade: 'other' });
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
		seed(dialect.store(sb), ['a'], { k1: 1, k2: 2, k3: 3 });
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
		seed(dialect.store(sb), ['a'], { grade: 'gold' });
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
		const { error, out } = await run(unknownKey(sb), dialect, { operation: 'get', memberId: 'a' }, [
			{},
		]);
		expect(error?.message).toMatch(/customer does not exist.*-1001/i);
		expect(out).toEqual([]);
		const cont = await run(unknownKey(sb), dialect, { operation: 'get', memberId: 'a' }, [{}, {}], {
			onError: 'continueRegularOutput',
		});
		expect(cont.out).toHaveLength(1);
		expect(cont.out[0].map((i) => [i.json.code, i.pairedItem])).toEqual([
			['-1001', { item: 0 }],
			['-1001', { item: 1 }],
		]);
		const errorOutput = await run(
			unknownKey(sb),
			dialect,
			{ operation: 'get', memberId: 'a' },
			[{}],
			{ onError: 'continueErrorOutput' },
		);
		const at = await errorItemsAt(errorOutput.out);
		expect(errorOutput.out.map((o) => o.length)).toEqual([0, 0].map((_, i) => (i === at ? 1 : 0)));
		expect(errorOutput.out[at][0].json.details).toMatchObject({ code: '-1001' });
	});
});
