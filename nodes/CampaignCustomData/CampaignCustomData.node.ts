import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { dataNodeDescription } from '../CampaignData/description';
import { CUSTOM_DATA } from '../CampaignData/helpers/api-versions';
import { OPERATIONS } from '../CampaignData/operations';
import { runNode } from '../shared/run';

/** Custom data v2 (`/v2/custom`): per-member key/value attributes with registered keys. */
export class CampaignCustomData implements INodeType {
	description: INodeTypeDescription = {
		...dataNodeDescription(
			CUSTOM_DATA,
			{
				displayName: 'Campaign Custom Data',
				name: 'campaignCustomData',
				description:
					'Read, write and delete custom data (v2): per-member key/value attributes of the campaign service, with failed rows on their own output',
			},
			// One resource, for n8n's automatic tool description (CampaignData/description.ts).
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				default: 'customData',
				options: [{ name: 'Custom Data', value: 'customData' }],
			},
		),
		icon: { light: 'file:../../icons/campaign.svg', dark: 'file:../../icons/campaign.dark.svg' },
		subtitle: '={{$parameter["operation"]}}',
		usableAsTool: true,
	};

	async execute(this: IExecuteFunctions) {
		return await runNode(this, OPERATIONS, CUSTOM_DATA);
	}
}
