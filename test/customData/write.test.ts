/**
 * create and update of both data nodes: chunking, merging, value rules, whole-call failures, and
 * every input item accounted for on Success or Failed. Failure rows (v2), counts (v1), retries
 * and the declared outputs are in write-results.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { DIALECTS, errorItemsAt, expectAllAccounted, pairsOf, useSandbox } from '../support';
import { asObject, registerWriteKeys, run, storedOf } from './support';

const sb = useSandbox();
registerWriteKeys(sb);
const stored = storedOf(sb);

describe.each(DIALECTS)('%s: create and update', (_name, dialect) => {
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

	it('update sends PUT and changes existing entries', async () => {
		dialect.store(sb).set(
			'a',
			new Map<string, string | number>([
				['grade', 'old'],
				['points', 1],
			]),
		);
		const { out } = await run(sb, dialect, { operation: 'update' }, [
			{ memberId: 'a', grade: 'new' },
		]);
		expect(sb.requests.map((r) => r.method)).toEqual(['PUT']);
		expect(stored(dialect, 'a')).toEqual({ grade: 'new', points: 1 });
		expect(out[0]).toHaveLength(1);
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

	it('converts values by the documented rules before sending', async () => {
		const input = [
			{
				memberId: 'a',
				n: 12,
				numText: '42',
				zip: '007',
				decimalText: '1.50',
				bigId: '12345678901234567890',
				flag: true,
				off: false,
				day: '2024-02-29',
				utc: '2024-03-05T23:30:00Z',
				offset: '2024-03-05T08:00:00+09:00',
				wall: '2024-03-05T23:30:00',
				text: 'hello, 세계',
			},
		];
		await run(sb, dialect, { operation: 'create' }, input, { timezone: 'Asia/Seoul' });
		expect(sb.requests[0].body).toEqual({
			a: {
				n: 12,
				numText: 42,
				zip: '007',
				decimalText: '1.50',
				bigId: '12345678901234567890',
				flag: 'true',
				off: 'false',
				day: '2024-02-29',
				utc: '2024-03-06',
				offset: '2024-03-05',
				wall: '2024-03-05',
				text: 'hello, 세계',
			},
		});
	});

	it('defineBelow: member id and key/value expressions, dates in the workflow time zone', async () => {
		const { out } = await run(
			sb,
			dialect,
			{
				operation: 'create',
				mappingMode: 'defineBelow',
				memberId: '={{$json.id}}',
				entries: {
					entry: [
						{ key: 'grade', value: '={{$json.level}}' },
						{ key: 'points', value: '={{$json.score * 2}}' },
						{ key: 'joined', value: "={{ DateTime.fromISO('2024-03-05T20:00:00Z') }}" },
						{ key: 'active', value: '={{ $json.score > 1 }}' },
					],
				},
			},
			[
				{ id: 'x', level: 'gold', score: 3 },
				{ id: 'y', level: 'silver', score: 1 },
			],
			{ timezone: 'Asia/Seoul' },
		);
		expect(sb.requests[0].body).toEqual({
			x: { grade: 'gold', points: 6, joined: '2024-03-06', active: 'true' },
			y: { grade: 'silver', points: 2, joined: '2024-03-06', active: 'false' },
		});
		expect(out[0]).toHaveLength(2);
		expect(stored(dialect, 'x')).toEqual({
			grade: 'gold',
			points: 6,
			joined: '2024-03-06',
			active: 'true',
		});
	});

	it('a date is written in the workflow time zone (America/New_York keeps the UTC evening on the same day)', async () => {
		await run(
			sb,
			dialect,
			{ operation: 'create' },
			[{ memberId: 'a', joined: '2024-03-06T02:00:00Z' }],
			{
				timezone: 'America/New_York',
			},
		);
		expect(sb.requests[0].body).toEqual({ a: { joined: '2024-03-05' } });
	});

	it('rejects bad values and bad member ids before sending, naming the field and the rule, losing no item', async () => {
		const input: IDataObject[] = [
			{ memberId: 'a', grade: 'ok', nothing: null, nested: { x: 1 }, list: [1, 2] },
			{ memberId: '', grade: 'x' },
			{ grade: 'no id at all' },
			{ memberId: { id: 1 }, grade: 'x' },
			{ memberId: 'line\nbreak', grade: 'x' },
			{ memberId: 'c', gone: null },
			{ memberId: 'd' },
			{ memberId: 12345, grade: 'numeric id' },
		];
		const { out, error } = await run(sb, dialect, { operation: 'create' }, input);
		expect(error).toBeUndefined();
		const failed = out[1].map((i) => ({ ...i.json, pairedItem: pairsOf(i) }));
		expect(failed).toEqual([
			expect.objectContaining({
				code: 'F02',
				memberId: 'a',
				key: 'nothing',
				value: null,
				message: expect.stringMatching(/"nothing" is null/),
				pairedItem: [0],
			}),
			expect.objectContaining({
				code: 'F02',
				memberId: 'a',
				key: 'nested',
				value: { x: 1 },
				message: expect.stringMatching(/an object/),
				pairedItem: [0],
			}),
			expect.objectContaining({
				code: 'F02',
				memberId: 'a',
				key: 'list',
				value: [1, 2],
				message: expect.stringMatching(/an array/),
				pairedItem: [0],
			}),
			expect.objectContaining({
				code: '-9997',
				field: 'memberId',
				memberId: '',
				message: 'Member ID is empty',
				pairedItem: [1],
			}),
			expect.objectContaining({
				code: '-9997',
				field: 'memberId',
				memberId: null,
				message: expect.stringMatching(/no field "memberId"/),
				pairedItem: [2],
			}),
			expect.objectContaining({
				code: '-9997',
				field: 'memberId',
				message: expect.stringMatching(/text or a number \(got an object\)/),
				pairedItem: [3],
			}),
			expect.objectContaining({
				code: '-9997',
				field: 'memberId',
				message: expect.stringMatching(/control characters/),
				pairedItem: [4],
			}),
			expect.objectContaining({ code: 'F02', memberId: 'c', key: 'gone', pairedItem: [5] }),
			expect.objectContaining({
				code: '-9997',
				memberId: 'd',
				message: expect.stringMatching(/Nothing to write/),
				pairedItem: [6],
			}),
		]);
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].body).toEqual({ a: { grade: 'ok' }, 12345: { grade: 'numeric id' } });
		expect(out[0].map((i) => i.json.memberId)).toEqual(['a', '12345']);
		expectAllAccounted(out, input.length);
	});

	it('Skip Empty Values leaves null values out instead of failing them', async () => {
		const { out } = await run(
			sb,
			dialect,
			{ operation: 'create', options: { skipNullValues: true } },
			[{ memberId: 'a', grade: 'x', email: null }],
		);
		expect(sb.requests[0].body).toEqual({ a: { grade: 'x' } });
		expect(out[1]).toHaveLength(0);
	});

	it('uses Member ID Field, Fields to Write and Fields to Ignore', async () => {
		await run(
			sb,
			dialect,
			{ operation: 'create', memberIdField: 'id', options: { excludeFields: 'email, createdAt' } },
			[{ id: 'a', grade: 'x', email: 'a@b.c', createdAt: 'now', points: 2 }],
		);
		expect(sb.requests[0].body).toEqual({ a: { grade: 'x', points: 2 } });
		sb.reset();
		await run(
			sb,
			dialect,
			{ operation: 'create', memberIdField: 'id', options: { includeFields: 'grade' } },
			[{ id: 'a', grade: 'x', email: 'a@b.c', points: 2 }],
		);
		expect(sb.requests[0].body).toEqual({ a: { grade: 'x' } });
	});

	it('sends odd member ids and key names exactly as given', async () => {
		const ids = ['a&b=c', 'x#y', 'with space', '김철수', '100%+/?', '__proto__', 'constructor'];
		const input = ids.map((memberId, i) => ({ memberId, grade: `g${i}` }));
		const { out, error } = await run(sb, dialect, { operation: 'create' }, input);
		expect(error).toBeUndefined();
		expect(Object.keys(asObject(sb.requests[0].body)).sort()).toEqual([...ids].sort());
		for (const [i, id] of ids.entries()) expect(stored(dialect, id)).toEqual({ grade: `g${i}` });
		expect(out[0].map((i) => i.json.memberId)).toEqual(ids);
	});

	it('a whole-call failure (unknown key) stops the node; under "Continue" it becomes error items', async () => {
		const credentials = { baseUrl: sb.baseUrl, apiKey: 'not-a-known-key' };
		const stop = await run(sb, dialect, { operation: 'create' }, [{ memberId: 'a', grade: 'x' }], {
			credentials,
		});
		expect(stop.error?.message).toMatch(/-1001/);
		const cont = await run(
			sb,
			dialect,
			{ operation: 'create' },
			[
				{ memberId: 'a', grade: 'x' },
				{ memberId: 'b', grade: 'y' },
			],
			{
				credentials,
				onError: 'continueRegularOutput',
			},
		);
		expect(cont.error).toBeUndefined();
		expect(cont.out[0].map((i) => [i.json.code, i.pairedItem])).toEqual([
			['-1001', { item: 0 }],
			['-1001', { item: 1 }],
		]);
		expect(cont.out[1]).toEqual([]);
	});

	it('under "Continue (using error output)" the error items go to the error output, after Success and Failed', async () => {
		const credentials = { baseUrl: sb.baseUrl, apiKey: 'not-a-known-key' };
		const { out, error } = await run(
			sb,
			dialect,
			{ operation: 'create' },
			[{ memberId: 'a', grade: 'x' }],
			{
				credentials,
				onError: 'continueErrorOutput',
			},
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
