/**
 * What a Failed item says about an earlier send of its message that is unconfirmed or still under
 * way (README, "Sending once across executions").
 */
import type { Failure } from '../../shared/outcome';
import { HOURS_BACK } from './markers';

export const UNCONFIRMED_CODE = 'earlierSendUnconfirmed';
export const NO_KEY_CODE = 'noDeduplicationKey';

/** An item to be sent without a key while the Deduplication Key is set: not sent. */
export function keyMissingFailure(): Failure {
	return {
		code: NO_KEY_CODE,
		message:
			'Deduplication Key is empty for this item: while the option is set, every item needs a key (not sent)',
	};
}

export const IN_PROGRESS_CODE = 'earlierSendInProgress';

/**
 * `startedAt`: the start of the hour the earlier send was claimed in; null when it was looked for
 * and not found in the last HOURS_BACK hours; undefined when it was not looked for (hours.ts
 * looks for a bounded number a round).
 */
export function unconfirmedFields(
	verdict: 'unconfirmed' | 'inProgress',
	key: string,
	startedAt: number | null | undefined,
	timeoutMs: number,
): Failure {
	const start = typeof startedAt === 'number' ? new Date(startedAt).toISOString() : undefined;
	const end = typeof startedAt === 'number' ? new Date(startedAt + 3600000).toISOString() : '';
	const when =
		start !== undefined
			? `started between ${start.slice(11, 16)} and ${end.slice(11, 16)} UTC on ${start.slice(0, 10)}`
			: startedAt === null
				? `started more than ${HOURS_BACK} hours ago`
				: 'started at a time not looked up';
	const message =
		verdict === 'unconfirmed'
			? `Not sent: an earlier send of this message (same Deduplication Key), ${when}, never got the service's answer recorded, so it may or may not have been delivered (the service did not answer, or n8n stopped during that send)`
			: `Not sent: another execution is sending this message (same Deduplication Key) right now and had no answer after ${Math.round(timeoutMs / 1000)} s of waiting, so it may or may not be delivered`;
	return {
		code: verdict === 'unconfirmed' ? UNCONFIRMED_CODE : IN_PROGRESS_CODE,
		message,
		deliveryUnknown: true,
		deduplicationKey: key,
		deduplicationKeyKept: true,
		...(verdict === 'unconfirmed' && start !== undefined ? { earlierSendStartedAt: start } : {}),
		hint: 'Check in the service whether the customer received it. To send it anyway, give it a new Deduplication Key (for example add "-resend" to the expression).',
	};
}
