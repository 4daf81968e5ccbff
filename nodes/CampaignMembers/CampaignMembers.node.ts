import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { asNodeError, failedCallOutputs } from '../shared/errors';
import { WRITE_OUTPUTS } from '../shared/outputs';
import { deleteProperties, executeDelete } from './operations/delete';
import { executeGet, getProperties } from './operations/get';
import { executeUpsert, upsertProperties } from './operations/upsert';

/**
 * The outputs depend on the operation: `get` has one, the writes have Success (0) and Failed (1).
 * n8n evaluates this expression against the node's parameters (as its Switch and Merge nodes do).
 */
const OUTPUTS: `={{${string}}}` = `={{ $parameter["operation"] === "get" ? ${JSON.stringify([
	{ type: NodeConnectionTypes.Main },
])} : ${JSON.stringify(WRITE_OUTPUTS)} }}`;

export class CampaignMembers implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Campaign Members',
		name: 'campaignMembers',
		icon: { light: 'file:../../icons/campaign.svg', dark: 'file:../../icons/campaign.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + " (" + $parameter["apiVersion"] + ")"}}',
		description:
			'Read, save or delete member records (member ID, phone number, SMS consent, name) of the campaign service, with member API v1 or v2',
		defaults: { name: 'Campaign Members' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: OUTPUTS,
		credentials: [{ name: 'campaignApi', required: true }],
		properties: [
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
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'upsert',
				options: [
					{
						name: 'Create or Update',
						value: 'upsert',
						action: 'Create or update members',
						description: 'Create a new record, or update the current one if it already exists (upsert)',
					},
					{
						name: 'Delete',
						value: 'delete',
						action: 'Delete members',
						description: 'Remove members for good (v1: by member ID, v2: by phone number). This cannot be undone.',
					},
					{
						name: 'Get',
						value: 'get',
						action: 'Get members',
						description: 'Read the records of a member ID and/or a phone number',
					},
				],
			},
			...getProperties,
			...upsertProperties,
			...deleteProperties,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const operation = this.getNodeParameter('operation', 0) as string;
		const continueOnFail = this.continueOnFail();
		try {
			if (operation === 'get') return await executeGet.call(this, items, continueOnFail);
			if (operation === 'upsert') return await executeUpsert.call(this, items);
			if (operation === 'delete') return await executeDelete.call(this, items);
			throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}"`);
		} catch (error) {
			if (continueOnFail) return failedCallOutputs(this, error, ['get']);
			throw asNodeError(this.getNode(), error);
		}
	}
}
