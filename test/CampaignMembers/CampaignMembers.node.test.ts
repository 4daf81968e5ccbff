/**
 * The node as n8n sees it: outputs that depend on the operation (and the engine routing items to
 * the Failed output), the version guard, and whole-call failures under "On Error".
 */
import type { IDataObject, IExecuteFunctions, INode, INodeType } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import {
	errorItemsAt,
	loadPackage,
	PACKAGE_NAME,
	runWorkflow,
	sourceOf,
	useSandbox,
} from '../support';
import { requestsTo, runMembers } from './support';

const sb = useSandbox();
const TYPE = `${PACKAGE_NAME}.campaignMembers`;

/** A downstream node that passes its input through, so the test sees what reached it. */
const sink: INodeType = {
	description: {
		displayName: 'Sink',
		name: 'testSink',
		group: ['output'],
		version: 1,
		description: 'Receives items',
		defaults: { name: 'Sink' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	},
};

/** The Members node of a test workflow, version 1. */
const membersNode = (parameters: IDataObject, position: [number, number] = [0, 0]): INode => ({
	id: 'members',
	name: 'Members',
	type: TYPE,
	typeVersion: 1,
	position,
	parameters: parameters as INode['parameters'],
});

describe('outputs depend on the operation', () => {
	const outputsFor = (parameters: IDataObject) => {
		const { nodes } = loadPackage();
		const description = nodes.get(TYPE)!.description;
		const node = membersNode(parameters);
		const nodeTypes = {
			getByName: () => nodes.get(TYPE)!,
			getByNameAndVersion: () => nodes.get(TYPE)!,
			getKnownTypes: () => ({}),
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		return NodeHelpers.getNodeOutputs(workflow, workflow.getNode('Members')!, description);
	};

	it('get has one output; upsert and delete have Success and Failed; the default operation is a write', () => {
		expect(outputsFor({ operation: 'get' })).toEqual([{ type: 'main' }]);
		const write = [
			{ type: 'main', displayName: 'Success' },
			{ type: 'main', displayName: 'Failed' },
		];
		expect(outputsFor({ operation: 'upsert' })).toEqual(write);
		expect(outputsFor({ operation: 'delete', apiVersion: 'v1' })).toEqual(write);
		expect(outputsFor({})).toEqual(write);
	});

	it('the engine routes Failed items to the node connected to output 1', async () => {
		const members: INode = {
			...membersNode(
				{ operation: 'upsert', apiVersion: 'v2', options: { retryDelayMs: 0 } },
				[200, 0],
			),
			credentials: { campaignApi: { id: '1', name: 'Campaign API' } },
		};
		const result = await runWorkflow({
			nodes: [
				sourceOf([
					{ memberId: 'a', phoneNumber: '010-1234-5678' },
					{ memberId: 'b', phoneNumber: 'bad' },
				]),
				members,
				{
					id: 'ok',
					name: 'OnSuccess',
					type: 'test.sink',
					typeVersion: 1,
					position: [400, 0],
					parameters: {},
				},
				{
					id: 'ko',
					name: 'OnFailed',
					type: 'test.sink',
					typeVersion: 1,
					position: [400, 200],
					parameters: {},
				},
			],
			connections: {
				Source: { main: [[{ node: 'Members', type: 'main', index: 0 }]] },
				Members: {
					main: [
						[{ node: 'OnSuccess', type: 'main', index: 0 }],
						[{ node: 'OnFailed', type: 'main', index: 0 }],
					],
				},
			},
			extraTypes: { 'test.sink': sink },
			credentials: { campaignApi: { baseUrl: sb.baseUrl, apiKey: sb.apiKey } },
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs('OnSuccess')[0].map((i) => i.json.memberId)).toEqual(['a']);
		expect(result.outputs('OnFailed')[0].map((i) => i.json)).toEqual([
			expect.objectContaining({ code: 'F02', memberId: 'b' }),
		]);
	});
});

describe('member API versions must not mix', () => {
	it.each([
		['v1', 'v2', 'upsert'],
		['v2', 'v1', 'upsert'],
		['v1', 'v2', 'get'],
		['v2', 'v1', 'delete'],
	] as const)(
		'a credential pinned to %s refuses a %s node (%s) before sending anything',
		async (credential, node, operation) => {
			const { error } = await runMembers(sb, {
				parameters: { operation, apiVersion: node, memberId: 'm1', phoneNumber: '010-1234-5678' },
				input: [{ memberId: 'm1', phoneNumber: '010-1234-5678' }],
				memberApiVersion: credential,
			});
			expect(error?.message).toBe(
				`This node uses member API ${node}, but its Campaign API credential is set to member API ${credential} only`,
			);
			expect((error as unknown as { description: string }).description).toContain(
				'forbids using member API v1 and v2 together',
			);
			expect((error as unknown as { description: string }).description).toContain(
				`Set "API Version" of this node to ${credential.toUpperCase()}`,
			);
			expect(sb.requests).toHaveLength(0);
		},
	);

	it.each(['any', 'v2'] as const)(
		'a credential set to %s lets a v2 node through',
		async (memberApiVersion) => {
			const { error, out } = await runMembers(sb, {
				parameters: { operation: 'upsert', apiVersion: 'v2' },
				input: [{ memberId: 'm1', phoneNumber: '010-1234-5678' }],
				memberApiVersion,
			});
			expect(error).toBeUndefined();
			expect(out[0]).toHaveLength(1);
		},
	);
});

describe('whole-call failures follow "On Error"', () => {
	const input = [
		{ memberId: 'a', phoneNumber: '010-1234-5678' },
		{ memberId: 'b', phoneNumber: '010-2345-6789' },
	];

	it('a wrong key stops the workflow with the service meaning, without leaking the key', async () => {
		const { error } = await runMembers(sb, {
			parameters: { operation: 'upsert', apiVersion: 'v1' },
			input,
			wrongKey: true,
		});
		expect(error?.message).toContain('-1001');
		expect(JSON.stringify(error)).not.toContain('wrong-key-12345');
		expect(requestsTo(sb, 'POST', '/v1/users/sms')).toHaveLength(1);
	});

	it('under "Continue" every input item becomes one paired error item on the first output', async () => {
		const { error, out } = await runMembers(sb, {
			parameters: { operation: 'upsert', apiVersion: 'v2' },
			input,
			wrongKey: true,
			onError: 'continueRegularOutput',
		});
		expect(error).toBeUndefined();
		expect(out[0]).toEqual([
			{ json: expect.objectContaining({ code: '-1001' }), pairedItem: { item: 0 } },
			{ json: expect.objectContaining({ code: '-1001' }), pairedItem: { item: 1 } },
		]);
		expect(out[1]).toEqual([]);
	});

	it('under "Continue (using error output)" the error items go to the extra Error output after Success and Failed', async () => {
		const { error, out } = await runMembers(sb, {
			parameters: { operation: 'delete', apiVersion: 'v1', memberId: '={{ $json.memberId }}' },
			input,
			wrongKey: true,
			onError: 'continueErrorOutput',
		});
		expect(error).toBeUndefined();
		expect(out).toHaveLength(3);
		const at = await errorItemsAt(out);
		expect(out.map((o) => o.length)).toEqual([0, 0, 0].map((_, i) => (i === at ? 2 : 0)));
		expect(out[at].map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// n8n merges the input item into the error item it routes; the code stays under details.
		expect(out[at][0].json).toMatchObject({
			error: expect.stringContaining('-1001'),
			details: { code: '-1001' },
			...(at === 2 ? { memberId: 'a' } : {}),
		});
	});
});
