/**
 * Nodes of one workflow that would share a send's deduplication record
 * (docs/deduplication.md, "Nodes that share a record"): refused before anything is sent, naming the other node. Each test
 * failed on the Deduplication Key before this check (CHANGELOG).
 */
import type { IExecuteFunctions, INode, INodeType } from 'n8n-workflow';
import { NODE_NAME, loadPackage, runWorkflow, sourceOf } from '../../support/engine';
import { KEYED, dedupFixture, order, phone, runSend, sendNode, sendsOf } from './support';

const fx = dedupFixture();
const { good, sentPhones } = sendsOf(fx, KEYED);

/** An options parameter named after its display name (lower-cased), with its choices by label. */
function choice(displayName: string, fallback: string, choices: Record<string, string>) {
	const options = Object.entries(choices).map(([name, value]) => ({ name, value }));
	const name = displayName.toLowerCase();
	return { displayName, name, type: 'options' as const, default: fallback, options };
}

describe('nodes that share a deduplication record', () => {
	const removeDuplicates: INodeType = {
		description: {
			displayName: 'Remove Duplicates',
			name: 'removeDuplicates',
			group: ['transform'],
			version: 2,
			description: 'A stand-in: only its parameters are read',
			defaults: { name: 'Remove Duplicates' },
			inputs: ['main'],
			outputs: ['main'],
			// As n8n's own Remove Duplicates names them (only these are read).
			properties: [
				choice('Operation', 'removeDuplicateInputItems', {
					'Within this run': 'removeDuplicateInputItems',
					'Seen before': 'removeItemsSeenInPreviousExecutions',
				}),
				{
					displayName: 'Options',
					name: 'options',
					type: 'collection',
					default: {},
					options: [choice('Scope', 'node', { Workflow: 'workflow', Node: 'node' })],
				},
			],
		},
		async execute(this: IExecuteFunctions) {
			return [this.getInputData()];
		},
	} as unknown as INodeType;

	async function withRemoveDuplicates(scope: string, keyScope: string, wired = true) {
		const rd: INode = {
			id: 'rd',
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			position: [200, 200],
			parameters: { operation: 'removeItemsSeenInPreviousExecutions', options: { scope } },
		};
		const send = sendNode(NODE_NAME, 'node-under-test', { ...KEYED, deduplicationScope: keyScope });
		return await runWorkflow({
			nodes: [sourceOf([order(1)]), rd, send],
			connections: wired
				? {
						Source: { main: [[{ node: 'Remove Duplicates', type: 'main', index: 0 }]] },
						'Remove Duplicates': { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
					}
				: { Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
			credentials: { campaignApi: good() as never },
			extraTypes: { 'n8n-nodes-base.removeDuplicates': removeDuplicates },
		});
	}

	it.each(['node', 'workflow'])(
		'Remove Duplicates with scope "Workflow" and a key of scope %s: refused before sending, naming it',
		async (keyScope) => {
			const { error } = await withRemoveDuplicates('workflow', keyScope);
			expect(error?.message).toMatch(
				/the Remove Duplicates node "Remove Duplicates" keeps its history/,
			);
			expect(fx.sb.state.sent).toHaveLength(0);
		},
	);

	it.each(['node', 'workflow'])(
		'Remove Duplicates with scope "Workflow" connected to nothing, and a key of scope %s: refused before sending',
		async (keyScope) => {
			const { error } = await withRemoveDuplicates('workflow', keyScope, false);
			expect(error?.message).toMatch(
				/the Remove Duplicates node "Remove Duplicates" keeps its history/,
			);
			expect(fx.sb.state.sent).toHaveLength(0);
		},
	);

	it('two keyed send tools of one AI Agent (ai_tool) sharing the workflow record: refused before sending', async () => {
		const agent: INode = { ...sourceOf([]), id: 'agent', name: 'AI Agent', position: [600, 0] };
		const shared = { ...KEYED, deduplicationScope: 'workflow' };
		const { error } = await runWorkflow({
			nodes: [
				sourceOf([order(1)]),
				sendNode(NODE_NAME, 'node-under-test', shared),
				sendNode('Second Tool', 'second-tool', shared),
				agent,
			],
			connections: {
				Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
				[NODE_NAME]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				'Second Tool': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			},
			credentials: { campaignApi: good() as never },
		});
		expect(error?.message).toMatch(/the node "Second Tool" also has a Deduplication Key/);
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('a keyed send beside a keyed send tool (the tool copy of the same node type) sharing the workflow record: refused before sending', async () => {
		const agent: INode = { ...sourceOf([]), id: 'agent', name: 'AI Agent', position: [600, 0] };
		const shared = { ...KEYED, deduplicationScope: 'workflow' };
		const tool = sendNode('Send Tool', 'send-tool', shared);
		const { error } = await runWorkflow({
			nodes: [
				sourceOf([order(1)]),
				sendNode(NODE_NAME, 'node-under-test', shared),
				{ ...tool, type: `${tool.type}Tool` },
				agent,
			],
			connections: {
				Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
				'Send Tool': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			},
			credentials: { campaignApi: good() as never },
			// The tool copy never runs here: its type is the send's, under the name n8n gives a copy.
			extraTypes: { [`${tool.type}Tool`]: loadPackage().nodes.get(tool.type) as INodeType },
		});
		expect(error?.message).toMatch(/the node "Send Tool" also has a Deduplication Key/);
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('Remove Duplicates with scope "Node" shares nothing: sent', async () => {
		const { error } = await withRemoveDuplicates('node', 'node');
		expect(error).toBeUndefined();
		expect(sentPhones()).toEqual([phone(1)]);
	});

	it('a keyed send with "This Node" beside one with "Whole Workflow": refused before sending', async () => {
		const run = await runSend({
			input: [order(1)],
			options: KEYED,
			more: { Second: { ...KEYED, deduplicationScope: 'workflow' } },
			credentials: good(),
		});
		expect(run.error?.message).toMatch(
			/the node "(Second|Campaign)" (keeps its keys in this workflow's shared|also has a Deduplication Key)/,
		);
		expect(fx.sb.state.sent).toHaveLength(0);
	});
});
