import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import {
	CONCURRENCY_OPTION,
	PAUSE_OPTION,
	numberOption,
	optionsCollection,
	readNumberOption,
	readOptions,
	readTransportSettings,
	savedOptionsOf,
} from '../../shared/options';
import type { TransportSettings } from '../../shared/transport';
import type { DedupSettings } from '../key/key-options';
import { dedupOptions, keyIsSet, readStoreSettings } from '../key/key-options';
import type { LimitSettings } from '../limit/limit-options';
import { limitOptions, readLimitSettings } from '../limit/limit-options';

export const sendOptions: INodeProperties = optionsCollection([
	numberOption(
		CONCURRENCY_OPTION,
		`How many send requests may be in flight at once (${CONCURRENCY_OPTION.min} to ${CONCURRENCY_OPTION.max})`,
	),
	{
		displayName: 'Convert Phone Numbers',
		name: 'convertPhoneNumbers',
		type: 'boolean',
		default: false,
		description:
			'Whether to convert Korean mobile numbers such as 010-1234-5678 or +82 10 1234 5678 to the 12-character form 821012345678. This assumes the service expects the international form without "+", which its documentation implies but does not state.',
	},
	numberOption(
		PAUSE_OPTION,
		'Milliseconds each concurrent sender waits after a request before the next one',
	),
	{
		displayName: 'Retry When Delivery Is Unknown (May Send Twice)',
		name: 'retryUnknownDelivery',
		type: 'boolean',
		default: false,
		description:
			'Whether to repeat a send after a server error or a timeout, when the message may already have gone out. Off by default: such items go to the Failed output with deliveryUnknown set to true instead.',
	},
	{
		displayName: 'Only Members Who Accept Messages',
		name: 'acceptingMembersOnly',
		type: 'boolean',
		default: false,
		displayOptions: { show: { '/recipient': ['memberId'] } },
		description:
			'Whether to send only to members whose record says they accept messages (isReceive true). With Recipient: Member ID only; a member who refuses goes to the Failed output with code memberRefusesMessages, unsent.',
	},
	...dedupOptions,
	...limitOptions,
]);

export interface SendOptions {
	transport: TransportSettings;
	concurrency: number;
	pauseMs: number;
	convert: boolean;
	retryUnknownDelivery: boolean;
	acceptingMembersOnly: boolean;
	/** undefined when the Deduplication Key option is off. */
	dedup: DedupSettings | undefined;
	/** Send limit: undefined when off; kept where the keys are (`store`). */
	limit: { settings: LimitSettings | undefined; store: DedupSettings };
}

/** Every option of the send; a value out of its bounds stops the node before anything is sent. */
export function readSendOptions(ctx: IExecuteFunctions): SendOptions {
	const options = readOptions(ctx);
	// Where the keys and the Send Limit's places are kept, shared by both.
	const store = readStoreSettings(ctx, options);
	return {
		transport: readTransportSettings(ctx, options),
		concurrency: readNumberOption(ctx, options, CONCURRENCY_OPTION),
		pauseMs: readNumberOption(ctx, options, PAUSE_OPTION),
		convert: options.convertPhoneNumbers === true,
		retryUnknownDelivery: options.retryUnknownDelivery === true,
		acceptingMembersOnly: options.acceptingMembersOnly === true,
		dedup: keyIsSet(savedOptionsOf(ctx.getNode())) ? store : undefined,
		limit: { settings: readLimitSettings(ctx, options), store },
	};
}
