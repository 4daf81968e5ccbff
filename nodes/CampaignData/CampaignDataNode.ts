/**
 * The one class behind both data nodes: Custom Data (v2) and Legacy Data (v1) differ only in
 * their description and dialect. Each node file extends it with its own description; this
 * `execute` keeps the `continueOnFail` handling of every data operation in one place.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { asNodeError, failedCallOutputs } from '../shared/errors';
import { READ_OPERATIONS, dialectOfNodeType } from './helpers/dialect';
import { route } from './router';

export abstract class CampaignDataNode implements INodeType {
	abstract description: INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		try {
			return await route.call(this, dialectOfNodeType(this.getNode().type), items);
		} catch (error) {
			if (this.continueOnFail()) {
				return failedCallOutputs(this, error, READ_OPERATIONS);
			}
			throw asNodeError(this.getNode(), error);
		}
	}
}
