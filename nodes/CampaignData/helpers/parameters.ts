/**
 * Parameters that several operations of the data nodes show, each built once. An operation
 * file picks what it shows and adds its own `displayOptions` with `updateDisplayOptions`.
 */
import type { INodeProperties } from 'n8n-workflow';
import { batchSizeOption, mappingModeField, optionsCollection } from '../../shared/options';
import type { DataApi } from './api-versions';

/** The member id parameter; its words follow the one member id rule (docs/service-rules.md#member-ids). */
export function memberIdField(purpose: string): INodeProperties {
	return {
		displayName: 'Member ID',
		name: 'memberId',
		type: 'string',
		default: '',
		required: true,
		description: `${purpose}. Spaces around it are removed; line breaks, tabs and other control characters are refused; everything else is sent exactly as given.`,
	};
}

/** The options of a delete: the batch size and the transport options. */
export const deleteOptions: INodeProperties = optionsCollection([batchSizeOption]);

/** Define Below's keys and values of a write. */
function entriesField(api: DataApi): INodeProperties {
	return {
		displayName: 'Keys and Values',
		name: 'entries',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Key',
		displayOptions: { show: { mappingMode: ['defineBelow'] } },
		options: [
			{
				displayName: 'Entry',
				name: 'entry',
				values: [
					{
						displayName: 'Key',
						name: 'key',
						type: 'string',
						default: '',
						description: `Name of the ${api.noun} key (it must be registered in the service)`,
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'Text, a number, true/false, or a date (dates and date-times are sent as YYYY-MM-DD in the workflow time zone)',
					},
				],
			},
		],
	};
}

/** The options of a write: the batch size, the fields written, and empty values. */
const writeOptions: INodeProperties = optionsCollection([
	batchSizeOption,
	{
		displayName: 'Fields to Ignore',
		name: 'excludeFields',
		type: 'string',
		default: '',
		placeholder: 'e.g. email, createdAt',
		description: 'Input fields not to write, separated by commas (Map Automatically only)',
	},
	{
		displayName: 'Fields to Write',
		name: 'includeFields',
		type: 'string',
		default: '',
		placeholder: 'e.g. grade, lastOrderDate',
		description:
			'Only these input fields are written, separated by commas; empty writes every field (Map Automatically only)',
	},
	{
		displayName: 'Skip Empty Values',
		name: 'skipNullValues',
		type: 'boolean',
		default: false,
		description:
			'Whether to leave out keys whose value is null or undefined. Off: each such key is reported on the Failed output.',
	},
]);

/** The parameters of create and update (the same for both, the method differs). */
export function writeFields(api: DataApi): INodeProperties[] {
	return [
		mappingModeField({
			auto: 'Each input item is one member: the member ID field gives the member, every other top-level field is a key',
			defineBelow: 'Set the member ID and each key and value below (expressions allowed)',
		}),
		{
			displayName: 'Member ID Field',
			name: 'memberIdField',
			type: 'string',
			default: 'memberId',
			required: true,
			displayOptions: { show: { mappingMode: ['autoMapInputData'] } },
			description:
				'Name of the top-level input field that holds the member ID; every other field is written as a key',
		},
		{
			...memberIdField('ID of the member to write'),
			displayOptions: { show: { mappingMode: ['defineBelow'] } },
		},
		entriesField(api),
		writeOptions,
	];
}

/** The options of a read: the output format and the transport options. */
export const readOptionsField: INodeProperties = optionsCollection([
	{
		displayName: 'Output Format',
		name: 'outputFormat',
		type: 'options',
		default: 'entry',
		options: [
			{
				name: 'One Item per Entry',
				value: 'entry',
				description: 'Each item holds memberId, key and value',
			},
			{
				name: 'One Item per Member',
				value: 'member',
				description: 'Each item holds memberId and every key of the member as a field',
			},
		],
		description: 'How to turn the entries into items',
	},
]);
