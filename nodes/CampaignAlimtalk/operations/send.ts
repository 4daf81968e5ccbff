/** Alimtalk `send`: one request per item, as the service takes one recipient per request. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Done, OperationOption } from '../../shared/operation';
import type { Outcome } from '../../shared/outcome';
import { isToolCall } from '../../shared/tool';
import { CampaignClient } from '../../shared/transport';
import { DedupSession } from '../session/session';
import { refuseMemberToolBeside } from '../helpers/beside';
import { refuseKeylessTool } from '../helpers/guard';
import type { SendOptions } from '../helpers/send-options';
import { readSendOptions, sendOptions } from '../helpers/send-options';
import type { Prepared } from '../helpers/prepare';
import { prepareAll, sendable } from '../helpers/prepare';
import { lookupMembers } from '../helpers/recipients';
import {
	memberNumbers,
	oneMemberAnswer,
	refusedLookups,
	withoutMemberNumbers,
	withoutNumbersIn,
} from '../helpers/redact';
import { report, usedUpReport } from '../helpers/report';
import { sendAll } from '../helpers/sending';

export const option: OperationOption = {
	name: 'Send',
	value: 'send',
	action: 'Send a real message billed to the account',
	description:
		'Send the message of an API-trigger campaign to one phone number, with the template variables for that recipient. This sends a real KakaoTalk message, billed to the account, and cannot be undone.',
};

export const kind = 'write' as const;

export const done: Done = {
	verb: 'sent',
	answer: { outcome: 'sent', message: 'The message was sent.' },
};

export { ADVICE as advice } from '../helpers/advice';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['send'] } },
	[
		{
			displayName: 'Campaign Key',
			name: 'campaignKey',
			type: 'string',
			default: '',
			required: true,
			description:
				'Key of the API-trigger campaign, issued when the campaign was created in the service',
		},
		{
			displayName: 'Recipient',
			name: 'recipient',
			type: 'options',
			default: 'phoneNumber',
			options: [
				{
					name: 'Phone Number',
					value: 'phoneNumber',
					description: 'Send to the phone number given',
				},
				{
					name: 'Member ID',
					value: 'memberId',
					description:
						'Look the member up in the member records and send to its phone number: the number is never given',
				},
			],
			description: 'Who receives the message: a phone number, or a member by member ID',
		},
		{
			displayName: 'Phone Number',
			name: 'phoneNumber',
			type: 'string',
			default: '',
			required: true,
			placeholder: '821012345678',
			displayOptions: { show: { recipient: ['phoneNumber'] } },
			description:
				'Recipient phone number. The service requires exactly 12 characters (e.g. 821012345678); see the Convert Phone Numbers option.',
		},
		{
			displayName: 'Member ID',
			name: 'memberId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'member-1234',
			displayOptions: { show: { recipient: ['memberId'] } },
			description:
				"ID of the member to send to. Its phone number is looked up in the member records of the member API the credential's Member API Version names (v2 when it says Any) and converted to the 12-character form. No record, or several records under the ID: not sent, the item goes to Failed.",
		},
		{
			displayName: 'Variables Input',
			name: 'variablesInput',
			type: 'options',
			default: 'fields',
			options: [
				{
					name: 'Fields Below',
					value: 'fields',
					description: 'Add each template variable as a key and a value',
				},
				{
					name: 'JSON',
					value: 'json',
					description: 'Give all template variables as one JSON object',
				},
			],
			description: 'How to give the template variables of the recipient',
		},
		{
			displayName: 'Template Variables',
			name: 'properties',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Variable',
			displayOptions: { show: { variablesInput: ['fields'] } },
			description: 'Personalisation variables of the campaign template, for this recipient',
			options: [
				{
					displayName: 'Variable',
					name: 'property',
					values: [
						{
							displayName: 'Key',
							name: 'key',
							type: 'string',
							default: '',
							description: 'Variable name in the template',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							description: 'Value for this recipient',
						},
					],
				},
			],
		},
		{
			displayName: 'Template Variables (JSON)',
			name: 'propertiesJson',
			type: 'json',
			default: '{}',
			displayOptions: { show: { variablesInput: ['json'] } },
			description:
				'An object of variable name to value, e.g. {"name": "Kim", "coupon": "WELCOME10"}',
		},
		sendOptions,
	],
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<Outcome[]> {
	const asTool = isToolCall(this);
	if (asTool) refuseKeylessTool(this);
	if (asTool) refuseMemberToolBeside(this);
	const options = readSendOptions(this);
	const read = prepareAll(this, items.length, options);
	const client = await CampaignClient.create(this, options.transport);
	const dedup = DedupSession.open(this, options.dedup, options.transport, options.limit);
	// As a tool, a bound used up answers every item alike: nothing looked up, no key asked.
	const usedUp = asTool ? await dedup?.usedUp(read.some((entry) => 'member' in entry)) : undefined;
	if (usedUp) return usedUpReport(read, usedUp);
	// Before the first send, so a failure of the whole lookup call stops the node with nothing sent.
	const prepared = await lookupMembers(this, client, read, options);
	// As a tool, the members' numbers never reach the model, in any text (redact.ts).
	const numbers = asTool ? memberNumbers(prepared) : [];
	try {
		const outcomes = await sendPrepared(client, prepared, dedup, options, asTool);
		return asTool ? oneMemberAnswer(withoutMemberNumbers(outcomes, numbers), prepared) : outcomes;
	} catch (error) {
		throw withoutNumbersIn(error, numbers);
	}
}

async function sendPrepared(
	client: CampaignClient,
	prepared: Prepared[],
	dedup: DedupSession | undefined,
	options: SendOptions,
	asTool: boolean,
): Promise<Outcome[]> {
	const numberOf = (i: number) =>
		(prepared[i] as { send: { phoneNumber: string } }).send.phoneNumber;
	dedup?.readKeys(sendable(prepared), numberOf);
	if (asTool) await dedup?.countRefused(refusedLookups(prepared));
	const sent = await sendAll(client, prepared, dedup, options);
	// Record the keys' answers not recorded yet, in one round.
	await dedup?.settle();
	// A failure before anything was sent fails the whole node: every item would fail the same
	// way, and "Retry On Fail" can then repeat the node without sending twice.
	if (sent.stop && sent.count === 0) throw sent.stop;
	return report(prepared, sent, dedup);
}
