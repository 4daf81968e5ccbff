import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { DATA_NODE_OUTPUTS, dataNodeProperties } from '../CampaignData/description';
import { LEGACY_DATA } from '../CampaignData/helpers/dialect';
import { OPERATIONS } from '../CampaignData/operations';
import { NODE_BASE } from '../shared/node';
import { runNode } from '../shared/run';

/** Legacy custom data v1 (`/v1/legacy`): the same per-member key/value attributes under the older API. */
export class CampaignLegacyData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Campaign Legacy Data',
		name: 'campaignLegacyData',
		icon: { light: 'file:../../icons/campaign.svg', dark: 'file:../../icons/campaign.dark.svg' },
		usableAsTool: true,
		...NODE_BASE,
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description:
			'Read, write and delete legacy custom data (v1): per-member key/value attributes of the campaign service; writes report the count the service confirms',
		defaults: { name: 'Campaign Legacy Data' },
		outputs: DATA_NODE_OUTPUTS,
		properties: dataNodeProperties(LEGACY_DATA),
	};

	async execute(this: IExecuteFunctions) {
		return await runNode(this, OPERATIONS, LEGACY_DATA);
	}
}
