/**
 * The send limit's options (Send Limit, Send Limit Period) and how they are read; the limit
 * itself is in dedup/limit.ts, kept with the Deduplication Key (docs/deduplication.md).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
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

/** The limit, or undefined when Send Limit is empty or 0. */
export function readLimitSettings(
	ctx: IExecuteFunctions,
	options: Record<string, unknown>,
): LimitSettings | undefined {
	const limit = readNumberOption(ctx, options, SEND_LIMIT_OPTION);
	if (limit === 0) return undefined;
	const raw = options.sendLimitPeriod;
	const period = LIMIT_PERIODS.includes(raw as LimitPeriod) ? (raw as LimitPeriod) : 'hour';
	return { limit, period, zone: ctx.getTimezone() };
}
