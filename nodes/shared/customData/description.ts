/**
 * The parameters of the Custom Data and Legacy Data nodes, built once for a dialect. Names and
 * operation values are fixed by INTERFACE.md: never rename them.
 */
import type { INodeProperties } from 'n8n-workflow';
import { batchSizeOption, optionsCollection } from '../options';
import type { DataDialect } from './dialect';
import { READ_OPERATIONS } from './dialect';

/**
 * Reads have one output, writes two (Success, Failed). n8n evaluates this expression with the
 * node's parameters to draw and route the outputs.
 */
export const DATA_NODE_OUTPUTS: `={{${string}}}` = `={{ ${JSON.stringify(READ_OPERATIONS)}.includes($parameter["operation"]) ? [{ "type": "main" }] : [{ "type": "main", "displayName": "Success" }, { "type": "main", "displayName": "Failed" }] }}`;

const WRITES = ['create', 'update'];

export function dataNodeProperties(dialect: DataDialect): INodeProperties[] {
	const noun = dialect.noun;
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			default: 'create',
			options: [
				{
					name: 'Create',
					value: 'create',
					action: `Create ${noun}`,
					description: `Register ${noun} entries (POST): one member per input item, its fields as keys. An existing key of the member is overwritten.`,
				},
				{
					name: 'Delete',
					value: 'delete',
					action: `Delete all ${noun} of members`,
					description: `Delete every ${noun} entry of the members named by the input items`,
				},
				{
					name: 'Delete Keys',
					value: 'deleteKeys',
					action: `Delete ${noun} keys of members`,
					description: 'Delete some keys of the members named by the input items',
				},
				{
					name: 'Get',
					value: 'get',
					action: `Get the ${noun} of a member`,
					description: `Get every ${noun} entry of one member`,
				},
				{
					name: 'Get Many',
					value: 'getAll',
					action: `Get many ${noun} entries`,
					description: `Get the ${noun} entries of all members, page after page`,
				},
				{
					name: 'Update',
					value: 'update',
					action: `Update ${noun}`,
					description: `Change ${noun} entries (PUT): one member per input item, its fields as keys`,
				},
			],
		},

		// ----- get -----
		{
			displayName: 'Member ID',
			name: 'memberId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { operation: ['get', 'delete', 'deleteKeys'] } },
			description: 'ID of the member. Any characters are allowed; it is sent exactly as given.',
		},

		// ----- getAll -----
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			displayOptions: { show: { operation: ['getAll'] } },
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { operation: ['getAll'], returnAll: [false] } },
			description: 'Max number of results to return',
		},

		// ----- deleteKeys -----
		{
			displayName: 'Keys',
			name: 'keys',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. grade, lastOrderDate',
			displayOptions: { show: { operation: ['deleteKeys'] } },
			description: 'Names of the keys to delete for this member, separated by commas',
		},

		// ----- create / update -----
		{
			displayName: 'Mapping Mode',
			name: 'mappingMode',
			type: 'options',
			noDataExpression: true,
			default: 'autoMapInputData',
			displayOptions: { show: { operation: WRITES } },
			options: [
				{
					name: 'Map Automatically',
					value: 'autoMapInputData',
					description: 'Each input item is one member: the member ID field gives the member, every other top-level field is a key',
				},
				{
					name: 'Define Below',
					value: 'defineBelow',
					description: 'Set the member ID and each key and value below (expressions allowed)',
				},
			],
		},
		{
			displayName: 'Member ID Field',
			name: 'memberIdField',
			type: 'string',
			default: 'memberId',
			required: true,
			displayOptions: { show: { operation: WRITES, mappingMode: ['autoMapInputData'] } },
			description: 'Name of the top-level input field that holds the member ID; every other field is written as a key',
		},
		{
			displayName: 'Member ID',
			name: 'memberId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { operation: WRITES, mappingMode: ['defineBelow'] } },
			description: 'ID of the member to write; it is sent exactly as given',
		},
		{
			displayName: 'Keys and Values',
			name: 'entries',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Key',
			displayOptions: { show: { operation: WRITES, mappingMode: ['defineBelow'] } },
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
							description: `Name of the ${noun} key (it must be registered in the service)`,
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
		},

		// ----- options -----
		optionsCollection({ operation: ['get', 'getAll'] }, [
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
		]),
		optionsCollection({ operation: WRITES }, [
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
		]),
		optionsCollection({ operation: ['delete', 'deleteKeys'] }, [batchSizeOption]),
	];
}
