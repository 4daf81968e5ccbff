/**
 * What a create or update of both data nodes writes: values converted by the documented rules,
 * dates in the workflow time zone, defineBelow expressions, bad values and member ids refused
 * before sending (no item lost), and the fields chosen to write. The requests and the failures
 * of the call are in create.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { DIALECTS, expectAllAccounted, pairsOf, useSandbox } from '../support';
import { asObject, defineBelow, registerWriteKeys, run, storedOf } from './support';

const sb = useSandbox();
registerWriteKeys(sb);
const stored = storedOf(sb);

/** The Failed items of the bad values and member ids of `rejects bad values ...`, in input order. */
const BAD_INPUT_FAILURES = [
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
];

describe.each(DIALECTS)('%s: create and update', (_name, dialect) => {
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
				...defineBelow('={{$json.id}}', [
					['grade', '={{$json.level}}'],
					['points', '={{$json.score * 2}}'],
					['joined', "={{ DateTime.fromISO('2024-03-05T20:00:00Z') }}"],
					['active', '={{ $json.score > 1 }}'],
				]),
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
		expect(failed).toEqual(BAD_INPUT_FAILURES);
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
});
