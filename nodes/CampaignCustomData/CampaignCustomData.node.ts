import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { asNodeError } from '../shared/errors';
import { DATA_NODE_OUTPUTS, dataNodeProperties } from '../shared/customData/description';
import { CUSTOM_DATA } from '../shared/customData/dialect';
import { errorOutputs, executeDataOperation } from '../shared/customData/execute';

/** Custom data v2 (`/v2/custom`): per-member key/value attributes with registered keys. */
export class CampaignCustomData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Campaign Custom Data',
		name: 'campaignCustomData',
		icon: { light: 'file:../../icons/campaign.svg', dark: 'file:../../icons/campaign.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description:
			'Read, write and delete custom data (v2): per-member key/value attributes of the campaign service, with failed rows on their own output',
		defaults: { name: 'Campaign Custom Data' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: DATA_NODE_OUTPUTS,
		credentials: [{ name: 'campaignApi', required: true }],
		properties: dataNodeProperties(CUSTOM_DATA),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		try {
			return await executeDataOperation.call(this, CUSTOM_DATA, items);
		} catch (error) {
			if (this.continueOnFail()) {
				return errorOutputs(this, items, error);
			}
			throw asNodeError(this.getNode(), error);
		}
	}
}
