/**
 * Members `upsert` (v1 and v2): save or update one member per input item. Rows are read from
 * the items (auto-map) or from the parameters (define below; from node version 2 the resource
 * mapper of helpers/mapper.ts), checked against the documented rules, sent in chunks of Batch
 * Size, and every item ends on Success or Failed.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { batchSizeOption, mappingModeField, optionsCollection } from '../../shared/options';
import { openWrite } from '../helpers/context';
import { normalizePhoneOption, phoneNumberField } from '../helpers/parameters';
import { sendWrite } from '../helpers/write-requests';
import type { MemberRow } from '../helpers/api-versions';
import type { GivenRow } from '../helpers/mapper';
import { columnsField, mapperRows } from '../helpers/mapper';
import { checkSaveRow, memberRecord, rawRowOf } from '../helpers/rows';
import type { Failure, Outcome } from '../../shared/outcome';
import type { Done, OperationOption } from '../../shared/operation';

export const option: OperationOption = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update members',
	description: 'Create a new record, or update the current one if it already exists (upsert)',
};

export const kind = 'write' as const;

export const done: Done = { verb: 'saved' };

export { ADVICE as advice } from '../helpers/advice';

/** Node version 1's parameters (Mapping Mode and the four fields); version 2 has the mapper. */
const V1 = { '@version': [1] };
const showDefined = { show: { ...V1, mappingMode: ['defineBelow'] } };

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['upsert'] } },
	[
		{
			...mappingModeField({
				auto: 'Read memberId, phoneNumber, isReceive and name from the fields of each input item',
				defineBelow: 'Set the member fields below, usually with expressions',
				description: 'Where the member fields of each row come from',
			}),
			displayOptions: { show: V1 },
		},
		{
			displayName:
				'Each input item is one member: fields memberId and phoneNumber (required), isReceive (true/false, "Y"/"N" or 1/0; empty means refused) and name (optional, at most 20 characters)',
			name: 'autoMapNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...V1, mappingMode: ['autoMapInputData'] } },
		},
		{
			displayName: 'Member ID',
			name: 'memberId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: showDefined,
			description: 'ID of the member in your system',
		},
		phoneNumberField(
			'Korean mobile number of the member. In v2 it is the unique key of the record.',
			{ required: true, displayOptions: showDefined },
		),
		{
			displayName: 'Receives SMS',
			name: 'isReceive',
			type: 'boolean',
			default: false,
			displayOptions: showDefined,
			description:
				'Whether the member consents to receive SMS. An expression may also give "true"/"false", "Y"/"N" or 1/0; empty means refused.',
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			displayOptions: showDefined,
			description: 'Name of the member, at most 20 characters. Leave empty to store no name.',
		},
		{ ...columnsField, displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } } },
		optionsCollection([batchSizeOption, normalizePhoneOption]),
	],
);

/** A row to send, with the input item it came from. */
interface PendingRow {
	index: number;
	memberId: string;
	phoneNumber: string;
	row: MemberRow;
}

/** Version 1: each item's row from its fields (auto-map) or from the parameters (define below). */
function parameterRows(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
): (index: number) => GivenRow {
	const mode = ctx.getNodeParameter('mappingMode', 0, 'autoMapInputData') as string;
	if (mode !== 'defineBelow') return (index) => rawRowOf(items[index].json);
	return (i) => ({
		memberId: ctx.getNodeParameter('memberId', i, ''),
		phoneNumber: ctx.getNodeParameter('phoneNumber', i, ''),
		isReceive: ctx.getNodeParameter('isReceive', i, false),
		name: ctx.getNodeParameter('name', i, ''),
	});
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<Outcome[]> {
	const { client, api, normalize, batchSize } = await openWrite(this);
	const version = api.version;
	const rowOf =
		this.getNode().typeVersion >= 2
			? mapperRows(this, items, api, normalize)
			: parameterRows(this, items);

	// Every row is read and checked before the first request: an expression error can never stop
	// the node half-way through, and rows breaking a documented rule are never sent.
	const refused: Array<{ index: number; failure: Failure }> = [];
	const pending: PendingRow[] = [];
	items.forEach((_, index) => {
		const given = rowOf(index);
		const checked = 'failure' in given ? given : checkSaveRow(given, api, normalize);
		if ('failure' in checked) {
			refused.push({
				index,
				failure: {
					...checked.failure,
					memberId: checked.memberId,
					phoneNumber: checked.phoneNumber,
					apiVersion: version,
				},
			});
		} else {
			pending.push({
				index,
				memberId: checked.row.memberId,
				phoneNumber: checked.row.phoneNumber,
				row: checked.row,
			});
		}
	});

	// Repeated phone numbers stay in one request: the service decides which row wins (F11).
	// The body is a bare array of rows for both versions: the service documents it for v1, and for v2
	// ("rows of member objects", container not documented) an array is the only shape that holds rows
	// without inventing a wrapper field; the sandbox accepts an array and the plausible
	// wrappers alike, and a v2 answer is read in every shape (helpers/responses.ts).
	return sendWrite(client, {
		refused,
		pending,
		batchSize,
		call: (part) => ({
			method: 'POST',
			path: api.path,
			body: part.map((p) => api.saveRow(p.row)),
		}),
		success: (p) => memberRecord({ ...p.row }, version),
		identity: (p) => ({ memberId: p.memberId, phoneNumber: p.phoneNumber, apiVersion: version }),
	});
}
