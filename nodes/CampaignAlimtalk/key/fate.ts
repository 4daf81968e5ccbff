/** What a send's outcome means for its key and its place of the send limit. */
import { serviceCodeOf } from '../../shared/codes';

/** What a send's outcome means for its key: sent, maybe sent (kept unconfirmed), certainly not sent. */
export type KeyFate = 'confirm' | 'keep' | 'release';

/**
 * Only a certain failure releases a key. Success confirms; an unknown delivery keeps the claim,
 * also when a later attempt was refused (the transport marks a send any attempt of which may
 * have reached the service `deliveryUnknown`, whatever the last attempt said). An answer of the
 * service that refused every attempt, or a failure that proves the request never left,
 * releases it. A thrown error that names no service code (a stopped execution aborting the
 * request, an unexpected failure) or that says an attempt may have left keeps the claim.
 */
export function keyFate(
	result: { code: string; deliveryUnknown: boolean } | Error | undefined,
): KeyFate {
	if (result === undefined) return 'release';
	if (result instanceof Error) {
		const context = (result as { context?: { deliveryUnknown?: unknown } }).context;
		const certain = serviceCodeOf(result) !== undefined && context?.deliveryUnknown !== true;
		return certain ? 'release' : 'keep';
	}
	if (result.code === '0') return 'confirm';
	return result.deliveryUnknown ? 'keep' : 'release';
}
