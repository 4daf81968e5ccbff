/** The Send Limit's options, how they are read, its code, words and advice. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	MAX_SEND_LIMIT,
	SEND_LIMIT_OPTION,
	numberOption,
	readNumberOption,
	savedOptionsOf,
} from '../../shared/options';
import type { CodeInfo } from '../../shared/codes';
import type { Advice } from '../../shared/advice';
import { ASK_OWNER } from '../../shared/advice';

export type LimitPeriod = 'execution' | 'hour' | 'day';
export const LIMIT_PERIODS: readonly LimitPeriod[] = ['execution', 'hour', 'day'];

export interface LimitSettings {
	limit: number;
	period: LimitPeriod;
	/** The workflow's time zone: where an hour or a day starts. */
	zone: string;
}

export const LIMIT_CODE = 'sendLimitReached';

/** As a tool, every refused member lookup, and every member send once the lookups' bound is used up. */
export const MEMBER_UNAVAILABLE_CODE = 'memberNotAvailable';

export const LIMIT_INFO: CodeInfo = {
	kind: 'rejected',
	message: 'The send limit is used up for this period (not sent)',
	hint: 'Wait until sendLimitResetsAt, or raise the Send Limit option.',
};

export const LIMIT_ADVICE: Advice = {
	problem: 'the send limit of this node is used up for the period',
	change:
		'wait until the time in sendLimitResetsAt (the limit resets then), or raise Options → Send Limit if more messages are intended.',
	model: `No more messages can go out before the time in sendLimitResetsAt. ${ASK_OWNER}`,
};

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

/** Per hour or day; an expression counts as set: it may give a limit. */
export function limitInStoreIsSet(saved: Record<string, unknown>): boolean {
	const limited = !['', '0', 'undefined', 'null'].includes(String(saved.sendLimit).trim());
	return limited && saved.sendLimitPeriod !== 'execution';
}

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Undefined when not set or 0. Fails closed: a set but unusable value throws. */
export function readLimitSettings(
	ctx: IExecuteFunctions,
	options: Record<string, unknown>,
): LimitSettings | undefined {
	const saved = savedOptionsOf(ctx.getNode());
	const fail = (message: string) =>
		new NodeOperationError(ctx.getNode(), message, {
			description: `Nothing was sent. Set Send Limit to a whole number (0: no limit) and Send Limit Period to one of ${LIMIT_PERIODS.join(', ')}.`,
		});
	if (SEND_LIMIT_OPTION.name in saved && isEmpty(options.sendLimit))
		throw fail('Option "Send Limit" is set but its value is empty');
	const limit = readNumberOption(ctx, options, SEND_LIMIT_OPTION);
	if (limit === 0) return undefined;
	// n8n does not save a default value: absent means Hour.
	const period = 'sendLimitPeriod' in saved ? options.sendLimitPeriod : 'hour';
	if (!LIMIT_PERIODS.includes(period as LimitPeriod)) {
		const got = JSON.stringify(period) ?? 'nothing';
		throw fail(
			`Option "Send Limit Period" must be one of ${LIMIT_PERIODS.join(', ')} (got ${got})`,
		);
	}
	return { limit, period: period as LimitPeriod, zone: ctx.getTimezone() };
}
