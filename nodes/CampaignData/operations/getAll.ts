/** `getAll`: the entries of every member, page after page, once per input item. */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { MIN_LIMIT, wholeNumber } from '../../shared/options';
import type { OperationOption } from '../../shared/operation';
import { toolReadLimit } from '../../shared/tool';
import type { DataApi, DataExecute } from '../helpers/api-versions';
import { readOptionsField } from '../helpers/parameters';
import { readEntries } from '../helpers/read-entries';

export const option = ({ noun }: DataApi): OperationOption => ({
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many entries and change nothing',
	description: `Get the ${noun} entries of all members, page after page`,
});

export const kind = 'read' as const;

/** The Limit parameter; its default is also what the check falls back to. */
const limit: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	default: 50,
	typeOptions: { minValue: MIN_LIMIT },
	displayOptions: { show: { returnAll: [false] } },
	description: 'Max number of results to return',
};
const DEFAULT_LIMIT = limit.default as number;

export const description = (): INodeProperties[] =>
	updateDisplayOptions({ show: { operation: ['getAll'] } }, [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		limit,
		readOptionsField,
	]);

/**
 * Each item reads every member's entries, up to its Limit unless Return All is on. As an AI-agent
 * tool it stops one entry past what a model is shown, enough to say that more exist.
 */
export const execute: DataExecute = async function (items, api) {
	const toolLimit = toolReadLimit(this) ?? Infinity;
	return await readEntries.call(this, items, api, (i) => {
		if (this.getNodeParameter('returnAll', i, false) === true) {
			return toolLimit === Infinity ? {} : { limit: toolLimit };
		}
		return {
			limit: Math.min(
				toolLimit,
				wholeNumber(
					this,
					this.getNodeParameter('limit', i, DEFAULT_LIMIT),
					'Limit',
					MIN_LIMIT,
					Infinity,
					DEFAULT_LIMIT,
					i,
				),
			),
		};
	});
};
