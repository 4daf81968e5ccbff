/**
 * Network failures, pure: which error codes the request helper's errors carry, which ones prove
 * the request never reached the service, and their plain words (docs/service-rules.md#retries).
 */
import { isObject } from '../values';

/** Network errors after which the request provably never reached the service. */
export const NEVER_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EADDRNOTAVAIL',
]);

/** Socket-level failures that are worth another attempt (anything else is not retried). */
const NETWORK_CODES = new Set([
	...NEVER_SENT,
	'ECONNRESET',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EPROTO',
]);

export const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be resolved',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	ECONNRESET: 'the connection was closed before an answer arrived',
	ETIMEDOUT: 'the request timed out',
	EPIPE: 'the connection was closed while sending',
};

/**
 * The network error code inside whatever the request helper threw (it wraps the cause), or
 * undefined when the failure is not a network one (then it must not be retried). An aborted
 * request is a timeout when its messages say so, else a closed connection. n8n-workflow before
 * 2.34 drops `cause` from the error the request helper throws; that error still carries the
 * network code in `httpCode` and the original texts in `messages`, so both are read too.
 */
export function networkCodeOf(error: unknown): string | undefined {
	const chain: Array<Record<string, unknown>> = [];
	for (
		let current: unknown = error;
		isObject(current) && chain.length < 6;
		current = current.cause
	) {
		chain.push(current);
	}
	const messages = chain
		.flatMap((e) => [e.message, ...(Array.isArray(e.messages) ? e.messages : [])])
		.filter((m): m is string => typeof m === 'string')
		.join(' | ');
	const code = chain
		.flatMap((e) => [e.code, e.httpCode])
		.find((c): c is string => typeof c === 'string' && /^E[A-Z_]+$|^ERR_/.test(c));
	if (code === 'ERR_CANCELED') return undefined;
	if (code === 'ETIMEDOUT' || /timeout/i.test(messages)) return 'ETIMEDOUT';
	if (code === 'ECONNABORTED') return 'ECONNRESET';
	if (code !== undefined && NETWORK_CODES.has(code)) return code;
	if (/socket hang up|aborted/i.test(messages)) return 'ECONNRESET';
	return undefined;
}
