import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { dataNodeDescription } from '../CampaignData/description';
import { LEGACY_DATA } from '../CampaignData/helpers/api-versions';
import { OPERATIONS } from '../CampaignData/operations';
import { runNode } from '../shared/run';

/** Legacy custom data v1 (`/v1/legacy`): the same per-member key/value attributes under the older API. */
export class CampaignLegacyData implements INodeType {
	description: INodeTypeDescription = {
		...dataNodeDescription(
			LEGACY_DATA,
			{
				displayName: 'Campaign Legacy Data',
				name: 'campaignLegacyData',
				description:
					'Read, write and delete legacy custom data (v1): per-member key/value attributes of the campaign service; writes report the count the service confirms',
			},
			// One resource, for n8n's automatic tool description (CampaignData/description.ts).
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				default: 'legacyData',
				options: [{ name: 'Legacy Data', value: 'legacyData' }],
			},
		),
		icon: { light: 'file:../../icons/campaign.svg', dark: 'file:../../icons/campaign.dark.svg' },
		subtitle: '={{$parameter["operation"]}}',
		usableAsTool: true,
	};

	async execute(this: IExecuteFunctions) {
		return await runNode(this, OPERATIONS, LEGACY_DATA);
	}
}
