/**
 * What a create reports beyond Success: failure rows of custom data v2, retried transient faults,
 * counts of legacy data v1, the Failed output in the real engine, and the declared outputs.
 * The create and update rules of both data nodes are in create.test.ts, update.test.ts and
 * create.values.test.ts.
 */
import { CUSTOM, LEGACY, expectAllAccounted, pairsOf, useSandbox } from '../support';
import {
	asObject,
	registerWriteKeys,
	run,
	scriptedCredential,
	startPageServer,
	storedOf,
} from './support';

const sb = useSandbox();
registerWriteKeys(sb);
const stored = storedOf(sb);

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
		const failed = out[1].map((i) => ({ ...i.json, pairedItem: pairsOf(i) }));
		expect(failed).toEqual([
			{
				code: 'F02',
				message: expect.stringMatching(/format/),
				memberId: 'a',
				key: 'points',
				value: 'not a number',
				pairedItem: [0],
			},
			{
				code: 'F01',
				message: expect.stringMatching(/not registered/),
				memberId: 'a',
				key: 'unknownKey',
				value: 'x',
				pairedItem: [0],
			},
			{
				code: 'F02',
				message: expect.any(String),
				memberId: 'b',
				key: 'joined',
				value: '2024-13-45',
				pairedItem: [1],
			},
			{
				code: 'F01',
				message: expect.any(String),
				memberId: 'c',
				key: 'unknownKey',
				value: 'only bad',
				pairedItem: [2, 3],
			},
		]);
		expect(out[0].map((i) => ({ ...i.json, pairedItem: pairsOf(i) }))).toEqual([
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
		expect(out[1].map((i) => [i.json.key, i.json.value, pairsOf(i)])).toEqual([
			['unknownKey', 2, [0, 1]],
		]);
		expect(out[0].map((i) => [i.json.keys, pairsOf(i)])).toEqual([[['grade'], [0, 1]]]);
	});

	it('handles 2,500 items with failures spread over 3 chunks, accounting for every item', async () => {
		const input = Array.from({ length: 2500 }, (_, i) =>
			i % 10 === 0
				? { memberId: `m${i}`, points: 'bad' }
				: { memberId: `m${i}`, points: i, grade: 'g' },
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
				processValue: {
					failList: [{ memberId: members[0], failKey: 'k', failValue: 'v', failCode: 'F01' }],
				},
			};
		});
		try {
			const input = Array.from({ length: 5 }, (_, i) => ({ memberId: `m${i}`, k: 'v', other: i }));
			const { out, error } = await run(
				scriptedCredential(server.baseUrl),
				CUSTOM,
				{ operation: 'create', options: { batchSize: 2 } },
				input,
			);
			expect(error).toBeUndefined();
			expect(server.seen).toHaveLength(3);
			expect(
				out[1].map((i) => [i.json.code, i.json.memberId, i.json.key ?? null, pairsOf(i)]),
			).toEqual([
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
		sb.configure({
			faults: { kinds: ['code-9999'], firstN: 1, match: (r) => r.method === 'POST' },
		});
		const input = Array.from({ length: 1500 }, (_, i) => ({ memberId: `m${i}`, grade: 'g' }));
		const { out, error } = await run(sb, CUSTOM, { operation: 'create' }, input);
		expect(error).toBeUndefined();
		expect(sb.requests.map((r) => Object.keys(asObject(r.body)).length)).toEqual([1000, 1000, 500]);
		expect(sb.state.custom.size).toBe(1500);
		expect(out[0]).toHaveLength(1500);
	});

	it('fails the whole call when the fault persists after the retries', async () => {
		sb.configure({ faults: { kinds: ['http502html'] } });
		const { error } = await run(sb, CUSTOM, { operation: 'create', options: { maxRetries: 1 } }, [
			{ memberId: 'a', grade: 'g' },
		]);
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
			{
				memberId: 'a',
				keys: ['grade', 'points'],
				values: { grade: 'x', points: 1 },
				confirmed: true,
				batchSentCount: 3,
				batchStoredCount: 3,
			},
			{
				memberId: 'b',
				keys: ['grade'],
				values: { grade: 'y' },
				confirmed: true,
				batchSentCount: 3,
				batchStoredCount: 3,
			},
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
		const { nodeOf, runWorkflow, sourceOf } = await import('../support/engine');
		const type = 'n8n-nodes-campaign-messaging.campaignCustomData';
		const credentials = { campaignApi: { id: '1', name: 'c' } };
		const result = await runWorkflow({
			nodes: [
				sourceOf([{ memberId: 'a', grade: 'ok', nope: 1 }, { memberId: '' }]),
				nodeOf('w', 'Write', type, {
					position: [200, 0],
					parameters: { operation: 'create', options: { retryDelayMs: 0 } },
					credentials,
				}),
				nodeOf('r', 'ReadFailed', type, {
					position: [400, 100],
					parameters: {
						operation: 'get',
						memberId: '=x{{$json.code}}',
						options: { retryDelayMs: 0 },
					},
					credentials,
				}),
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
		const { loadPackage, nodeOf } = await import('../support/engine');
		const { NodeHelpers, Workflow } = await import('n8n-workflow');
		for (const type of ['campaignCustomData', 'campaignLegacyData']) {
			const nodeType = loadPackage().nodes.get(`n8n-nodes-campaign-messaging.${type}`);
			if (!nodeType) throw new Error(`${type} not built`);
			const outputsFor = (operation: string) => {
				const node = nodeOf('n', 'N', `n8n-nodes-campaign-messaging.${type}`, {
					parameters: { operation },
				});
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
