/**
 * Alimtalk `send`: one request per input item (the service takes one recipient per request),
 * validated before sending, sent with bounded concurrency, output in input order.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	DEFAULT_CONCURRENCY,
	DEFAULT_PAUSE_MS,
	MAX_CONCURRENCY,
	MAX_PAUSE_MS,
	MIN_CONCURRENCY,
	MIN_PAUSE_MS,
	optionNumber,
	optionsCollection,
	readOptions,
	readTransportSettings,
} from '../../shared/options';
import { WriteOutputs } from '../../shared/outputs';
import { runOrdered } from '../helpers/pool';
import type { ApiResult } from '../../shared/transport';
import { CampaignClient } from '../../shared/transport';
import { dedupOptions } from '../dedup/options';
import { DedupSession, keyFate } from '../dedup/session';
import type { Row } from '../helpers/rows';
import { repeatRow, sendRow } from '../helpers/rows';
import { prepare } from '../helpers/prepare';
import type { Outcome } from '../../shared/outcome';
import { fromOutputs } from '../../shared/legacy';
import type { Done } from '../../shared/operation';

export const kind = 'write' as const;

export const done: Done = {
	word: 'sent',
	answer: { outcome: 'sent', message: 'The message was sent.' },
};

export { ADVICE as advice } from '../helpers/advice';

export const TRIGGER_PATH = '/messages/alimtalk/trigger';

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
			displayName: 'Phone Number',
			name: 'phoneNumber',
			type: 'string',
			default: '',
			required: true,
			placeholder: '821012345678',
			description:
				'Recipient phone number. The service requires exactly 12 characters (e.g. 821012345678); see the Convert Phone Numbers option.',
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
		optionsCollection([
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: MIN_CONCURRENCY, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
				default: DEFAULT_CONCURRENCY,
				description: `How many send requests may be in flight at once (${MIN_CONCURRENCY} to ${MAX_CONCURRENCY})`,
			},
			{
				displayName: 'Convert Phone Numbers',
				name: 'convertPhoneNumbers',
				type: 'boolean',
				default: false,
				description:
					'Whether to convert Korean mobile numbers such as 010-1234-5678 or +82 10 1234 5678 to the 12-character form 821012345678. This assumes the service expects the international form without "+", which its documentation implies but does not state.',
			},
			{
				displayName: 'Pause Between Requests (Ms)',
				name: 'pauseMs',
				type: 'number',
				typeOptions: { minValue: MIN_PAUSE_MS, maxValue: MAX_PAUSE_MS, numberPrecision: 0 },
				default: DEFAULT_PAUSE_MS,
				description:
					'Milliseconds each concurrent sender waits after a request before the next one',
			},
			{
				displayName: 'Retry When Delivery Is Unknown (May Send Twice)',
				name: 'retryUnknownDelivery',
				type: 'boolean',
				default: false,
				description:
					'Whether to repeat a send after a server error or a timeout, when the message may already have gone out. Off by default: such items go to the Failed output with deliveryUnknown set to true instead.',
			},
			...dedupOptions, // Deduplication Key (dedup/)
		]),
	],
);

async function run(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const options = readOptions(this);
	const settings = readTransportSettings(this, options);
	const concurrency = optionNumber(
		this,
		options.concurrency,
		'Concurrency',
		MIN_CONCURRENCY,
		MAX_CONCURRENCY,
		DEFAULT_CONCURRENCY,
	);
	const pauseMs = optionNumber(
		this,
		options.pauseMs,
		'Pause Between Requests (Ms)',
		MIN_PAUSE_MS,
		MAX_PAUSE_MS,
		DEFAULT_PAUSE_MS,
	);
	const convert = options.convertPhoneNumbers === true;
	const retryUnknownDelivery = options.retryUnknownDelivery === true;

	// Every parameter of every item is read before the first request: an expression error can
	// then never stop the node half-way through, after some messages went out.
	const prepared = items.map((_, i) => prepare(this, i, convert));
	// Deduplication Key (dedup/): undefined when the option is off.
	const dedup = DedupSession.open(
		this,
		options,
		settings,
		items.length,
		(i) => 'send' in prepared[i],
		(i, failure) => {
			const entry = prepared[i];
			if ('send' in entry)
				prepared[i] = {
					failure: {
						...failure,
						campaignKey: entry.send.campaignKey,
						phoneNumber: entry.send.phoneNumber,
					},
				};
		},
	);
	const client = await CampaignClient.create(this, settings);

	// The first failure that stops the node: one the transport throws (an account failure, or a
	// passing fault once its retries are spent) or one of n8n's deduplication store.
	let stopError: NodeApiError | NodeOperationError | undefined;
	let sentCount = 0;
	const results = await runOrdered<ApiResult | NodeApiError | NodeOperationError | undefined>(
		items.length,
		concurrency,
		async (i) => {
			const entry = prepared[i];
			if (!('send' in entry)) return undefined;
			const { campaignKey, phoneNumber, properties } = entry.send;
			try {
				if (dedup && !(await dedup.claim(i))) return undefined; // not sent (dedup/)
			} catch (error) {
				stopError = stopError ?? (error as NodeOperationError);
				return error as NodeOperationError;
			}
			let result: ApiResult;
			try {
				result = await client.call({
					method: 'POST',
					path: TRIGGER_PATH,
					body: { campaignKey, users: [{ phoneNumber, properties }] },
					safety: 'unsafe',
					retryUnknownDelivery,
					envelope: 'optional',
					itemIndex: i,
				});
			} catch (error) {
				dedup?.finish(i, keyFate(error as Error));
				stopError = stopError ?? (error as NodeApiError);
				return error as NodeApiError;
			}
			dedup?.finish(i, keyFate(result));
			if (result.code === '0') sentCount++;
			return result;
		},
		{ pauseMs, shouldStop: () => stopError !== undefined, signal: client.signal },
	);
	// Deduplication Key (dedup/): record the answers not recorded yet, in one round.
	await dedup?.settle();

	// A failure before anything was sent fails the whole node: every item would fail the same
	// way, and "Retry On Fail" can then repeat the node without sending twice.
	if (stopError && sentCount === 0) throw stopError;

	const rows: Row[] = [];
	prepared.forEach((entry, i) => {
		if (!('send' in entry)) {
			rows.push({ fail: { ...entry.failure, ...dedup?.failureFields(i) } });
			return;
		}
		const { campaignKey, phoneNumber } = entry.send;
		const first = dedup?.repeatOf(i);
		if (first !== undefined) {
			rows.push(repeatRow(rows[first], first, { campaignKey, phoneNumber }, dedup?.keyOf(i)));
			return;
		}
		const duplicate = dedup?.duplicateFields(i);
		const unconfirmed = dedup?.unconfirmedFields(i);
		if (duplicate) rows.push({ ok: { campaignKey, phoneNumber, ...duplicate } });
		else if (unconfirmed) rows.push({ fail: { ...unconfirmed, campaignKey, phoneNumber } });
		else
			rows.push(
				sendRow(results[i], stopError, { campaignKey, phoneNumber, ...dedup?.failureFields(i) }),
			);
	});
	const out = new WriteOutputs();
	rows.forEach((row, i) => ('ok' in row ? out.ok(row.ok, i) : out.fail(row.fail, i)));
	return out.toArray();
}

/** TRANSITIONAL: the outputs above read back as outcomes. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<Outcome[]> {
	return fromOutputs(await run.call(this, items));
}
