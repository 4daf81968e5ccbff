/**
 * Options every node offers (the `options` collection), and how they are read. One place,
 * so that bounds and defaults are the same everywhere.
 */
import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { TransportSettings } from './transport';
import { DEFAULT_TRANSPORT } from './transport';

/** The service's limit of rows (member ids) per write request (docs/service-rules.md#limits). */
export const MAX_BATCH = 1000;

export const batchSizeOption: INodeProperties = {
	displayName: 'Batch Size',
	name: 'batchSize',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_BATCH, numberPrecision: 0 },
	default: 1000,
	description: 'How many rows (member IDs) to send per request, 1 to 1000',
};

export const transportOptions: INodeProperties[] = [
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
		default: 3,
		description:
			'How many times a request is repeated after a passing failure (server error, timeout, busy service), with growing pauses',
	},
	{
		displayName: 'Retry Delay (Ms)',
		name: 'retryDelayMs',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 60000, numberPrecision: 0 },
		default: 1000,
		description: 'Pause before the first retry, in milliseconds; it doubles on each further retry, with jitter',
	},
	{
		displayName: 'Timeout (Ms)',
		name: 'timeoutMs',
		type: 'number',
		typeOptions: { minValue: 1000, maxValue: 600000, numberPrecision: 0 },
		default: 30000,
		description: 'How long to wait for the service to answer one request, in milliseconds',
	},
];

/**
 * The Mapping Mode parameter of the writes (values fixed: `autoMapInputData`, `defineBelow`),
 * with the words that say what each mode reads for the node at hand.
 */
export function mappingModeField(words: { auto: string; defineBelow: string; description?: string }): INodeProperties {
	return {
		displayName: 'Mapping Mode',
		name: 'mappingMode',
		type: 'options',
		noDataExpression: true,
		default: 'autoMapInputData',
		options: [
			{ name: 'Map Automatically', value: 'autoMapInputData', description: words.auto },
			{ name: 'Define Below', value: 'defineBelow', description: words.defineBelow },
		],
		...(words.description ? { description: words.description } : {}),
	};
}

/**
 * The `options` collection of an operation: its own options first, then the transport options
 * every operation shares (Max Retries, Retry Delay, Timeout).
 */
export function optionsCollection(show: IDisplayOptions['show'] | undefined, own: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...(show ? { displayOptions: { show } } : {}),
		options: [...own, ...transportOptions],
	};
}

/**
 * A whole number within [min, max] (`max` may be Infinity), or `fallback` when it is not set;
 * anything else stops the node before it sends, naming what it is (`what`) and the rule. The one
 * place for that rule, for options and parameters alike.
 */
export function wholeNumber(
	ctx: IExecuteFunctions,
	value: unknown,
	what: string,
	min: number,
	max: number,
	fallback: number,
	itemIndex?: number,
): number {
	if (value === undefined || value === null || value === '') return fallback;
	// A number, or a text of digits (an expression gives text): not `true`, `[5]` or "1e3", which
	// Number() would quietly turn into 1, 5 and 1000.
	const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
	if (!Number.isInteger(n) || n < min || n > max) {
		const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
		throw new NodeOperationError(ctx.getNode(), `${what} must be a whole number ${range} (got ${JSON.stringify(value)})`, { itemIndex });
	}
	return n;
}

/** An option of the node's Options collection, by its label: see `wholeNumber`. */
export function optionNumber(ctx: IExecuteFunctions, value: unknown, label: string, min: number, max: number, fallback: number): number {
	return wholeNumber(ctx, value, `Option "${label}"`, min, max, fallback);
}

type Options = Record<string, unknown>;

/** The `options` collection of the node (node-level, read once with item 0). */
export function readOptions(ctx: IExecuteFunctions): Options {
	return (ctx.getNodeParameter('options', 0, {}) ?? {}) as Options;
}

export function readTransportSettings(ctx: IExecuteFunctions, options: Options): TransportSettings {
	return {
		maxRetries: optionNumber(ctx, options.maxRetries, 'Max Retries', 0, 10, DEFAULT_TRANSPORT.maxRetries),
		retryDelayMs: optionNumber(ctx, options.retryDelayMs, 'Retry Delay (Ms)', 0, 60000, DEFAULT_TRANSPORT.retryDelayMs),
		timeoutMs: optionNumber(ctx, options.timeoutMs, 'Timeout (Ms)', 1000, 600000, DEFAULT_TRANSPORT.timeoutMs),
	};
}

export function readBatchSize(ctx: IExecuteFunctions, options: Options): number {
	return optionNumber(ctx, options.batchSize, 'Batch Size', 1, MAX_BATCH, MAX_BATCH);
}
