/**
 * The classifier, pure: what one attempt gave (an HTTP answer, or the error the request
 * helper threw) in, what it means out (success, a row rejection, an account failure, a passing
 * fault, a delivery that may have happened), with plain words (docs/service-rules.md#codes).
 */
import type { CodeInfo } from '../codes';
import { cutServiceText, describeCode, serviceWords } from '../codes';
import { isObject } from '../values';
import { MAX_JSON_DEPTH, parseJson, readEnvelope, textNestsDeeperThan } from './envelope';
import { NETWORK_WORDS, NEVER_SENT } from './network';
import type { ApiCall, ApiResult, RawOutcome, Redactor } from './call';
import { MAX_RESPONSE_BYTES } from './call';

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

/** Classifies one attempt of `call`: a network failure, a redirect, a body too large or too deep, an envelope, or an answer without one. */
export function classify(
	call: Pick<ApiCall, 'repeatability' | 'envelope'>,
	raw: RawOutcome,
	attempts: number,
	redactor: Redactor,
): ApiResult {
	const unsafe = (call.repeatability ?? 'idempotent') === 'unsafe';
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
	if (envelope !== undefined)
		return envelopeOutcome(envelope, { status, body, unsafe, attempts }, redactor);
	const base = { httpStatus: status, processValue: undefined, body, attempts };
	if (status >= 200 && status < 300) return noEnvelopeOutcome(call, raw.text, base, unsafe);
	const maybeDelivered = unsafe && status >= 500;
	return {
		...base,
		code: `HTTP_${status}`,
		info: statusInfo(status, maybeDelivered),
		deliveryUnknown: maybeDelivered,
	};
}

/** What one attempt answered besides its envelope. */
interface Answered {
	status: number;
	body: unknown;
	unsafe: boolean;
	attempts: number;
}

/** An answer with an envelope: its code decides, whatever the HTTP status (docs/service-rules.md#envelope). */
function envelopeOutcome(
	envelope: NonNullable<ReturnType<typeof readEnvelope>>,
	{ status, body, unsafe, attempts }: Answered,
	redactor: Redactor,
): ApiResult {
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
			envelope.message === undefined ? undefined : cutServiceText(redactor.text(envelope.message)),
		deliveryUnknown: info.kind === 'deliveryUnknown',
		attempts,
	};
}

/**
 * A 2xx answer without an envelope: a success for a call whose envelope is optional (the send's
 * answer is not documented), else an unreadable answer, whose delivery is unknown for a send.
 */
function noEnvelopeOutcome(
	call: Pick<ApiCall, 'envelope'>,
	text: string | undefined,
	base: Pick<ApiResult, 'httpStatus' | 'processValue' | 'body' | 'attempts'>,
	unsafe: boolean,
): ApiResult {
	const { httpStatus: status, body } = base;
	const empty = text === undefined || text.trim() === '';
	// A processCode that is there but is no code (null, "abc", 0.5) says nothing either way.
	const unreadableCode = isObject(body) && body.processCode !== undefined;
	if (call.envelope === 'optional' && (empty || (body !== undefined && !unreadableCode))) {
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
	const said = `The service answered HTTP ${status} with ${what} (expected ${expected})`;
	return {
		...base,
		code: `HTTP_${status}`,
		info: unsafe
			? {
					kind: 'deliveryUnknown',
					message: `${said}: the message may or may not have been sent`,
					hint: 'A proxy or the service answered something unreadable; check in the service before sending again.',
				}
			: {
					kind: 'transient',
					message: said,
					hint: 'This is usually a passing fault of the service or a proxy; try again later.',
				},
		deliveryUnknown: unsafe,
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
