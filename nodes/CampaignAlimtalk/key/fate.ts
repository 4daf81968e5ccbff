import { serviceCodeOf } from '../../shared/codes';

/** What a send's outcome means for its key: sent, maybe sent (kept unconfirmed), certainly not sent. */
export type KeyFate = 'confirm' | 'keep' | 'release';

/**
 * `undefined`: the request never left. An error without a service code (a stop, an unexpected
 * failure) keeps (docs/deduplication.md, "The transitions, and the store calls that make them").
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
