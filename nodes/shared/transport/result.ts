/**
 * The outcome classifier, pure: what one attempt gave (an HTTP answer, or the error the request
 * helper threw) in, what it means out (success, a row rejection, an account failure, a passing
 * fault, a delivery that may have happened), with plain words (docs/service-rules.md#codes).
 */
import type { IHttpRequestMethods } from 'n8n-workflow';
import type { CodeInfo } from '../codes';
import { cutServiceText, describeCode, serviceWords } from '../codes';
import { isObject } from '../values';
import { MAX_JSON_DEPTH, parseJson, readEnvelope, textNestsDeeperThan } from './envelope';
import { NETWORK_WORDS, NEVER_SENT } from './network';
import type { Safety } from './retry';

export interface ApiCall {
	method: IHttpRequestMethods;
	path: string;
	qs?: Record<string, string>;
	body?: unknown;
	safety?: Safety;
	retryUnknownDelivery?: boolean;
	/** `optional`: a 2xx answer without an envelope counts as success (the send's body is not documented). */
	envelope?: 'required' | 'optional';
	itemIndex?: number;
}

export interface ApiResult {
	/** The code that decided: a processCode ("0", "-1009", "7012"), or "HTTP_<status>" / a network code when no envelope came. */
	code: string;
	info: CodeInfo;
	httpStatus?: number;
	/** The envelope's processValue (undefined when absent). */
	processValue: unknown;
	/** The whole parsed body (undefined when it was not JSON). */
	body: unknown;
	/** The service's own message, if it sent one (redacted, then cut to MAX_SERVICE_TEXT characters). */
	serviceMessage?: string;
	/** True when a send may or may not have gone out. */
	deliveryUnknown: boolean;
	attempts: number;
}

/** What one attempt gave: an HTTP answer, or the network code of a failure. */
export interface RawOutcome {
	status?: number;
	headers?: Record<string, unknown>;
	text?: string;
	networkCode?: string;
	/** Set when the body passed MAX_RESPONSE_BYTES: how much had arrived when reading stopped. */
	tooLargeBytes?: number;
}

/**
 * The most an answer may weigh: 8 MB. The largest answer the service documents is a read page of
 * 1,000 entries (docs/service-rules.md#limits); its values have no documented length. Measured on
 * the sandbox (test/hardening/response-size.test.ts, "the largest real answer"): 3.0 MB with a
 * 1,000-character Korean value in every entry (3 bytes a character), 0.2 MB with 100-character
 * values. 8 MB leaves more than twice the largest page measured, and bounds what a broken or
 * hostile endpoint makes a worker hold: 400 MB at Concurrency 50 at worst, instead of 1.6 GB.
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Removes the API key from what the service answered (see client.ts). */
export interface Redactor {
	text(text: string): string;
	/** The parsed body with the key removed from every text, walked only when `rawText` may hold it. */
	body(parsed: unknown, rawText: string | undefined): unknown;
}

/**
 * The plain words for a result (the transport's: they also cover answers without a code, an HTTP
 * status or a timeout), with the service's own message when it adds something.
 */
export function resultWords(result: Pick<ApiResult, 'info' | 'serviceMessage'>): string {
	return serviceWords(result.info.message, result.serviceMessage, { trim: false, keepSame: false });
}

/**
 * Passing-fault codes that say the service did not process the request at all ("a process is
 * already in progress"): the only ones a send may repeat without risking a second message.
 */
const NOT_PROCESSED_CODES = new Set(['-1005']);

