import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { DATA_NODE_OUTPUTS, dataNodeProperties } from '../CampaignData/description';
import { CUSTOM_DATA } from '../CampaignData/helpers/dialect';
import { OPERATIONS } from '../CampaignData/operations';
import { NODE_BASE } from '../shared/node';
import { runNode } from '../shared/run';

/** Custom data v2 (`/v2/custom`): per-member key/value attributes with registered keys. */
export class CampaignCustomData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Campaign Custom Data',
		name: 'campaignCustomData',
		icon: { light: 'file:../../icons/campaign.svg', dark: 'file:../../icons/campaign.dark.svg' },
		usableAsTool: true,
		...NODE_BASE,
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description:
			'Read, write and delete custom data (v2): per-member key/value attributes of the campaign service, with failed rows on their own output',
		defaults: { name: 'Campaign Custom Data' },
		outputs: DATA_NODE_OUTPUTS,
		properties: dataNodeProperties(CUSTOM_DATA),
	};

	async execute(this: IExecuteFunctions) {
		return await runNode(this, OPERATIONS, CUSTOM_DATA);
	}
}
