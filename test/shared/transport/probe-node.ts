/**
 * A test-only node that makes one call through the package's transport, so that the
 * transport's rules are exercised inside n8n's real engine and request helper.
 */
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { CampaignClient, type ApiCall } from '../../../nodes/shared/transport';
import { readTransportSettings } from '../../../nodes/shared/options';

export const PROBE_TYPE = 'test.transportProbe';

export const probeNode: INodeType = {
	description: {
		displayName: 'Transport Probe',
		name: 'transportProbe',
		group: ['transform'],
		version: 1,
		description: 'Calls the transport once per item',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'campaignApi', required: true }],
		properties: [
			{ displayName: 'Call', name: 'call', type: 'json', default: '{}' },
			{ displayName: 'Options', name: 'options', type: 'json', default: '{}' },
		],
	},
	async execute(this: IExecuteFunctions) {
		const options = JSON.parse(this.getNodeParameter('options', 0) as unknown as string) as Record<
			string,
			unknown
		>;
		const client = await CampaignClient.create(this, readTransportSettings(this, options));
		const call = JSON.parse(this.getNodeParameter('call', 0) as unknown as string) as ApiCall;
		const result = await client.call(call);
		return [
			[
				{
					json: {
						code: result.code,
						kind: result.info.kind,
						message: result.info.message,
						httpStatus: result.httpStatus ?? null,
						processValue: (result.processValue ?? null) as never,
						serviceMessage: result.serviceMessage ?? null,
						deliveryUnknown: result.deliveryUnknown,
						attempts: result.attempts,
					},
					pairedItem: { item: 0 },
				},
			],
		];
	},
};
