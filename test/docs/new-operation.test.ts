/**
 * Adding an operation to Campaign Members, walked through as a test: `count` below is written as
 * a contributor would write it, added to a copy of the node's operations, and shown to reach the
 * Operation list, the editor and n8n's engine without a change to the node file.
 *
 * The files a contributor touches, in order:
 * 1. `nodes/CampaignMembers/operations/<operation>.ts`: `option` (its Operation list entry),
 *    `description` (its parameters, wrapped in `updateDisplayOptions`), `kind` and `execute`
 *    returning outcomes; a read runs once per item through `eachItem`, as `count` does.
 * 2. `nodes/CampaignMembers/operations/index.ts`: one entry in `OPERATIONS`. The node file
 *    (`CampaignMembers.node.ts`) stays as it is: its Operation list, parameters and outputs are
 *    built from `OPERATIONS`.
 * 3. `test/CampaignMembers/<operation>.test.ts`: its suite, through the engine against the
 *    sandbox (`runMembers` of `test/CampaignMembers/support.ts`), as (c) below.
 * 4. `sandbox/routes/`: only when the operation calls a service endpoint the sandbox does not
 *    answer yet (`count` reads the member records `get` reads: none).
 * 5. `README.md` and `README.ko.md`: the operation's row in the Campaign Members table, in both
 *    languages (`test/docs/readme-ko.test.ts` keeps them in step).
 * Nothing else: the send's guard refuses a send to a member ID beside any Campaign Members tool,
 * whatever its operation (`nodes/CampaignAlimtalk/helpers/beside.ts`), as (e) shows.
 */
import type { IExecuteFunctions, INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeHelpers, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { OPERATIONS } from '../../nodes/CampaignMembers/operations';
import { openMembers } from '../../nodes/CampaignMembers/helpers/context';
import { phoneNumberField } from '../../nodes/CampaignMembers/helpers/parameters';
import { recordsOf } from '../../nodes/CampaignMembers/helpers/responses';
import { sendablePhone } from '../../nodes/CampaignMembers/helpers/rows';
import type { ListedOperation, OperationOption } from '../../nodes/shared/operation';
import { operationParameter } from '../../nodes/shared/operation';
import { done, errored, type Outcome } from '../../nodes/shared/outcome';
import { eachItem } from '../../nodes/shared/run';
import { isBlank, readMemberId, scalarText } from '../../nodes/shared/values';
import { PACKAGE_NAME, runNode, useSandbox, withFast } from '../support';

/** What `nodes/CampaignMembers/operations/count.ts` would hold. */
const count = {
	option: {
		name: 'Count',
		value: 'count',
		action: 'Count the records of a member',
		description: 'Count the records of a member ID and/or a phone number',
	} satisfies OperationOption,
	kind: 'read' as const,
	description: updateDisplayOptions({ show: { operation: ['count'] } }, [
		{ displayName: 'Member ID', name: 'memberId', type: 'string', default: '' },
		phoneNumberField('Count the records of this Korean mobile number (e.g. 010-1234-5678)'),
	]),
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<Outcome[]> {
		const { client, api, normalize } = await openMembers(this);
		return await eachItem(this, items.length, async (i) => {
			const id = this.getNodeParameter('memberId', i, '');
			const phone = scalarText(this.getNodeParameter('phoneNumber', i, '')) ?? '';
			const memberId = isBlank(id) ? undefined : readMemberId(id);
			const sendable = phone === '' ? undefined : sendablePhone(phone, api, normalize);
			const problem =
				memberId?.ok === false
					? `Member ID ${memberId.reason}`
					: sendable && 'problem' in sendable
						? `Phone Number ${sendable.problem}`
						: !memberId && !sendable
							? 'Set a Member ID or a Phone Number (or both) to count records'
							: undefined;
			if (problem !== undefined)
				return [errored(new NodeOperationError(this.getNode(), problem, { itemIndex: i }), [i])];
			const qs: Record<string, string> = {};
			if (memberId?.ok) qs.memberId = memberId.value;
			if (sendable && 'phone' in sendable) qs.phoneNumber = sendable.phone;
			const call = { method: 'GET' as const, path: api.path, qs, itemIndex: i };
			const result = await client.call(call);
			if (result.info.kind !== 'success') return [errored(client.error(result, call), [i])];
			const records = recordsOf(result.processValue);
			if ('invalid' in records) return [errored(new Error(records.invalid), [i])];
			return [done({ count: records.length }, i)];
		});
	},
} satisfies ListedOperation;

// Step 2: the node's operations with `count` added. The node file is loaded unchanged over them.
jest.doMock('../../nodes/CampaignMembers/operations', () => ({
	OPERATIONS: { ...OPERATIONS, count },
}));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeFile = require('../../nodes/CampaignMembers/CampaignMembers.node') as {
	CampaignMembers: new () => INodeType;
};
const node = new nodeFile.CampaignMembers();
// The send's guard, loaded over the same operations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { memberToolsBeside } = require('../../nodes/CampaignAlimtalk/helpers/beside') as {
	memberToolsBeside: typeof import('../../nodes/CampaignAlimtalk/helpers/beside').memberToolsBeside;
};
const properties = node.description.properties;
const TYPE = 'test.campaignMembersWithCount';
const sb = useSandbox();

