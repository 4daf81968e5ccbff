import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NODE_BASE } from '../shared/node';
import { operationParameter } from '../shared/operation';
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
			// So n8n describes the tool by the action (docs/ai-agents.md, "Tool descriptions").
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				default: 'message',
				options: [{ name: 'Message', value: 'message' }],
			},
			operationParameter(OPERATIONS, {
				default: 'send',
				displayOptions: { show: { resource: ['message'] } },
			}),
			...Object.values(OPERATIONS).flatMap((operation) => operation.description),
		],
	};

	async execute(this: IExecuteFunctions) {
		return await runNode(this, OPERATIONS);
	}
}
