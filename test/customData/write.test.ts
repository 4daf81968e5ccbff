/**
 * create and update of both data nodes: chunking, merging, value rules, failure rows (v2),
 * counts (v1), and every input item accounted for on Success or Failed.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { CUSTOM, DIALECTS, LEGACY, expectAllAccounted, pairedOf, run, scriptedCredential, startPageServer } from './support';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(async () => sb.close());
beforeEach(() => {
	sb.reset();
	sb.configure({ faults: undefined, stringCodes: undefined });
	sb.registerKey('grade', 'string');
	sb.registerKey('points', 'number');
	sb.registerKey('joined', 'date');
	sb.registerKey('active', 'string');
});

const asObject = (value: unknown) => value as Record<string, Record<string, unknown>>;
const stored = (dialect: typeof CUSTOM, memberId: string) => Object.fromEntries(dialect.store(sb).get(memberId) ?? []);

describe.each(DIALECTS)('%s: create and update', (_name, dialect) => {
	it('writes 2,500 items in exactly 3 requests, in input order, with every entry stored', async () => {
		const input = Array.from({ length: 2500 }, (_, i) => ({ memberId: `m${i}`, grade: `g${i}`, points: i }));
		const { out, error } = await run(sb, dialect, { operation: 'create' }, input);
		expect(error).toBeUndefined();
		expect(sb.requests.map((r) => [r.method, r.path, Object.keys(asObject(r.body)).length])).toEqual([
			['POST', dialect.path, 1000],
			['POST', dialect.path, 1000],
			['POST', dialect.path, 500],
		]);
		expect(Object.keys(asObject(sb.requests[1].body))[0]).toBe('m1000');
		expect(dialect.store(sb).size).toBe(2500);
		expect(stored(dialect, 'm2499')).toEqual({ grade: 'g2499', points: 2499 });
		expect(out[0]).toHaveLength(2500);
		expect(out[1]).toHaveLength(0);
		expect(out[0][7].json).toMatchObject({ memberId: 'm7', keys: ['grade', 'points'], values: { grade: 'g7', points: 7 } });
		expect(out[0].map((i) => pairedOf(i)[0])).toEqual(input.map((_, i) => i));
	});

	it('honours batchSize 100', async () => {
		const input = Array.from({ length: 250 }, (_, i) => ({ memberId: `m${i}`, grade: 'x' }));
		const { out } = await run(sb, dialect, { operation: 'create', options: { batchSize: 100 } }, input);
		expect(sb.requests.map((r) => Object.keys(asObject(r.body)).length)).toEqual([100, 100, 50]);
		expect(out[0]).toHaveLength(250);
	});

	it('update sends PUT and changes existing entries', async () => {
		dialect.store(sb).set('a', new Map<string, string | number>([['grade', 'old'], ['points', 1]]));
		const { out } = await run(sb, dialect, { operation: 'update' }, [{ memberId: 'a', grade: 'new' }]);
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
		expect(sb.requests[0].body).toEqual({ a: { grade: 'last', points: 1, joined: '2024-01-02' }, b: { grade: 'b' } });
		expect(stored(dialect, 'a')).toEqual({ grade: 'last', points: 1, joined: '2024-01-02' });
		expect(out[0].map((i) => [i.json.memberId, pairedOf(i)])).toEqual([
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
		expect(stored(dialect, 'x')).toEqual({ grade: 'gold', points: 6, joined: '2024-03-06', active: 'true' });
	});

	it('a date is written in the workflow time zone (America/New_York keeps the UTC evening on the same day)', async () => {
		await run(sb, dialect, { operation: 'create' }, [{ memberId: 'a', joined: '2024-03-06T02:00:00Z' }], {
			timezone: 'America/New_York',
		});
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
		const failed = out[1].map((i) => ({ ...i.json, pairedItem: pairedOf(i) }));
		expect(failed).toEqual([
			expect.objectContaining({ code: 'F02', memberId: 'a', key: 'nothing', value: null, message: expect.stringMatching(/"nothing" is null/), pairedItem: [0] }),
			expect.objectContaining({ code: 'F02', memberId: 'a', key: 'nested', value: { x: 1 }, message: expect.stringMatching(/an object/), pairedItem: [0] }),
			expect.objectContaining({ code: 'F02', memberId: 'a', key: 'list', value: [1, 2], message: expect.stringMatching(/an array/), pairedItem: [0] }),
			expect.objectContaining({ code: '-9997', field: 'memberId', memberId: '', message: 'Member ID is empty', pairedItem: [1] }),
			expect.objectContaining({ code: '-9997', field: 'memberId', memberId: null, message: expect.stringMatching(/no field "memberId"/), pairedItem: [2] }),
			expect.objectContaining({ code: '-9997', field: 'memberId', message: expect.stringMatching(/text or a number \(got an object\)/), pairedItem: [3] }),
			expect.objectContaining({ code: '-9997', field: 'memberId', message: expect.stringMatching(/control characters/), pairedItem: [4] }),
			expect.objectContaining({ code: 'F02', memberId: 'c', key: 'gone', pairedItem: [5] }),
			expect.objectContaining({ code: '-9997', memberId: 'd', message: expect.stringMatching(/Nothing to write/), pairedItem: [6] }),
		]);
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].body).toEqual({ a: { grade: 'ok' }, 12345: { grade: 'numeric id' } });
		expect(out[0].map((i) => i.json.memberId)).toEqual(['a', '12345']);
		expectAllAccounted(out, input.length);
	});

	it('Skip Empty Values leaves null values out instead of failing them', async () => {
		const { out } = await run(sb, dialect, { operation: 'create', options: { skipNullValues: true } }, [
			{ memberId: 'a', grade: 'x', email: null },
		]);
		expect(sb.requests[0].body).toEqual({ a: { grade: 'x' } });
		expect(out[1]).toHaveLength(0);
	});

	it('uses Member ID Field, Fields to Write and Fields to Ignore', async () => {
		await run(sb, dialect, { operation: 'create', memberIdField: 'id', options: { excludeFields: 'email, createdAt' } }, [
			{ id: 'a', grade: 'x', email: 'a@b.c', createdAt: 'now', points: 2 },
		]);
		expect(sb.requests[0].body).toEqual({ a: { grade: 'x', points: 2 } });
		sb.reset();
		await run(sb, dialect, { operation: 'create', memberIdField: 'id', options: { includeFields: 'grade' } }, [
			{ id: 'a', grade: 'x', email: 'a@b.c', points: 2 },
		]);
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
		const stop = await run(sb, dialect, { operation: 'create' }, [{ memberId: 'a', grade: 'x' }], { credentials });
		expect(stop.error?.message).toMatch(/-1001/);
		const cont = await run(sb, dialect, { operation: 'create' }, [{ memberId: 'a', grade: 'x' }, { memberId: 'b', grade: 'y' }], {
			credentials,
			onError: 'continueRegularOutput',
		});
		expect(cont.error).toBeUndefined();
		expect(cont.out[0].map((i) => [i.json.code, i.pairedItem])).toEqual([
			['-1001', { item: 0 }],
			['-1001', { item: 1 }],
		]);
		expect(cont.out[1]).toEqual([]);
	});

	it('under "Continue (using error output)" the error items go to the error output, after Success and Failed', async () => {
		const credentials = { baseUrl: sb.baseUrl, apiKey: 'not-a-known-key' };
		const { out, error } = await run(sb, dialect, { operation: 'create' }, [{ memberId: 'a', grade: 'x' }], {
			credentials,
			onError: 'continueErrorOutput',
		});
		expect(error).toBeUndefined();
		expect(out.map((o) => o.length)).toEqual([0, 0, 1]);
		expect(out[2][0].json).toMatchObject({ error: expect.stringMatching(/-1001/), details: { code: '-1001' } });
		expect(out[2][0].pairedItem).toEqual({ item: 0 });
	});
});

describe('custom data v2: partial success (failure rows)', () => {
	it('puts each F01/F02 row on Failed, the rest on Success, every input item accounted for', async () => {
		const input = [
			{ memberId: 'a', grade: 'gold', points: 'not a number', unknownKey: 'x' },
			{ memberId: 'b', points: 5, joined: '2024-13-45' },
			{ memberId: 'c', unknownKey: 'only bad' },
			{ memberId: 'c' }, // merged with the previous one, no key of its own
			{ memberId: 'd', grade: 'fine' },
		];
		const { out, error } = await run(sb, CUSTOM, { operation: 'create' }, input);
		expect(error).toBeUndefined();
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].processCode).toBe(1);
		const failed = out[1].map((i) => ({ ...i.json, pairedItem: pairedOf(i) }));
		expect(failed).toEqual([
			{ code: 'F02', message: expect.stringMatching(/format/), memberId: 'a', key: 'points', value: 'not a number', pairedItem: [0] },
			{ code: 'F01', message: expect.stringMatching(/not registered/), memberId: 'a', key: 'unknownKey', value: 'x', pairedItem: [0] },
			{ code: 'F02', message: expect.any(String), memberId: 'b', key: 'joined', value: '2024-13-45', pairedItem: [1] },
			{ code: 'F01', message: expect.any(String), memberId: 'c', key: 'unknownKey', value: 'only bad', pairedItem: [2, 3] },
		]);
		expect(out[0].map((i) => ({ ...i.json, pairedItem: pairedOf(i) }))).toEqual([
			{ memberId: 'a', keys: ['grade'], values: { grade: 'gold' }, pairedItem: [0] },
			{ memberId: 'b', keys: ['points'], values: { points: 5 }, pairedItem: [1] },
			{ memberId: 'd', keys: ['grade'], values: { grade: 'fine' }, pairedItem: [4] },
		]);
		expect(stored(CUSTOM, 'a')).toEqual({ grade: 'gold' });
		expect(sb.state.custom.has('c')).toBe(false);
		expectAllAccounted(out, input.length);
	});

	it('pairs a failure row to every item that gave that key of that member', async () => {
		const input = [
			{ memberId: 'a', unknownKey: 1, grade: 'x' },
			{ memberId: 'a', unknownKey: 2 },
		];
		const { out } = await run(sb, CUSTOM, { operation: 'create' }, input);
		expect(out[1].map((i) => [i.json.key, i.json.value, pairedOf(i)])).toEqual([['unknownKey', 2, [0, 1]]]);
		expect(out[0].map((i) => [i.json.keys, pairedOf(i)])).toEqual([[['grade'], [0, 1]]]);
	});

	it('handles 2,500 items with failures spread over 3 chunks, accounting for every item', async () => {
		const input = Array.from({ length: 2500 }, (_, i) =>
			i % 10 === 0 ? { memberId: `m${i}`, points: 'bad' } : { memberId: `m${i}`, points: i, grade: 'g' },
		);
		const { out } = await run(sb, CUSTOM, { operation: 'create' }, input);
		expect(sb.requests).toHaveLength(3);
		expect(out[1]).toHaveLength(250);
		expect(out[1].every((i) => i.json.code === 'F02')).toBe(true);
		expect(out[0]).toHaveLength(2250);
		expectAllAccounted(out, input.length);
	});

	it('reads failure rows wrapped in an object and reports a rejected chunk with the code table message', async () => {
		const server = await startPageServer((_url, index, body) => {
			const members = Object.keys(JSON.parse(body) as object);
			if (index === 1) return { processCode: -1004, processValue: null };
			return {
				processCode: 1,
				processValue: { failList: [{ memberId: members[0], failKey: 'k', failValue: 'v', failCode: 'F01' }] },
			};
		});
		try {
			const input = Array.from({ length: 5 }, (_, i) => ({ memberId: `m${i}`, k: 'v', other: i }));
			const { out, error } = await run({ baseUrl: '', apiKey: '' }, CUSTOM, { operation: 'create', options: { batchSize: 2 } }, input, {
				credentials: scriptedCredential(server.baseUrl),
			});
			expect(error).toBeUndefined();
			expect(server.seen).toHaveLength(3);
			expect(out[1].map((i) => [i.json.code, i.json.memberId, i.json.key ?? null, pairedOf(i)])).toEqual([
				['F01', 'm0', 'k', [0]],
				['-1004', 'm2', null, [2]],
				['-1004', 'm3', null, [3]],
				['F01', 'm4', 'k', [4]],
			]);
			expect(out[1][1].json.message).toMatch(/Data limit exceeded/);
			expect(out[1][1].json.keys).toEqual(['k', 'other']);
			expect(out[0].map((i) => [i.json.memberId, i.json.keys])).toEqual([
				['m0', ['other']],
				['m1', ['k', 'other']],
				['m4', ['other']],
			]);
			expectAllAccounted(out, input.length);
		} finally {
			await server.close();
		}
	});
});

describe('transient faults on writes', () => {
	it('retries a chunk that failed with a server error (idempotent) and stores everything once', async () => {
		sb.configure({ faults: { kinds: ['code-9999'], firstN: 1, match: (r) => r.method === 'POST' } });
		const input = Array.from({ length: 1500 }, (_, i) => ({ memberId: `m${i}`, grade: 'g' }));
		const { out, error } = await run(sb, CUSTOM, { operation: 'create' }, input);
		expect(error).toBeUndefined();
		expect(sb.requests.map((r) => Object.keys(asObject(r.body)).length)).toEqual([1000, 1000, 500]);
		expect(sb.state.custom.size).toBe(1500);
		expect(out[0]).toHaveLength(1500);
	});

	it('fails the whole call when the fault persists after the retries', async () => {
		sb.configure({ faults: { kinds: ['http502html'] } });
		const { error } = await run(sb, CUSTOM, { operation: 'create', options: { maxRetries: 1 } }, [{ memberId: 'a', grade: 'g' }]);
		expect(error?.message).toMatch(/HTTP 502.*after 2 attempts/);
		expect(sb.requests).toHaveLength(2);
	});
});

describe('legacy data v1: counts', () => {
	it('reports a full count as confirmed', async () => {
		const { out } = await run(sb, LEGACY, { operation: 'create' }, [
			{ memberId: 'a', grade: 'x', points: 1 },
			{ memberId: 'b', grade: 'y' },
		]);
		expect(out[0].map((i) => i.json)).toEqual([
			{ memberId: 'a', keys: ['grade', 'points'], values: { grade: 'x', points: 1 }, confirmed: true, batchSentCount: 3, batchStoredCount: 3 },
			{ memberId: 'b', keys: ['grade'], values: { grade: 'y' }, confirmed: true, batchSentCount: 3, batchStoredCount: 3 },
		]);
	});

	it('says so when the service stored fewer entries than were sent, never claiming more', async () => {
		const { out } = await run(sb, LEGACY, { operation: 'create' }, [
			{ memberId: 'a', grade: 'x', points: 'not a number' },
			{ memberId: 'b', joined: 'someday' },
		]);
		expect(sb.requests[0].processCode).toBe(0);
		expect(out[0]).toHaveLength(2);
		for (const item of out[0]) {
			expect(item.json).toMatchObject({ confirmed: false, batchSentCount: 3, batchStoredCount: 1 });
			expect(item.json.warning).toMatch(/confirmed storing 1 of the 3 entries/);
		}
		expect(Object.fromEntries(sb.state.legacy.get('a') ?? [])).toEqual({ grade: 'x' });
	});
});

describe('outputs in the real engine', () => {
	it('routes Failed items to output index 1: a node connected there receives exactly them', async () => {
		const { runWorkflow } = await import('../engine/harness');
		const result = await runWorkflow({
			nodes: [
				{ id: 's', name: 'Source', type: 'test.source', typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify([{ memberId: 'a', grade: 'ok', nope: 1 }, { memberId: '' }]) } },
				{
					id: 'w',
					name: 'Write',
					type: 'n8n-nodes-campaign-messaging.campaignCustomData',
					typeVersion: 1,
					position: [200, 0],
					parameters: { operation: 'create', options: { retryDelayMs: 0 } },
					credentials: { campaignApi: { id: '1', name: 'c' } },
				},
				{
					id: 'r',
					name: 'ReadFailed',
					type: 'n8n-nodes-campaign-messaging.campaignCustomData',
					typeVersion: 1,
					position: [400, 100],
					parameters: { operation: 'get', memberId: '=x{{$json.code}}', options: { retryDelayMs: 0 } },
					credentials: { campaignApi: { id: '1', name: 'c' } },
				},
			],
			connections: {
				Source: { main: [[{ node: 'Write', type: 'main', index: 0 }]] },
				Write: { main: [[], [{ node: 'ReadFailed', type: 'main', index: 0 }]] },
			},
			credentials: { campaignApi: { baseUrl: sb.baseUrl, apiKey: sb.apiKey } },
		});
		expect(result.error).toBeUndefined();
		const write = result.outputs('Write');
		expect(write.map((o) => o.length)).toEqual([1, 2]);
		// The reading node ran once per Failed item, with the Failed items' codes.
		const reads = sb.requests.filter((r) => r.method === 'GET').map((r) => r.query.memberId);
		expect(reads.sort()).toEqual(['x-9997', 'xF01']);
	});
});

describe('declared outputs', () => {
	it('evaluates to one output for reads and Success/Failed for writes', async () => {
		const { loadPackage } = await import('../engine/harness');
		const { NodeHelpers, Workflow } = await import('n8n-workflow');
		for (const type of ['campaignCustomData', 'campaignLegacyData']) {
			const nodeType = loadPackage().nodes.get(`n8n-nodes-campaign-messaging.${type}`);
			if (!nodeType) throw new Error(`${type} not built`);
			const outputsFor = (operation: string) => {
				const node = { id: 'n', name: 'N', type: `n8n-nodes-campaign-messaging.${type}`, typeVersion: 1, position: [0, 0] as [number, number], parameters: { operation } };
				const workflow = new Workflow({
					nodes: [node],
					connections: {},
					active: false,
					nodeTypes: {
						getByName: () => nodeType,
						getByNameAndVersion: () => nodeType,
						getKnownTypes: () => ({}),
					},
				});
				return NodeHelpers.getNodeOutputs(workflow, node, nodeType.description);
			};
			expect(outputsFor('get')).toEqual([{ type: 'main' }]);
			expect(outputsFor('getAll')).toEqual([{ type: 'main' }]);
			for (const operation of ['create', 'update', 'delete', 'deleteKeys']) {
				expect(outputsFor(operation)).toEqual([
					{ type: 'main', displayName: 'Success' },
					{ type: 'main', displayName: 'Failed' },
				]);
			}
		}
	});
});
