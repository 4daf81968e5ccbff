/**
 * What the input items give a write, read before anything is sent (an expression error then
 * stops the node with nothing sent). Auto-map reads each item's own fields where they are,
 * without copying them: 100,000 items are not turned into a second list of 100,000 rows.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { splitList } from './mapping';

export interface ItemSource {
	/** Where the member id comes from (for messages). */
	idField: string;
	/** The member id as given. */
	memberId(i: number): unknown;
	hasIdField(i: number): boolean;
	/** Calls `visit` with each key and value item `i` gives, in order. */
	pairs(i: number, visit: (key: string, value: unknown) => void): void;
}

const hasOwn = (obj: object, key: string): boolean =>
	Object.prototype.hasOwnProperty.call(obj, key);

export function readItems(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	options: IDataObject,
): ItemSource {
	const mode = ctx.getNodeParameter('mappingMode', 0, 'autoMapInputData') as string;
	if (mode === 'defineBelow') return definedBelow(ctx, items);
	if (mode !== 'autoMapInputData') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Mapping Mode must be "autoMapInputData" or "defineBelow" (got ${JSON.stringify(mode)})`,
		);
	}
	const idFieldRaw = ctx.getNodeParameter('memberIdField', 0, 'memberId') as unknown;
	const idField = typeof idFieldRaw === 'string' ? idFieldRaw.trim() : '';
	if (idField === '') {
		throw new NodeOperationError(ctx.getNode(), 'Member ID Field is empty', {
			description: 'Set the name of the input field that holds the member ID, e.g. memberId.',
		});
	}
	const include = new Set(splitList(options.includeFields));
	const exclude = new Set(splitList(options.excludeFields));
	const jsonOf = (i: number): IDataObject => items[i].json ?? {};
	return {
		idField,
		memberId: (i) => jsonOf(i)[idField],
		hasIdField: (i) => hasOwn(jsonOf(i), idField),
		pairs: (i, visit) => {
			const json = jsonOf(i);
			for (const key of Object.keys(json)) {
				if (key === idField || exclude.has(key) || (include.size > 0 && !include.has(key)))
					continue;
				visit(key, json[key]);
			}
		},
	};
}

/** Define Below: the member id and the key/value entries of each item, from the parameters. */
function definedBelow(ctx: IExecuteFunctions, items: INodeExecutionData[]): ItemSource {
	const inputs = items.map((_, i) => {
		const entries = ctx.getNodeParameter('entries.entry', i, []) as Array<{
			key?: unknown;
			value?: unknown;
		}>;
		return {
			memberId: ctx.getNodeParameter('memberId', i, '') as unknown,
			pairs: (Array.isArray(entries) ? entries : []).map((e): [string, unknown] => [
				typeof e.key === 'string'
					? e.key
					: e.key === undefined || e.key === null
						? ''
						: String(e.key),
				e.value,
			]),
		};
	});
	return {
		idField: 'memberId',
		memberId: (i) => inputs[i].memberId,
		hasIdField: () => true,
		pairs: (i, visit) => {
			for (const [key, value] of inputs[i].pairs) visit(key, value);
		},
	};
}
