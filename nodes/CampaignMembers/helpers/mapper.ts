/**
 * Members `upsert` from node version 2: the member fields through n8n's resource mapper (the
 * `columns` parameter), and each item's row as the mapper gives it, type-checked as n8n checks a
 * mapper's values; the fields are those of methods/memberFields.ts, and the rows are then checked
 * by the same `checkSaveRow` as in version 1 (rows.ts).
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, validateFieldType } from 'n8n-workflow';
import { isBlank, isObject } from '../../shared/values';
import { FIELDS_METHOD, MEMBER_FIELDS } from '../methods/memberFields';
import type { MemberApi } from './api-versions';
import type { RawMemberRow, RefusedRow } from './rows';
import { fieldCode, rawRowOf, rowIdentity } from './rows';

/** The resource mapper parameter of Create or Update from node version 2. */
export const columnsField: INodeProperties = {
	displayName: 'Member Fields',
	name: 'columns',
	type: 'resourceMapper',
	noDataExpression: true,
	default: { mappingMode: 'defineBelow', value: null },
	required: true,
	typeOptions: {
		loadOptionsDependsOn: ['apiVersion'],
		resourceMapper: {
			resourceMapperMethod: FIELDS_METHOD,
			mode: 'upsert',
			fieldWords: { singular: 'field', plural: 'fields' },
			addAllFields: true,
			multiKeyMatch: false,
			supportAutoMap: true,
			showTypeConversionOptions: true,
			matchingFieldsLabels: {
				title: 'Member Matched On',
				hint: 'The service finds the member by this field (v1: member ID, v2: phone number): it updates that member, or creates one when none is found.',
				description: 'Set by the member API version; it cannot be changed',
			},
		},
	},
};

/** A row as given, or refused already because a value is not of its field's type. */
export type GivenRow = RawMemberRow | RefusedRow;

/**
 * n8n's type check of the mapper's values, as the engine applies it to a resource mapper with
 * type options (strict unless "Attempt to convert types" is on), read with `skipValidation` so
 * that a value of the wrong type is that item's Failed item, with its field's code, instead of
 * an error that stops the node. A blank value is absent (the editor stores an empty field as
 * no value; an absent consent means refused, docs/service-rules.md#members).
 */
function typeChecked(
	raw: RawMemberRow,
	strict: boolean,
	parseStrings: boolean,
	api: MemberApi,
	normalize: boolean,
): GivenRow {
	for (const field of MEMBER_FIELDS) {
		const value = raw[field.id];
		if (isBlank(value)) continue;
		const result = validateFieldType(field.id, value, field.type, { strict, parseStrings });
		if (result.valid) {
			if (result.newValue !== undefined) raw[field.id] = result.newValue;
			continue;
		}
		const convertible =
			strict && validateFieldType(field.id, value, field.type, { parseStrings }).valid;
		const hint = convertible
			? ' (turn on "Attempt To Convert Types" below the fields to convert it)'
			: '';
		return {
			failure: {
				code: fieldCode(field.id, api),
				message: `${field.displayName}: ${result.errorMessage}${hint}`,
			},
			...rowIdentity(raw, api, normalize),
		};
	}
	return raw;
}

/**
 * Whether neither Member ID nor Phone Number is set in the mapper, not even as an expression (the
 * parameter as written, not evaluated): no row could ever be saved.
 */
function nothingMapped(ctx: IExecuteFunctions): boolean {
	const written: unknown = ctx.getNodeParameter('columns.value', 0, null, {
		rawExpressions: true,
		skipValidation: true,
	});
	return !isObject(written) || (isBlank(written.memberId) && isBlank(written.phoneNumber));
}

/**
 * Where each row of the version 2 upsert comes from: the fields of the input item (Map
 * Automatically, read as version 1 reads them) or the mapper's values (Define Below).
 */
export function mapperRows(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	api: MemberApi,
	normalize: boolean,
): (index: number) => GivenRow {
	const mode = ctx.getNodeParameter('columns.mappingMode', 0, 'defineBelow');
	if (mode === 'autoMapInputData') return (index) => rawRowOf(items[index].json);
	if (mode !== 'defineBelow') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Mapping Column Mode must be "autoMapInputData" or "defineBelow" (got ${JSON.stringify(mode)})`,
		);
	}
	if (nothingMapped(ctx)) {
		// The node as added: every row would fail with "No member ID, and the phone number format
		// does not match", which says nothing of the cause.
		throw new NodeOperationError(
			ctx.getNode(),
			'No member field is mapped: set at least Member ID and Phone Number under Member Fields (Define Below), or choose Map Automatically',
			{
				itemIndex: 0,
				description:
					'Open the node and fill the fields under Member Fields: a value, or an expression such as {{ $json.phoneNumber }} for each item.',
			},
		);
	}
	const strict = ctx.getNodeParameter('columns.attemptToConvertTypes', 0, false) !== true;
	const parseStrings = ctx.getNodeParameter('columns.convertFieldsToString', 0, false) === true;
	return (index) => {
		const value = ctx.getNodeParameter('columns.value', index, null, { skipValidation: true });
		const raw = rawRowOf(isObject(value) ? value : {});
		return typeChecked(raw, strict, parseStrings, api, normalize);
	};
}
