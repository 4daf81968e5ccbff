/**
 * The Operation parameter of the Alimtalk node, built from its operation file's own list entry
 * (operationParameter, nodes/shared/operation.ts), keeps the entry the node file held when it was
 * written by hand.
 */
import type { INodeProperties } from 'n8n-workflow';
import { expectOperationListKeeps } from '../support/operation-list';

/** A literal copy of the Operation parameter as nodes/CampaignAlimtalk/CampaignAlimtalk.node.ts wrote it. */
const WRITTEN_BY_HAND: INodeProperties = {
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
};

it('the built Operation parameter keeps the entry the node file held', () => {
	expectOperationListKeeps('campaignAlimtalk', WRITTEN_BY_HAND);
});
