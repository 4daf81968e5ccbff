/**
 * Members `delete`: v1 by member id, v2 by phone number (the key of each version), one member
 * per input item, sent in chunks of Batch Size. Every item ends on Success or Failed.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { batchSizeOption, MAX_BATCH, MIN_BATCH, optionsCollection } from '../../shared/options';
import type { Failure, Outcome } from '../../shared/outcome';
import type { Done, OperationOption } from '../../shared/operation';
import { isBlank, readMemberId, scalarText } from '../../shared/values';
import { openWrite } from '../helpers/context';
import { normalizePhoneOption, phoneNumberField } from '../helpers/parameters';
import { sendWrite } from '../helpers/write-requests';
import type { MemberApi } from '../helpers/api-versions';
import { ruleWords } from '../helpers/advice';
import type { SentRow } from '../helpers/responses';
import { fieldCode, sendablePhone } from '../helpers/rows';

export const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete members permanently with no undo',
	description:
		'Remove members for good (v1: by member ID, v2: by phone number). This cannot be undone.',
};

export const kind = 'write' as const;

export const done: Done = { verb: 'deleted' };

export { ADVICE as advice } from '../helpers/advice';

const show = (apiVersion: string) => ({ show: { apiVersion: [apiVersion] } });

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['delete'] } },
	[
		{
			displayName: 'Member ID',
			name: 'memberId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: show('v1'),
			description:
				'ID of the member to delete (member API v1 deletes by member ID). This cannot be undone.',
		},
		phoneNumberField(
			'Phone number of the member record to delete (member API v2 deletes by phone number). This cannot be undone.',
			{
				required: true,
				displayOptions: show('v2'),
			},
		),
		optionsCollection([
			{
				...batchSizeOption,
				description: `How many members to delete per request, ${MIN_BATCH} to ${MAX_BATCH}. In v2 a request of one row sends the single object {"phoneNumber": ...} the documentation shows, so 1 is the most conservative setting.`,
			},
			{
				displayName: 'Delete All Information',
				name: 'deleteAllInformation',
				type: 'boolean',
				default: false,
				displayOptions: { show: { '/apiVersion': ['v1'] } },
				description:
					'Whether to remove all information of each member (POST ?delete, one member per request) instead of the member record only (DELETE, in batches). It cannot be undone.',
			},
			{ ...normalizePhoneOption, displayOptions: { show: { '/apiVersion': ['v2'] } } },
		]),
	],
);

interface PendingDelete extends SentRow {
	key: string;
}

/** The key of one item as it will be sent, or why it cannot be sent and the key as given (or null). */
function deleteKeyOf(
	given: unknown,
	api: MemberApi,
	normalize: boolean,
): { key: string } | { problem: string; given: string | null } {
	if (api.deleteKey === 'memberId') {
		const id = readMemberId(given);
		if (id.ok) return { key: id.value };
		return {
			problem: isBlank(given) ? 'no member ID given' : `member ID ${id.reason}`,
			given: null,
		};
	}
	const phone = sendablePhone(given, api, normalize);
	if ('phone' in phone) return { key: phone.phone };
	return { problem: phone.problem, given: scalarText(given) || null };
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<Outcome[]> {
	const { client, api, options, normalize, batchSize } = await openWrite(this);
	const { version, deleteKey } = api;
	const allInformation = api.deletesAllInformation && options.deleteAllInformation === true;
	const code = fieldCode(deleteKey, api);
	const identity = (key: string | null) => ({ [deleteKey]: key });

	const refused: Array<{ index: number; failure: Failure }> = [];
	const pending: PendingDelete[] = [];
	items.forEach((_, index) => {
		const key = deleteKeyOf(this.getNodeParameter(deleteKey, index, ''), api, normalize);
		if ('key' in key) {
			pending.push({ index, ...identity(key.key), key: key.key });
			return;
		}
		refused.push({
			index,
			failure: {
				code,
				message: `${ruleWords(code)}: ${key.problem}`,
				...identity(key.given),
				apiVersion: version,
			},
		});
	});

	return sendWrite(client, {
		refused,
		pending,
		batchSize: allInformation ? 1 : batchSize,
		call: (part) =>
			api.deleteCall(
				part.map((row) => row.key),
				allInformation,
			),
		success: (row) => ({
			...identity(row.key),
			deleted: true,
			...(allInformation ? { allInformation: true } : {}),
			apiVersion: version,
		}),
		identity: (row) => ({ ...identity(row.key), apiVersion: version }),
	});
}
