/**
 * Custom data v2 and legacy custom data v1 are one idea on two API versions (`DataApi`): the
 * paths, the names of the key and value fields on read, the words of the parameters, and what a
 * write answers (failure rows or a count). Everything else is shared code configured by one of
 * these; each node file passes its own to runNode (CUSTOM_DATA or LEGACY_DATA).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { Outcome } from '../../shared/outcome';

/** One data API version: what the node does differently for it. */
export interface DataApi {
	/** How the data is called in labels and descriptions ("custom data", "legacy data"). */
	noun: string;
	basePath: '/v2/custom' | '/v1/legacy';
	/** Field names of an entry in a read page (docs/service-rules.md#custom-data). */
	keyField: 'customDataKey' | 'legacyDataKey';
	valueField: 'customDataValue' | 'legacyDataValue';
	/**
	 * What register and change answer: v2 lists the failed rows (processCode 1), v1 tells how many
	 * entries it stored and nothing about which.
	 */
	writeResult: 'failureRows' | 'count';
}

/** The execute of every data operation (operations/): the items, and the API version of the node. */
export type DataExecute = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	api: DataApi,
) => Promise<Outcome[]>;

export const CUSTOM_DATA: DataApi = {
	noun: 'custom data',
	basePath: '/v2/custom',
	keyField: 'customDataKey',
	valueField: 'customDataValue',
	writeResult: 'failureRows',
};

export const LEGACY_DATA: DataApi = {
	noun: 'legacy data',
	basePath: '/v1/legacy',
	keyField: 'legacyDataKey',
	valueField: 'legacyDataValue',
	writeResult: 'count',
};

/** The path of "delete some keys" (docs/service-rules.md#custom-data). */
export const deleteKeysPath = (api: DataApi): string => `${api.basePath}/data-format-name`;