/** Classifies one attempt of `call`. */
export function classify(
	call: Pick<ApiCall, 'safety' | 'envelope'>,
	raw: RawOutcome,
	attempts: number,
	redactor: Redactor,
): ApiResult {
	const unsafe = (call.safety ?? 'idempotent') === 'unsafe';
	if (raw.networkCode !== undefined) return networkOutcome(raw.networkCode, unsafe, attempts);
	const status = raw.status ?? 0;
	// Before the body: a redirect is never an answer, whatever it carries.
	if (status >= 300 && status < 400)
		return redirectOutcome(status, raw.headers?.location, attempts);
	if (raw.tooLargeBytes !== undefined) return tooLargeOutcome(status, unsafe, attempts);
	// Before parsing: JSON.parse of a deep `[[[[...` holds the event loop and builds millions of arrays.
	if (raw.text !== undefined && textNestsDeeperThan(raw.text, MAX_JSON_DEPTH))
		return tooDeepOutcome(status, unsafe, attempts);
	const parsed = parseJson(raw.text);
	const body = redactor.body(parsed, raw.text);
	const envelope = readEnvelope(body);
	if (envelope !== undefined) {
		// The envelope's code decides, whatever the HTTP status (docs/service-rules.md#envelope).
		let info = describeCode(envelope.code);
		if (unsafe && info.kind === 'transient' && !NOT_PROCESSED_CODES.has(envelope.code)) {
			// A server error answered to a send (-9999, -9998) proves the request reached the
			// service, not that nothing went out: repeating it could send the message twice.
			info = {
				kind: 'deliveryUnknown',
				message: `${info.message}: the message may or may not have been sent`,
				hint: 'Check in the service before sending again.',
			};
		}
		return {
			code: envelope.code,
			info,
			httpStatus: status,
			processValue: envelope.processValue,
			body,
			// Redacted first, then cut: a key cut in two would escape the redaction.
			serviceMessage:
				envelope.message === undefined
					? undefined
					: cutServiceText(redactor.text(envelope.message)),
			deliveryUnknown: info.kind === 'deliveryUnknown',
			attempts,
		};
	}
	const base = { httpStatus: status, processValue: undefined, body, attempts };
	if (status >= 200 && status < 300) {
		const empty = raw.text === undefined || raw.text.trim() === '';
		// A processCode that is there but is no code (null, "abc", 0.5) says nothing either way.
		const unreadableCode = isObject(body) && body.processCode !== undefined;
		if (call.envelope === 'optional' && (empty || (body !== undefined && !unreadableCode))) {
			// The send's answer is not documented: an empty body or JSON of any shape counts as success.
			return { ...base, code: '0', info: describeCode('0'), deliveryUnknown: false };
		}
		const what = empty
			? 'an empty body'
			: body === undefined
				? 'a body that is not JSON'
				: unreadableCode
					? `a processCode that is not a code (${(JSON.stringify(body.processCode) ?? '').slice(0, 40)})`
					: 'JSON without a processCode';
		const expected =
			call.envelope === 'optional' ? 'JSON or an empty body' : 'a JSON envelope with processCode';
		return {
			...base,
			code: `HTTP_${status}`,
			info: unsafe
				? {
						kind: 'deliveryUnknown',
						message: `The service answered HTTP ${status} with ${what} (expected ${expected}): the message may or may not have been sent`,
						hint: 'A proxy or the service answered something unreadable; check in the service before sending again.',
					}
				: {
						kind: 'transient',
						message: `The service answered HTTP ${status} with ${what} (expected ${expected})`,
						hint: 'This is usually a passing fault of the service or a proxy; try again later.',
					},
			deliveryUnknown: unsafe,
		};
	}
	const maybeDelivered = unsafe && status >= 500;
	return {
		...base,
		code: `HTTP_${status}`,
		info: statusInfo(status, maybeDelivered),
		deliveryUnknown: maybeDelivered,
	};
}

/**
 * A redirect is not followed (the client disables it: the API key would go along). It proves the
 * request went no further than the Base URL, so even a send certainly did not go out; the
 * whole call stops with where the redirect pointed (the host only: a path may hold a token).
 */
function redirectOutcome(status: number, location: unknown, attempts: number): ApiResult {
	const text = typeof location === 'string' ? location.trim() : '';
	let where = 'an address it did not give';
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
		try {
			where = new URL(text).host || where;
		} catch {
			where = 'an address that is not a valid URL';
		}
	} else if (text !== '') {
		where = 'another path of the same host';
	}
	return {
		code: `HTTP_${status}`,
		info: {
			kind: 'account',
			message: `The Base URL answered with a redirect (HTTP ${status}) to ${where}; requests never follow redirects, so nothing was sent there`,
			hint: 'Set the Base URL in the Campaign API credential to the address the service answers at itself (for example https:// instead of http://, or the final host name): the API key is only ever sent to the Base URL.',
		},
		httpStatus: status,
		processValue: undefined,
		body: undefined,
		deliveryUnknown: false,
		attempts,
	};
}

