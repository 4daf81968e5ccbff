import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NODE_BASE } from '../shared/node';
import { operationParameter } from '../shared/operation';
import { runNode } from '../shared/run';
import { outputsByOperation } from '../shared/outputs';
import { FIELDS_METHOD, getMemberFields } from './methods/memberFields';
import { OPERATIONS } from './operations';

export class CampaignMembers implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Campaign Members',
		name: 'campaignMembers',
		icon: { light: 'file:../../icons/campaign.svg', dark: 'file:../../icons/campaign.dark.svg' },
		usableAsTool: true,
		...NODE_BASE,
		group: ['transform'],
		// Version 2: Create or Update maps its fields with n8n's resource mapper (operations/upsert.ts).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + " (" + $parameter["apiVersion"] + ")"}}',
		description:
			'Read, save or delete member records (member ID, phone number, SMS consent, name) of the campaign service, with member API v1 or v2',
		defaults: { name: 'Campaign Members' },
		// `get` has one output, the writes have Success (0) and Failed (1).
		outputs: outputsByOperation(OPERATIONS),
		properties: [
			// One resource, for n8n's automatic tool description: each operation's action becomes
			// its tool's description (docs/ai-agents.md, "Tool descriptions").
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				default: 'member',
				options: [{ name: 'Member', value: 'member' }],
			},
			{
				displayName: 'API Version',
				name: 'apiVersion',
				type: 'options',
				noDataExpression: true,
				default: 'v2',
				options: [
					{ name: 'V1 (Member ID Is the Key)', value: 'v1' },
					{ name: 'V2 (Phone Number Is the Key)', value: 'v2' },
				],
				description:
					'Which member API the account uses. The service forbids using v1 and v2 on one account: pick the one the account was set up with.',
			},
			// The Operation list: each operation file's own entry (`option`), sorted by name.
			operationParameter(OPERATIONS, {
				default: 'upsert',
				displayOptions: { show: { resource: ['member'] } },
			}),
			...Object.values(OPERATIONS).flatMap((operation) => operation.description),
		],
	};

	methods = { resourceMapping: { [FIELDS_METHOD]: getMemberFields } };

	async execute(this: IExecuteFunctions) {
		return await runNode(this, OPERATIONS);
	}
}
