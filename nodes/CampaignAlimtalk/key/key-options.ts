/** The Deduplication Key options and how they are read. */
import { createHash } from 'crypto';
import type { DeduplicationScope, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { HISTORY_OPTION, numberOption, readNumberOption } from '../../shared/options';
import { numberDigits } from '../../shared/phone';

export const dedupOptions: INodeProperties[] = [
	{
		displayName: 'Deduplication Key',
		name: 'deduplicationKey',
		type: 'string',
		default: '',
		placeholder: '{{ $json.orderId }}-{{ $json.event }}',
		description:
			"A key per item that names the message, e.g. an order ID and an event. A message already sent with this key (by an earlier execution, or earlier in this one) is not sent again: its item goes to Success with duplicate set to true. One whose earlier send never got an answer goes to Failed with deliveryUnknown set to true. Keys are kept in n8n's database. Leave empty to turn this off.",
	},
	{
		displayName: 'Deduplicate per Recipient',
		name: 'deduplicationPerRecipient',
		type: 'boolean',
		default: false,
		description:
			'Whether the recipient is part of the key: the digits of the phone number the node resolved (looked up for a Member ID, or as given) are added to the Deduplication Key, as 821012345678 when they make a Korean mobile number, so a key of the day alone means one message per number per day, however the number was written (spaces, separators, 010 or 82) or whichever member ID holds it',
	},
	{
		displayName: 'Deduplication Scope',
		name: 'deduplicationScope',
		type: 'options',
		default: 'node',
		options: [
			{ name: 'This Node', value: 'node', description: 'Keys recorded by this node only' },
			{
				name: 'Whole Workflow',
				value: 'workflow',
				description:
					"Keys kept in the workflow's shared record (they outlive the node); the node must then be the only send of the workflow with a Deduplication Key",
			},
		],
		description:
			'Which recorded keys count, when a Deduplication Key is set; a Send Limit per hour or day is kept in the same record',
	},
	numberOption(
		HISTORY_OPTION,
		'How many of the latest keys are remembered (1,000 to 100,000), when a Deduplication Key is set; older ones are forgotten and could be sent again. Keep it above the number of messages sent in the time a repeated event can arrive.',
	),
];

export interface DedupSettings {
	scope: DeduplicationScope;
	historySize: number;
	perRecipient: boolean;
}

/** Whether saved Options (`savedOptionsOf`) set a Deduplication Key: this node's or another's. */
export function keyIsSet(saved: Record<string, unknown>): boolean {
	const raw = saved.deduplicationKey;
	return typeof raw === 'string' && raw.trim() !== '' && raw.trim() !== '=';
}

/** Also read for a Send Limit per hour or day, kept in the same row. */
export function readStoreSettings(
	ctx: IExecuteFunctions,
	options: Record<string, unknown>,
): DedupSettings {
	const scope = options.deduplicationScope === 'workflow' ? 'workflow' : 'node';
	const historySize = readNumberOption(ctx, options, HISTORY_OPTION);
	return { scope, historySize, perRecipient: options.deduplicationPerRecipient === true };
}

export function readKey(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const value = ctx.getNodeParameter('options.deduplicationKey', itemIndex, '') as unknown;
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
	return text.trim() === '' ? undefined : text;
}

/** Deduplicate per Recipient: the item's key with the digits of the number the node resolved. */
export function keyOfRecipient(key: string, phoneNumber: string): string {
	return `${key}\u0000to:${numberDigits(phoneNumber)}`;
}

/**
 * n8n hashes UTF-8, where every half of a UTF-16 pair becomes the same replacement character;
 * hashing the UTF-16 code units keeps such keys apart.
 */
export function storedKey(key: string): string {
	return createHash('sha256')
		.update('campaign-alimtalk-key:')
		.update(Buffer.from(key, 'utf16le'))
		.digest('base64');
}
