/**
 * Response building: the envelope of spec 2.1, the triggered-send shapes of 4.5 / 7.3, and the
 * raw (non-envelope) answers used by the fault injection.
 */
import { STATUS_CODES } from './node';
import type { RequestContext, ResolvedOptions } from './context';

/** A fully serialized answer. Handlers return one; the server writes it (or replaces it by a fault). */
export interface Reply {
	status: number;
	/** Serialized body; '' for an empty body. */
	body: string;
	/** Omitted for an empty body. */
	contentType?: string;
	/** Logged in LoggedRequest.processCode. */
	processCode?: number;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function reasonPhrase(status: number): string {
	return STATUS_CODES[status] ?? 'Unknown';
}

/**
 * HTTP status for a custom-data/member processCode in `errorHttpStatus: 'mapped'` mode.
 * The spec does not show the mapping (7.2: "not shown") except one v1 sample: -1006 with HTTP 503.
 * Decisions:
 * - 0 and 1 (partial success) -> 200.
 * - -1000..-1003 (key/customer) -> 401.
 * - -1004 (limit exceeded) -> 429; -1005 (already in progress) -> 409.
 * - -1006, -1007, -1012, -1013 (member validation) -> 503, generalizing the spec's sample to its
 *   siblings: a 503 that carries an envelope must be read as a rejection, not retried as an outage.
 * - -1009 (delete refused, retry in 30 min) -> 409; -1010 (deletion error) -> 500.
 * - -9997 (data not valid) and -9998 (HTTP related error) -> 400; -9999 (server error) -> 500.
 * - anything else -> 500.
 */
export function mappedHttpStatus(processCode: number): number {
	if (processCode === 0 || processCode === 1) return 200;
	if (processCode <= -1000 && processCode >= -1003) return 401;
	switch (processCode) {
		case -1004:
			return 429;
		case -1005:
		case -1009:
			return 409;
		case -1006:
		case -1007:
		case -1012:
		case -1013:
			return 503;
		case -9997:
		case -9998:
			return 400;
		default:
			return 500;
	}
}

function code(options: ResolvedOptions, value: number): number | string {
	return options.stringCodes ? String(value) : value;
}

function jsonReply(status: number, value: unknown, processCode?: number): Reply {
	return { status, body: JSON.stringify(value), contentType: JSON_TYPE, processCode };
}

/**
 * The envelope of spec 2.1 for the custom-data and member endpoints:
 * `{ httpStatus: { code, reasonPhrase }, processCode, processValue }`.
 * `httpStatus.code` always equals the HTTP status actually sent.
 */
export function envelope(
	ctx: RequestContext,
	processCode: number,
	processValue: unknown = null,
): Reply {
	const status = ctx.options.errorHttpStatus === 'mapped' ? mappedHttpStatus(processCode) : 200;
	const httpStatus = {
		[ctx.statusField]: code(ctx.options, status),
		reasonPhrase: reasonPhrase(status),
	};
	return jsonReply(
		status,
		{ httpStatus, processCode: code(ctx.options, processCode), processValue },
		processCode,
	);
}

/** HTTP status of each triggered-send code (spec 7.3). */
export const TRIGGER_HTTP_STATUS: Readonly<Record<number, number>> = {
	0: 200,
	1101: 400,
	1102: 400,
	1201: 400,
	1202: 400,
	1203: 400,
	1204: 400,
	1401: 401,
	1402: 401,
	1403: 401,
	1404: 401,
	1405: 401,
	2000: 500,
	7001: 400,
	7002: 400,
	7003: 400,
	7004: 400,
	7005: 400,
	7006: 400,
	7007: 400,
	7008: 400,
	7009: 400,
	7010: 400,
	7011: 400,
	7012: 400,
	7997: 400,
	7998: 500,
	7999: 500,
};

const TRIGGER_MESSAGES: Readonly<Record<number, string>> = {
	0: 'Success',
	1101: 'x-api-key header missing',
	1102: 'Content-Type header missing',
	1201: 'Request body empty',
	1202: 'Too many request data rows',
	1203: 'Request format wrong',
	1204: 'Date format not valid',
	1401: 'API key not valid',
	1402: 'No permission to use the API',
	1403: 'Customer not registered',
	1404: 'Customer not approved',
	1405: 'Customer expired',
	2000: 'Internal server error',
	7001: 'Channel link required',
	7002: 'Sender profile blocked',
	7003: 'Sender profile dormant',
	7004: 'Campaign template waiting',
	7005: 'Campaign template review requested',
	7006: 'Campaign template dormant',
	7007: 'Campaign template blocked',
	7008: 'Campaign template suspended',
	7009: 'Campaign template review rejected',
	7010: 'Campaign template expired',
	7011: 'Required send parameter missing',
	7012: 'Phone number length is not 12',
	7997: 'Message unit price not applied; contact the operator',
	7998: 'Messaging provider API call error; contact the operator',
	7999: 'Internal server error',
};

/**
 * A triggered-send answer (spec 4.5: the field-level shape is "not shown"), in the configured
 * `triggerResponse` shape:
 * - 'envelope': `{ httpStatus, processCode, processValue }`; processValue is null on success and the
 *   code's message on failure (decision: a plain string detail).
 * - 'flat': `{ code, message }`.
 * - 'empty': no body, only the HTTP status of 7.3.
 */
export function triggerReply(ctx: RequestContext, triggerCode: number, detail?: string): Reply {
	const status = TRIGGER_HTTP_STATUS[triggerCode] ?? 500;
	const message = detail ?? TRIGGER_MESSAGES[triggerCode] ?? 'Error';
	switch (ctx.options.triggerResponse) {
		case 'empty':
			return { status, body: '', processCode: triggerCode };
		case 'flat':
			return jsonReply(status, { code: code(ctx.options, triggerCode), message }, triggerCode);
		case 'envelope':
		default:
			return jsonReply(
				status,
				{
					httpStatus: { code: code(ctx.options, status), reasonPhrase: reasonPhrase(status) },
					processCode: code(ctx.options, triggerCode),
					processValue: triggerCode === 0 ? null : message,
				},
				triggerCode,
			);
	}
}

/** An HTML error page, as a proxy or load balancer in front of the service would send it. */
export function htmlReply(status: number): Reply {
	const title = `${status} ${reasonPhrase(status)}`;
	return {
		status,
		body: `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>\n`,
		contentType: 'text/html; charset=utf-8',
	};
}

/** Answer for an unknown path (404) or a method the path does not support (405); HTTP level, no processCode. */
export function notRoutedReply(status: 404 | 405): Reply {
	return jsonReply(
		status,
		{
			httpStatus: { code: status, reasonPhrase: reasonPhrase(status) },
			processCode: -9998,
			processValue: null,
		},
		-9998,
	);
}
