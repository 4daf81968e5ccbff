/**
 * The send limit's options (Send Limit, Send Limit Period) and how they are read; the limit
 * itself is in dedup/limit.ts, kept with the Deduplication Key (docs/deduplication.md).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	MAX_SEND_LIMIT,
	SEND_LIMIT_OPTION,
	numberOption,
	readNumberOption,
} from '../../shared/options';
import type { LimitPeriod, LimitSettings } from '../dedup/limit';
import { LIMIT_PERIODS } from '../dedup/limit';

export const limitOptions: INodeProperties[] = [
	numberOption(
		SEND_LIMIT_OPTION,
		`At most this many messages go out from this node in the Send Limit Period (0 or empty: no limit; up to ${MAX_SEND_LIMIT}: one entry per place is kept in the period). The rest go to Failed, unsent, with code sendLimitReached. Skipped duplicates and refused sends do not count; a message whose delivery is unknown does. Per hour or day it holds across executions and workers (kept in n8n's database with the Deduplication Key's lock).`,
	),
	{
		displayName: 'Send Limit Period',
		name: 'sendLimitPeriod',
		type: 'options',
		default: 'hour',
		options: [
			{
				name: 'Execution',
				value: 'execution',
				description: 'Counted within one execution (every call of an AI Agent tool in it)',
			},
			{
				name: 'Hour',
				value: 'hour',
				description: "Each hour of the clock in the workflow's time zone",
			},
			{
				name: 'Day',
				value: 'day',
				description: "Each day from midnight in the workflow's time zone",
			},
		],
		description: 'The period the Send Limit counts in',
	},
];

/** The options as saved (before expressions): which ones the node was given. */
const savedOptions = (ctx: IExecuteFunctions) =>
	(ctx.getNode().parameters.options ?? {}) as Record<string, unknown>;

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The limit, or undefined when Send Limit is not set or 0. It fails closed: a Send Limit or a
 * period that was set but gives no usable value (an expression of an unset variable, an unknown
 * period) stops the node before anything is sent, instead of sending without a limit.
 */
export function readLimitSettings(
	ctx: IExecuteFunctions,
	options: Record<string, unknown>,
): LimitSettings | undefined {
	const saved = savedOptions(ctx);
	const fail = (message: string) =>
		new NodeOperationError(ctx.getNode(), message, {
			description: `Nothing was sent. Set Send Limit to a whole number (0: no limit) and Send Limit Period to one of ${LIMIT_PERIODS.join(', ')}.`,
		});
	if (SEND_LIMIT_OPTION.name in saved && isEmpty(options.sendLimit))
		throw fail('Option "Send Limit" is set but its value is empty');
	const limit = readNumberOption(ctx, options, SEND_LIMIT_OPTION);
	if (limit === 0) return undefined;
	// Absent from the saved options: the default, Hour (n8n does not save a default value).
	const period = 'sendLimitPeriod' in saved ? options.sendLimitPeriod : 'hour';
	if (!LIMIT_PERIODS.includes(period as LimitPeriod)) {
		const got = JSON.stringify(period) ?? 'nothing';
		throw fail(
			`Option "Send Limit Period" must be one of ${LIMIT_PERIODS.join(', ')} (got ${got})`,
		);
	}
	return { limit, period: period as LimitPeriod, zone: ctx.getTimezone() };
}
