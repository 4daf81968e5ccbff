/**
 * Members `get` (v1 and v2): the records of a member id and/or a phone number, one request per
 * input item, each record one output item paired with its input item. Both versions give the
 * same shape (see `memberRecord`): downstream nodes need not care which version answered.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { optionsCollection } from '../../shared/options';
import { openMembers } from '../helpers/context';
import { normalizePhoneOption, phoneNumberField } from '../helpers/parameters';
import type { MemberApi } from '../helpers/api-versions';
import { recordsOf } from '../helpers/responses';
import { memberRecord, sendablePhone } from '../helpers/rows';
import { isBlank, readMemberId, scalarText } from '../../shared/values';
import type { Outcome } from '../../shared/outcome';
import { done, errored } from '../../shared/outcome';
import type { OperationOption } from '../../shared/operation';
import { eachItem } from '../../shared/run';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Only read the records of members',
	description: 'Read the records of a member ID and/or a phone number',
};

export const kind = 'read' as const;

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['get'] } },
	[
		{
			displayName:
				'Each record found is one output item: memberId, phoneNumber, isReceive (true or false, whichever version answered), name (null when none is stored) and apiVersion. A member not found gives no item.',
			name: 'getNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Member ID',
			name: 'memberId',
			type: 'string',
			default: '',
			description: 'Find the records of this member ID. Set it, the phone number, or both.',
		},
		phoneNumberField(
			'Find the record of this Korean mobile number (e.g. 010-1234-5678). Set it, the member ID, or both.',
		),
		optionsCollection([normalizePhoneOption]),
	],
);

/** The member id of one item ('' when none is given), by the one member id rule. */
function memberIdOf(ctx: IExecuteFunctions, i: number): string {
	const given = ctx.getNodeParameter('memberId', i, '');
	if (isBlank(given)) return '';
	const id = readMemberId(given);
	if (!id.ok)
		throw new NodeOperationError(ctx.getNode(), `Member ID ${id.reason}`, { itemIndex: i });
	return id.value;
}

/** The query of one item: at least one of member id and phone number. */
function query(
	ctx: IExecuteFunctions,
	i: number,
	api: MemberApi,
	normalize: boolean,
): Record<string, string> {
	const memberId = memberIdOf(ctx, i);
	const phoneGiven = scalarText(ctx.getNodeParameter('phoneNumber', i, '')) ?? '';
	if (memberId === '' && phoneGiven === '') {
		throw new NodeOperationError(
			ctx.getNode(),
			'Set a Member ID or a Phone Number (or both) to look a member up',
			{
				itemIndex: i,
				description:
					'The service needs at least one of them to read member records; both are empty for this item.',
			},
		);
	}
	const qs: Record<string, string> = {};
	if (memberId !== '') qs.memberId = memberId;
	if (phoneGiven !== '') {
		const phone = sendablePhone(phoneGiven, api, normalize);
		if ('problem' in phone) {
			throw new NodeOperationError(ctx.getNode(), `Phone Number ${phone.problem}`, {
				itemIndex: i,
			});
		}
		qs.phoneNumber = phone.phone;
	}
	return qs;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<Outcome[]> {
	const { client, api, normalize } = await openMembers(this);
	// A problem of one item (no key given, a key the service refuses) is that item's error (an
	// error item under "On Error: Continue", run.ts); a failure of the whole call (bad key,
	// service down) is thrown by the transport.
	return await eachItem(this, items.length, async (i) => {
		let qs: Record<string, string>;
		try {
			qs = query(this, i, api, normalize);
		} catch (error) {
			return [errored(error, [i])];
		}
		const call = { method: 'GET' as const, path: api.path, qs, itemIndex: i };
		const result = await client.call(call);
		if (result.info.kind !== 'success') return [errored(client.error(result, call), [i])];
		const records = recordsOf(result.processValue);
		if ('invalid' in records) {
			const error = new NodeOperationError(
				this.getNode(),
				`The service sent member records the node cannot read: ${records.invalid} (expected a list of {"memberId", "phoneNumber", "isReceive", "name"})`,
				{ itemIndex: i },
			);
			return [errored(error, [i])];
		}
		return records.map((record) => done(memberRecord(record, api.version), i));
	});
}
