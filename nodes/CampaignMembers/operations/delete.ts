/**
 * Members `delete`: v1 by member id, v2 by phone number (the key of each version), one member
 * per input item, sent in chunks of Batch Size. Every item ends on Success or Failed.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { batchSizeOption, optionsCollection, readBatchSize } from '../../shared/options';
import { chunk } from '../../shared/outputs';
import type { ApiCall } from '../../shared/transport';
import {
	normalizePhoneOption,
	openMembers,
	phoneNumberField,
	sendRows,
	writeOutputs,
} from '../helpers/common';
import type { IsolationReport } from '../helpers/isolate';
import { sendIsolating } from '../helpers/isolate';
import type { SentRow } from '../helpers/responses';
import type { RowFailure } from '../helpers/rows';
import { sendablePhone } from '../helpers/rows';
import { ruleWords } from '../helpers/dialects';
import { isBlank, readMemberId, scalarText } from '../../shared/values';
import type { Outcome } from '../../shared/outcome';
import { fromOutputs } from '../../shared/legacy';
import type { Done } from '../../shared/operation';

export const kind = 'write' as const;

export const done: Done = { word: 'deleted' };

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
				description:
					'How many members to delete per request, 1 to 1000. In v2 a request of one row sends the single object {"phoneNumber": ...} the documentation shows, so 1 is the most conservative setting.',
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

async function run(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const { client, dialect, options, normalize } = await openMembers(this);
	const batchSize = readBatchSize(this, options);
	const version = dialect.version;
	const allInformation = version === 'v1' && options.deleteAllInformation === true;

	const refused: Array<{ index: number; failure: RowFailure }> = [];
	const pending: PendingDelete[] = [];
	items.forEach((_, index) => {
		if (version === 'v1') {
			const given = this.getNodeParameter('memberId', index, '');
			const id = readMemberId(given);
			if (!id.ok) {
				const problem = isBlank(given) ? 'no member ID given' : `member ID ${id.reason}`;
				refused.push({
					index,
					failure: {
						code: '-1006',
						message: `${ruleWords('-1006')}: ${problem}`,
						memberId: null,
						apiVersion: version,
					},
				});
			} else {
				pending.push({ index, memberId: id.value, key: id.value });
			}
			return;
		}
		const given = this.getNodeParameter('phoneNumber', index, '');
		const phone = sendablePhone(given, dialect, normalize);
		if ('problem' in phone) {
			const phoneNumber = scalarText(given) ?? '';
			refused.push({
				index,
				failure: {
					code: 'F02',
					message: `${ruleWords('F02')}: ${phone.problem}`,
					phoneNumber: phoneNumber === '' ? null : phoneNumber,
					apiVersion: version,
				},
			});
		} else {
			pending.push({ index, phoneNumber: phone.phone, key: phone.phone });
		}
	});

	const call = (rows: PendingDelete[]): ApiCall => {
		if (version === 'v2') {
			// The body container is not documented (docs/service-rules.md#envelope): only the field `phoneNumber` (a string) is
			// documented, while the answer speaks of rows ("erroneous rows are returned... correct rows
			// are processed"), so one request may carry several. Several rows go as an array of
			// `{phoneNumber}` objects, the same container the save of the same resource takes, which
			// keeps each row in the documented field shape and lets deletes be batched like saves; a
			// single row goes as exactly the documented object, so Batch Size 1 never depends on the
			// guess. The query `delete` is sent with an empty value, as documented.
			const body =
				rows.length === 1
					? { phoneNumber: rows[0].key }
					: rows.map((row) => ({ phoneNumber: row.key }));
			return { method: 'POST', path: dialect.path, qs: { delete: '' }, body };
		}
		if (allInformation) {
			// Delete by POST takes the single field `memberId` (docs/service-rules.md#members): one member per request.
			return {
				method: 'POST',
				path: dialect.path,
				qs: { delete: '' },
				body: { memberId: rows[0].key },
			};
		}
		return { method: 'DELETE', path: dialect.path, body: rows.map((row) => row.key) };
	};

	const reports: Array<IsolationReport<PendingDelete>> = [];
	for (const rows of chunk(pending, allInformation ? 1 : batchSize)) {
		reports.push(await sendIsolating(rows, async (part) => sendRows(client, call(part), part)));
	}

	const identity = (row: PendingDelete) =>
		version === 'v1' ? { memberId: row.key } : { phoneNumber: row.key };
	return writeOutputs(
		refused,
		reports,
		(row) => ({
			...identity(row),
			deleted: true,
			...(allInformation ? { allInformation: true } : {}),
			apiVersion: version,
		}),
		(row) => ({ ...identity(row), apiVersion: version }),
	);
}

/** TRANSITIONAL: the outputs above read back as outcomes. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<Outcome[]> {
	return fromOutputs(await run.call(this, items));
}
