/**
 * Options every node offers (the `options` collection), and how they are read; and every bound
 * and default of a number the user sets, each written once: the parameter (its `typeOptions` and
 * `default`) and the check that reads it (`wholeNumber`) use the same constant.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { TransportSettings } from './transport';

/** The service's limit of rows (member ids) per write request (docs/service-rules.md#limits). */
export const MAX_BATCH = 1000;
export const MIN_BATCH = 1;
export const DEFAULT_BATCH = MAX_BATCH;

/** Transport: retries after a passing failure, the first pause, and how long one request may take. */
export const MIN_RETRIES = 0;
export const MAX_RETRIES = 10;
export const DEFAULT_RETRIES = 3;
export const MIN_RETRY_DELAY_MS = 0;
export const MAX_RETRY_DELAY_MS = 60000;
export const DEFAULT_RETRY_DELAY_MS = 1000;
export const MIN_TIMEOUT_MS = 1000;
export const MAX_TIMEOUT_MS = 600000;
export const DEFAULT_TIMEOUT_MS = 30000;

/**
 * The Limit of a read of many entries (no upper bound). Its default is the 50 written in its
 * parameter (the linter wants it there as a number), which the check reads.
 */
export const MIN_LIMIT = 1;

/** A send of one request per item: requests in flight at once, and each sender's pause after a request. */
export const MIN_CONCURRENCY = 1;
export const MAX_CONCURRENCY = 50;
export const DEFAULT_CONCURRENCY = 5;
export const MIN_PAUSE_MS = 0;
export const MAX_PAUSE_MS = 60000;
export const DEFAULT_PAUSE_MS = 0;

/** Deduplication History Size: the latest keys remembered. */
export const DEFAULT_HISTORY = 10000;
/** Room for the claims of the messages in flight (up to 8 entries each) and the probes of a round. */
export const MIN_HISTORY = 1000;
export const MAX_HISTORY = 100000;

/**
 * A send limit: at most this many messages per period; 0 = none. The upper bound keeps a store
 * round's cost and its room in the history bounded: every round records the period's slots, one
 * per place, and keeps room for ten entries per place (docs/deduplication.md, "Send limit").
 */
export const MIN_SEND_LIMIT = 0;
export const MAX_SEND_LIMIT = 1000;

/**
 * A number option of an Options collection, written once: its label, name, bounds and default
 * give both its parameter (`numberOption`) and the check that reads it (`readNumberOption`).
 */
export interface NumberOption {
	displayName: string;
	name: string;
	min: number;
	max: number;
	default: number;
}

export const CONCURRENCY_OPTION: NumberOption = {
	displayName: 'Concurrency',
	name: 'concurrency',
	min: MIN_CONCURRENCY,
	max: MAX_CONCURRENCY,
	default: DEFAULT_CONCURRENCY,
};

export const PAUSE_OPTION: NumberOption = {
	displayName: 'Pause Between Requests (Ms)',
	name: 'pauseMs',
	min: MIN_PAUSE_MS,
	max: MAX_PAUSE_MS,
	default: DEFAULT_PAUSE_MS,
};

export const SEND_LIMIT_OPTION: NumberOption = {
	displayName: 'Send Limit',
	name: 'sendLimit',
	min: MIN_SEND_LIMIT,
	max: MAX_SEND_LIMIT,
	default: MIN_SEND_LIMIT,
};

export const HISTORY_OPTION: NumberOption = {
	displayName: 'Deduplication History Size',
	name: 'deduplicationHistorySize',
	min: MIN_HISTORY,
	max: MAX_HISTORY,
	default: DEFAULT_HISTORY,
};

/** The parameter of a number option. */
export function numberOption(option: NumberOption, description: string): INodeProperties {
	// The linter reads `default:` as a name or a literal, not a member of an object.
	const fallback = option.default;
	return {
		displayName: option.displayName,
		name: option.name,
		type: 'number',
		typeOptions: { minValue: option.min, maxValue: option.max, numberPrecision: 0 },
		default: fallback,
		description,
	};
}

export const BATCH_OPTION: NumberOption = {
	displayName: 'Batch Size',
	name: 'batchSize',
	min: MIN_BATCH,
	max: MAX_BATCH,
	default: DEFAULT_BATCH,
};

