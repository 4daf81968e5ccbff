/**
 * The retry policy, pure: whether an outcome is tried again, thrown as a whole-call failure or
 * handed back to the node, and how long to wait before the next attempt
 * (docs/service-rules.md#retries).
 */
import type { CodeInfo } from '../codes';

/**
 * Whether a request may be repeated. `idempotent`: repeating it cannot do harm (reads, upserts,
 * deletes); it is retried on every transient failure. `unsafe`: repeating it could duplicate a
 * side effect (a send); it is retried only when the request provably never reached the service,
 * unless the caller explicitly accepts duplicates with `retryUnknownDelivery`.
 */
export type Repeatability = 'idempotent' | 'unsafe';

export type RetryStep = 'retry' | 'throw' | 'return';

/**
 * What to do after attempt number `attempt` (1 for the first) ended with an outcome of `kind`:
 * a transient failure, or a delivery that may have happened when repeating it is harmless (or
 * accepted), is tried again while retries are left; once they are spent it, like an account
 * failure, stops the node. Everything else (success, row rejections, an unknown delivery the
 * caller must report) goes back to the node.
 */
export function retryStep(
	kind: CodeInfo['kind'],
	policy: { repeatability: Repeatability; retryUnknownDelivery?: boolean; maxRetries: number },
	attempt: number,
): RetryStep {
	const mayRetry =
		kind === 'transient' ||
		(kind === 'deliveryUnknown' &&
			(policy.repeatability === 'idempotent' || policy.retryUnknownDelivery === true));
	if (mayRetry && attempt <= policy.maxRetries) return 'retry';
	if (
		kind === 'account' ||
		kind === 'transient' ||
		(kind === 'deliveryUnknown' && policy.repeatability === 'idempotent')
	)
		return 'throw';
	return 'return';
}

/** Upper bound of one backoff pause, whatever the attempt number or Retry-After says. */
export const MAX_BACKOFF_MS = 30000;

/**
 * The pause before retry number `attempt` (1 for the first retry): exponential from `baseMs`
 * (base, 2 x base, 4 x base...), with "equal jitter" (half of it fixed, half random, `random` in
 * [0, 1)) so that many clients do not retry in step; at least a Retry-After of whole seconds,
 * and never more than MAX_BACKOFF_MS.
 */
export function backoffDelay(
	attempt: number,
	baseMs: number,
	retryAfterHeader: unknown,
	random: number,
): number {
	const exponential = baseMs * 2 ** (attempt - 1);
	const jittered = exponential * (0.5 + random / 2);
	const retryAfter = Number(retryAfterHeader);
	const wait =
		Number.isFinite(retryAfter) && retryAfter > 0
			? Math.max(jittered, retryAfter * 1000)
			: jittered;
	return Math.min(wait, MAX_BACKOFF_MS);
}