/**
 * An answer that is not read (too large, or nested too deep: no answer of the service is) stops
 * the whole call, since asking again would get the same. A send answered that way reached
 * something: its delivery is unknown.
 */
function refusedAnswer(
	code: 'RESPONSE_TOO_LARGE' | 'RESPONSE_TOO_DEEP',
	message: string,
	readHint: string,
	status: number,
	unsafe: boolean,
	attempts: number,
): ApiResult {
	return {
		code,
		info: unsafe
			? {
					kind: 'deliveryUnknown',
					message: `${message}: the message may or may not have been sent`,
					hint: 'Check in the service before sending again, and check the Base URL in the Campaign API credential.',
				}
			: { kind: 'account', message, hint: readHint },
		httpStatus: status,
		processValue: undefined,
		body: undefined,
		deliveryUnknown: unsafe,
		attempts,
	};
}

function tooLargeOutcome(status: number, unsafe: boolean, attempts: number): ApiResult {
	const limit = `${MAX_RESPONSE_BYTES / 1024 / 1024} MB`;
	return refusedAnswer(
		'RESPONSE_TOO_LARGE',
		`The service answered with more than ${limit} (HTTP ${status}); the answer was not read`,
		`No answer of the campaign API comes near ${limit} (a page of 1,000 entries is about 1 MB, 3 MB with long Korean values): check the Base URL in the Campaign API credential.`,
		status,
		unsafe,
		attempts,
	);
}

function tooDeepOutcome(status: number, unsafe: boolean, attempts: number): ApiResult {
	return refusedAnswer(
		'RESPONSE_TOO_DEEP',
		`The service answered HTTP ${status} with JSON nested deeper than ${MAX_JSON_DEPTH} levels; the answer was not read`,
		'No answer of the campaign API nests that deep: check the Base URL in the Campaign API credential.',
		status,
		unsafe,
		attempts,
	);
}

function networkOutcome(networkCode: string, unsafe: boolean, attempts: number): ApiResult {
	const unknown = unsafe && !NEVER_SENT.has(networkCode);
	const words = NETWORK_WORDS[networkCode] ?? 'the connection failed';
	return {
		code: networkCode,
		info: {
			kind: unknown ? 'deliveryUnknown' : 'transient',
			message: `Could not get an answer from the campaign service: ${words}`,
			hint: unknown
				? 'The message may or may not have been sent; check in the service before sending again.'
				: 'Check the Base URL and the network, or raise the Timeout option if the service is slow.',
		},
		processValue: undefined,
		body: undefined,
		deliveryUnknown: unknown,
		attempts,
	};
}

/** What an HTTP error status without an envelope means. */
function statusInfo(status: number, maybeDelivered: boolean): CodeInfo {
	if (status === 429 || status >= 500) {
		return {
			kind: maybeDelivered ? 'deliveryUnknown' : 'transient',
			message: `The service answered HTTP ${status} (${status === 429 ? 'too many requests' : 'server error'}) without a result code`,
			hint: maybeDelivered
				? 'The message may or may not have been sent; check in the service before sending again.'
				: 'Try again later.',
		};
	}
	if (status === 401 || status === 403) {
		return {
			kind: 'account',
			message: `The service refused the request (HTTP ${status})`,
			hint: 'Check the API key in the Campaign API credential.',
		};
	}
	if (status === 404) {
		return {
			kind: 'account',
			message: 'Nothing answers at this address (HTTP 404)',
			hint: 'Check the Base URL in the Campaign API credential.',
		};
	}
	return {
		kind: 'rejected',
		message: `The service answered HTTP ${status} without a result code`,
		hint: 'Check the parameters of the node.',
	};
}
