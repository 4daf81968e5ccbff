import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NODE_BASE } from '../shared/node';
import { runNode } from '../shared/run';
import { WRITE_OUTPUTS } from '../shared/outputs';
import { OPERATIONS } from './operations';

export class CampaignAlimtalk implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Campaign Alimtalk',
		name: 'campaignAlimtalk',
		icon: { light: 'file:../../icons/campaign.svg', dark: 'file:../../icons/campaign.dark.svg' },
		usableAsTool: true,
		...NODE_BASE,
		group: ['output'],
		version: 1,
		subtitle:
			'={{"Send to " + ($parameter["recipient"] === "memberId" ? "member " + $parameter["memberId"] : $parameter["phoneNumber"])}}',
		description:
			'Send a KakaoTalk Alimtalk message of an API-trigger campaign to one recipient per input item, with template variables. Sends real messages, billed to the account.',
		defaults: { name: 'Campaign Alimtalk' },
		outputs: WRITE_OUTPUTS,
		properties: [
			// One resource, for n8n's automatic tool description: the action below becomes the send
			// tool's description (docs/ai-agents.md, "Tool descriptions").
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				default: 'message',
				options: [{ name: 'Message', value: 'message' }],
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['message'] } },
				default: 'send',
				options: [
					{
						name: 'Send',
						value: 'send',
						action: 'Send a real message billed to the account',
						description:
							'Send the message of an API-trigger campaign to one phone number, with the template variables for that recipient. This sends a real KakaoTalk message, billed to the account, and cannot be undone.',
					},
				],
			},
			...Object.values(OPERATIONS).flatMap((operation) => operation.description),
		],
	};

	async execute(this: IExecuteFunctions) {
		return await runNode(this, OPERATIONS);
	}
}