export const batchSizeOption: INodeProperties = numberOption(
	BATCH_OPTION,
	`How many rows (member IDs) to send per request, ${MIN_BATCH} to ${MAX_BATCH}`,
);

export const transportOptions: INodeProperties[] = [
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: MIN_RETRIES, maxValue: MAX_RETRIES, numberPrecision: 0 },
		default: DEFAULT_RETRIES,
		description:
			'How many times a request is repeated after a passing failure (server error, timeout, busy service), with growing pauses',
	},
	{
		displayName: 'Retry Delay (Ms)',
		name: 'retryDelayMs',
		type: 'number',
		typeOptions: { minValue: MIN_RETRY_DELAY_MS, maxValue: MAX_RETRY_DELAY_MS, numberPrecision: 0 },
		default: DEFAULT_RETRY_DELAY_MS,
		description:
			'Pause before the first retry, in milliseconds; it doubles on each further retry, with jitter',
	},
	{
		displayName: 'Timeout (Ms)',
		name: 'timeoutMs',
		type: 'number',
		typeOptions: { minValue: MIN_TIMEOUT_MS, maxValue: MAX_TIMEOUT_MS, numberPrecision: 0 },
		default: DEFAULT_TIMEOUT_MS,
		description: 'How long to wait for the service to answer one request, in milliseconds',
	},
];

/**
 * The Mapping Mode parameter of the writes (values fixed: `autoMapInputData`, `defineBelow`),
 * with the words that say what each mode reads for the node at hand.
 */
export function mappingModeField(words: {
	auto: string;
	defineBelow: string;
	description?: string;
}): INodeProperties {
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
 * every operation shares (Max Retries, Retry Delay, Timeout). The operation file shows it with
 * its other parameters (`updateDisplayOptions`).
 */
export function optionsCollection(own: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
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
	const n =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)
				? Number(value)
				: Number.NaN;
	if (!Number.isInteger(n) || n < min || n > max) {
		const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
		throw new NodeOperationError(
			ctx.getNode(),
			`${what} must be a whole number ${range} (got ${JSON.stringify(value)})`,
			{ itemIndex },
		);
	}
	return n;
}

/** An option of the node's Options collection, by its label: see `wholeNumber`. */
export function optionNumber(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	min: number,
	max: number,
	fallback: number,
): number {
	return wholeNumber(ctx, value, `Option "${label}"`, min, max, fallback);
}

type Options = Record<string, unknown>;

/**
 * A node's Options as saved (before expressions): which ones it was given. Read of this node, or
 * of another node of the workflow (whose expressions cannot be evaluated here).
 */
export function savedOptionsOf(node: { parameters?: Record<string, unknown> }): Options {
	const options = node.parameters?.options;
	return typeof options === 'object' && options !== null ? (options as Options) : {};
}

/** The `options` collection of the node (node-level, read once with item 0). */
export function readOptions(ctx: IExecuteFunctions): Options {
	return (ctx.getNodeParameter('options', 0, {}) ?? {}) as Options;
}

export function readTransportSettings(ctx: IExecuteFunctions, options: Options): TransportSettings {
	return {
		maxRetries: optionNumber(
			ctx,
			options.maxRetries,
			'Max Retries',
			MIN_RETRIES,
			MAX_RETRIES,
			DEFAULT_RETRIES,
		),
		retryDelayMs: optionNumber(
			ctx,
			options.retryDelayMs,
			'Retry Delay (Ms)',
			MIN_RETRY_DELAY_MS,
			MAX_RETRY_DELAY_MS,
			DEFAULT_RETRY_DELAY_MS,
		),
		timeoutMs: optionNumber(
			ctx,
			options.timeoutMs,
			'Timeout (Ms)',
			MIN_TIMEOUT_MS,
			MAX_TIMEOUT_MS,
			DEFAULT_TIMEOUT_MS,
		),
	};
}

export function readBatchSize(ctx: IExecuteFunctions, options: Options): number {
	return readNumberOption(ctx, options, BATCH_OPTION);
}

/** A number option's value in the node's Options collection: see `wholeNumber`. */
export function readNumberOption(
	ctx: IExecuteFunctions,
	options: Options,
	option: NumberOption,
): number {
	return optionNumber(
		ctx,
		options[option.name],
		option.displayName,
		option.min,
		option.max,
		option.default,
	);
}