describe('adding an operation to Campaign Members (count)', () => {
	it('(a) operationParameter puts its entry into the Operation list, sorted by name', () => {
		const list = properties.find((property) => property.name === 'operation');
		const before = operationParameter(OPERATIONS, {
			default: 'upsert',
			displayOptions: { show: { resource: ['member'] } },
		});
		// Sorted by name, as n8n's linter wants an options list: Count comes first.
		expect(list).toEqual({ ...before, options: [count.option, ...before.options!] });
	});

	it('(b) its parameters are shown for count only, and no other operation shows for count', () => {
		const shown = (operation: string) =>
			properties.filter((property) =>
				NodeHelpers.displayParameter(
					{ resource: 'member', apiVersion: 'v2', operation },
					property,
					{ typeVersion: 2 },
					node.description,
				),
			);
		const always = ['resource', 'apiVersion', 'operation'];
		const ours = new Set<object>(count.description);
		expect(shown('count').filter((p) => !always.includes(p.name))).toEqual(count.description);
		for (const other of Object.keys(OPERATIONS)) {
			expect(shown(other).filter((p) => ours.has(p))).toEqual([]);
		}
	});

	it.each([
		['v1', 1],
		['v2', 2],
	])('(c) %s: runs through the engine, one item per input item, paired', async (apiVersion, n) => {
		const kim = (phoneNumber: string) => ({ memberId: 'kim', phoneNumber });
		sb.state.membersV1.set('kim', { ...kim('010-1234-5678'), isReceive: true });
		for (const phone of ['010-1234-5678', '010-4444-5555'])
			sb.state.membersV2.set(phone.replace(/-/g, ''), { ...kim(phone), isReceive: 'true' });
		const { out, error } = await runNode({
			type: TYPE,
			extraTypes: { [TYPE]: node },
			typeVersion: 2,
			parameters: withFast({ operation: 'count', apiVersion, memberId: '={{ $json.id }}' }),
			input: [{ id: 'kim' }, { id: 'nobody' }, { id: '' }],
			credentials: { baseUrl: sb.baseUrl, apiKey: sb.apiKey, memberApiVersion: 'any' },
			onError: 'continueRegularOutput',
		});
		expect(error).toBeUndefined();
		expect(out).toEqual([
			[
				{ json: { count: n }, pairedItem: { item: 0 } },
				{ json: { count: 0 }, pairedItem: { item: 1 } },
				{
					json: expect.objectContaining({ error: expect.stringContaining('Set a Member ID') }),
					pairedItem: { item: 2 },
				},
			],
		]);
		expect(sb.requests.map((request) => request.query)).toEqual([
			{ memberId: 'kim' },
			{ memberId: 'nobody' },
		]);
	});

	it("(e) the Alimtalk send's guard counts every operation of the node, a new read too (a read answers member records)", () => {
		const at = (name: string, type: string, parameters = {}) =>
			({ id: name, name, type, parameters }) as unknown as INode;
		const beside = (operation: string) => {
			const send = at('Send', `${PACKAGE_NAME}.campaignAlimtalkTool`);
			const members = at('Members', `${PACKAGE_NAME}.campaignMembersTool`, { operation });
			const agent = at('Agent', '@n8n/n8n-nodes-langchain.agent');
			const toAgent = { ai_tool: [[{ node: 'Agent', type: 'ai_tool' as const, index: 0 }]] };
			const nodes = { Send: send, Members: members, Agent: agent };
			return memberToolsBeside({ nodes, connections: { Send: toAgent, Members: toAgent } }, send);
		};
		for (const operation of Object.keys({ ...OPERATIONS, count })) {
			expect([operation, beside(operation)]).toEqual([operation, ['Members']]);
		}
	});
});
