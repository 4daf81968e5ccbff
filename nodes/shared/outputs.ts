/**
 * Builders for the items a node emits. Every item carries `pairedItem`: one index, or all the
 * input items a merged row came from. Write operations have two outputs, Success (0) and
 * Failed (1).
 */
import type { IDataObject, INodeExecutionData, INodeOutputConfiguration } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import type { Operations } from './operation';
import { readOperations } from './operation';
import type { ApiResult } from './transport';

export const WRITE_OUTPUTS: INodeOutputConfiguration[] = [
	{ type: NodeConnectionTypes.Main, displayName: 'Success' },
	{ type: NodeConnectionTypes.Main, displayName: 'Failed' },
];

/**
 * The outputs of a node whose operations differ: one for its reads, Success and Failed for its
 * writes. n8n evaluates this expression with the node's parameters to draw and route the outputs.
 */
export function outputsByOperation<Args extends unknown[]>(
	operations: Operations<Args>,
): `={{${string}}}` {
	const oneOutput = readOperations(operations);
	return `={{ ${JSON.stringify(oneOutput)}.includes($parameter["operation"]) ? ${JSON.stringify([{ type: NodeConnectionTypes.Main }])} : ${JSON.stringify(WRITE_OUTPUTS)} }}`;
}

/** The 30-minute wait the service asks for after a refused delete (docs/service-rules.md#limits). */
export const DELETE_RETRY_MINUTES = 30;

export function paired(indexes: number | readonly number[]): INodeExecutionData['pairedItem'] {
	if (typeof indexes === 'number') return { item: indexes };
	return indexes.length === 1 ? { item: indexes[0] } : indexes.map((item) => ({ item }));
}

export function item(json: IDataObject, indexes: number | readonly number[]): INodeExecutionData {
	return { json, pairedItem: paired(indexes) };
}

export interface FailureFields extends IDataObject {
	/** The service's code for the rule, as a string ("F02", "7012", "-1009"). */
	code: string;
	/** Plain words. */
	message: string;
}

export function failedItem(
	failure: FailureFields,
	indexes: number | readonly number[],
): INodeExecutionData {
	return item({ ...failure }, indexes);
}

export function retryAfter(now: Date = new Date()): string {
	return new Date(now.getTime() + DELETE_RETRY_MINUTES * 60000).toISOString();
}

/**
 * The one "refused for now, retry in 30 minutes" rule: a request the service refused for now
 * (-1009/-1010, a delete) gives its rows `retryAfter`; any other answer, nothing.
 */
export function retryLater(
	result: Pick<ApiResult, 'info'>,
	now: Date = new Date(),
): { retryAfter: string } | undefined {
	return result.info.kind === 'deleteRefused' ? { retryAfter: retryAfter(now) } : undefined;
}

/** Success and Failed lists, in the order rows were decided. */
export class WriteOutputs {
	readonly success: INodeExecutionData[] = [];

	readonly failed: INodeExecutionData[] = [];

	ok(json: IDataObject, indexes: number | readonly number[]): void {
		this.success.push(item(json, indexes));
	}

	fail(failure: FailureFields, indexes: number | readonly number[]): void {
		this.failed.push(failedItem(failure, indexes));
	}

	toArray(): INodeExecutionData[][] {
		return [this.success, this.failed];
	}
}

export function chunk<T>(rows: readonly T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < rows.length; start += size)
		chunks.push(rows.slice(start, start + size));
	return chunks;
}
