/** A Failed item's words about an earlier send that is unconfirmed or still under way. */
import type { Failure } from '../../shared/outcome';
import { HOURS_BACK } from './markers';

export const UNCONFIRMED_CODE = 'earlierSendUnconfirmed';
export const NO_KEY_CODE = 'noDeduplicationKey';

export function keyMissingFailure(): Failure {
	return {
		code: NO_KEY_CODE,
		message:
			'Deduplication Key is empty for this item: while the option is set, every item needs a key (not sent)',
	};
}

export const IN_PROGRESS_CODE = 'earlierSendInProgress';

/** `claimed`: undefined when not looked for; `at` null when not found within HOURS_BACK hours. */
export function unconfirmedFields(
	verdict: 'unconfirmed' | 'inProgress',
	key: string,
	claimed: { at: number | null; toMinute: boolean } | undefined,
	timeoutMs: number,
): Failure {
	const at = claimed?.at;
	const start = typeof at === 'number' ? new Date(at).toISOString() : undefined;
	const day = start?.slice(0, 10);
	const when =
		start === undefined
			? at === null
				? `at a time not found in the last ${HOURS_BACK} hours of this worker's clock (longer ago, or on a worker whose clock runs ahead of this one's)`
				: 'earlier'
			: claimed?.toMinute
				? `at ${start.slice(11, 16)} UTC on ${day}`
				: `between ${start.slice(11, 16)} and ${new Date((at as number) + 3600000).toISOString().slice(11, 16)} UTC on ${day}`;
	const message =
		verdict === 'unconfirmed'
			? `Not sent: an earlier execution claimed this Deduplication Key ${when} and did not confirm it (the service did not answer, or n8n stopped during that send), so it may or may not have been delivered`
			: `Not sent: an earlier execution claimed this Deduplication Key ${when} and had not confirmed it after ${Math.round(timeoutMs / 1000)} s of waiting (it may still be sending, or it stopped during the send), so it may or may not be delivered`;
	return {
		code: verdict === 'unconfirmed' ? UNCONFIRMED_CODE : IN_PROGRESS_CODE,
		message,
		deliveryUnknown: true,
		deduplicationKey: key,
		deduplicationKeyKept: true,
		...(start !== undefined ? { earlierSendStartedAt: start } : {}),
		hint: 'Check in the service whether the customer received it. To send it anyway, give it a new Deduplication Key (for example add "-resend" to the expression).',
	};
}
