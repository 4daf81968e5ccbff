/**
 * The automatic tool descriptions ("Set Automatically", n8n's default): n8n-workflow's
 * `makeDescription` describes a tool by its operation's `action` only when the node has a
 * `resource` parameter that the `operation` parameter is shown for; otherwise every operation of a
 * node gets the node's one description (a Delete tool read like a Get tool). Each node has a
 * one-option `resource` parameter, so every operation gets its own text.
 *
 * Workflows saved before `resource` existed (and new ones: n8n leaves default values out of what
 * it saves) have no `resource` among their parameters. n8n's `Workflow` fills every top-level
 * parameter's default before any node runs (n8n-workflow `workflow.js`, "Add default values",
 * the same on 1.123, 2.0, 2.34 and 2.41), and n8n-core builds the tool from that node
 * (`getInputConnectionData` → `createNodeAsTool` → `getToolDescriptionForNode`). These tests run
 * that path on every line of the compatibility matrix (`npm run test:compat`), with parameters
 * saved without `resource`.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, useSandbox } from '../support';
import { runAsTool } from '../support/tools';

const sb = useSandbox();
const credentials = () => ({ baseUrl: sb.baseUrl, apiKey: sb.apiKey });

/** The description each operation's tool gets, saved without `resource`. */
const CASES: Array<[string, string, RegExp]> = [
	['campaignAlimtalk', 'send', /^Send a real message billed to the account in Campaign Alimtalk$/],
	['campaignMembers', 'delete', /^Delete members permanently with no undo in Campaign Members$/],
	['campaignMembers', 'get', /^Only read the records of members in Campaign Members$/],
	['campaignMembers', 'upsert', /^Create or update members in Campaign Members$/],
	...(['Custom', 'Legacy'] as const).flatMap((dialect): Array<[string, string, RegExp]> => {
		const type = `campaign${dialect}Data`;
		const node = `in Campaign ${dialect} Data$`;
		const noun = dialect.toLowerCase();
		return [
			[type, 'delete', new RegExp(`^Delete data permanently with no undo ${node}`)],
			[type, 'deleteKeys', new RegExp(`^Delete keys permanently with no undo ${node}`)],
			[type, 'get', new RegExp(`^Only read the data of one member ${node}`)],
			[type, 'getAll', new RegExp(`^Get many entries and change nothing ${node}`)],
			[type, 'create', new RegExp(`^Create ${noun} data ${node}`)],
			[type, 'update', new RegExp(`^Update ${noun} data ${node}`)],
		];
	}),
];

async function descriptionOf(type: string, parameters: IDataObject): Promise<string> {
	const { description } = await runAsTool({
		type,
		parameters,
		credentials: credentials(),
		calls: [],
	});
	return description;
}

describe('automatic tool descriptions, one per operation', () => {
	it.each(CASES)('%s %s (saved without resource)', async (type, operation, expected) => {
		const description = await descriptionOf(type, { operation });
		expect(description).toMatch(expected);
		// A tool's default node name is the same text (n8n's makeNodeName); model APIs take tool
		// names of at most 64 characters, and n8n before 2.34 does not shorten them.
		expect(description.length).toBeLessThanOrEqual(64);
	});

	it('the delete and the read of one node are told apart', async () => {
		const remove = await descriptionOf('campaignMembers', { operation: 'delete' });
		const read = await descriptionOf('campaignMembers', { operation: 'get' });
		expect(remove).not.toEqual(read);
		expect(remove).toContain('permanently');
	});

	it('a node saved with its resource gets the same description', async () => {
		const saved = await descriptionOf('campaignAlimtalk', {
			resource: 'message',
			operation: 'send',
		});
		expect(saved).toBe(await descriptionOf('campaignAlimtalk', { operation: 'send' }));
	});

	it('a description set manually is kept as it is', async () => {
		const manual = await descriptionOf('campaignMembers', {
			operation: 'delete',
			descriptionType: 'manual',
			toolDescription: 'Remove one member by phone number',
		});
		expect(manual).toBe('Remove one member by phone number');
	});
});

describe('a workflow saved without resource runs unchanged', () => {
	it('Members delete outside tool mode deletes as before', async () => {
		sb.state.membersV2.set('01011112222', {
			memberId: 'm-1',
			phoneNumber: '010-1111-2222',
			isReceive: 'true',
		});
		const { out } = await runNode({
			type: 'campaignMembers',
			parameters: { apiVersion: 'v2', operation: 'delete', phoneNumber: '={{ $json.phone }}' },
			input: [{ phone: '010-1111-2222' }],
			credentials: credentials(),
		});
		expect(out[1]).toEqual([]);
		expect(out[0]).toHaveLength(1);
		expect(sb.state.membersV2.has('01011112222')).toBe(false);
	});
});
