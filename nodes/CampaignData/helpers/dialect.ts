/**
 * Custom data v2 and legacy custom data v1 are one idea with two
 * dialects: the paths, the names of the key and value fields on read, and what a write
 * answers (failure rows or a count). Everything else is shared code configured by one of these;
 * each node file passes its own dialect to runNode (CUSTOM_DATA or LEGACY_DATA).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { Outcome } from '../../shared/outcome';

export interface DataDialect {
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

/** The execute of every data operation (operations/): the items, and the dialect of the node. */
export type DataExecute = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	dialect: DataDialect,
) => Promise<Outcome[]>;

export const CUSTOM_DATA: DataDialect = {
	noun: 'custom data',
	basePath: '/v2/custom',
	keyField: 'customDataKey',
	valueField: 'customDataValue',
	writeResult: 'failureRows',
};

export const LEGACY_DATA: DataDialect = {
	noun: 'legacy data',
	basePath: '/v1/legacy',
	keyField: 'legacyDataKey',
	valueField: 'legacyDataValue',
	writeResult: 'count',
};

/** The path of "delete some keys" (docs/service-rules.md#custom-data). */
export const deleteKeysPath = (dialect: DataDialect): string =>
	`${dialect.basePath}/data-format-name`;

/**
 * Failed rows the node rejects itself carry the code the service uses for the same rule
 * (one set of codes whoever caught the problem: docs/service-rules.md#codes):
 * - a value that cannot be sent (null, object, array, invalid date): F02, "the value does not
 *   match the format"; also for legacy data, whose format rules are the same
 *   although its service answers with a count instead of rows;
 * - an empty key name: F01, "key not registered" (no key can be registered under an empty name);
 * - a missing, empty or unusable member id, an item with nothing to write, a deleteKeys item
 *   without key names: -9997, "data is not valid", which is what the custom data service
 *   answers for such a request (it has no row code for member ids; -1006 belongs to the member
 *   API).
 */
export const NODE_RULE_CODES = {
	badValue: 'F02',
	badKey: 'F01',
	badMemberId: '-9997',
	nothingToWrite: '-9997',
	noKeys: '-9997',
} as const;
