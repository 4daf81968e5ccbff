/**
 * What a call of the service is and what it gives: the request (`ApiCall`), what one attempt
 * gave (`RawOutcome`, with the most an answer may weigh), and what it means once classified
 * (`ApiResult`, classify.ts), with the key removed from every text (`Redactor`), and the options
 * n8n's request helper gets for a call.
 */
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import type { CodeInfo } from '../codes';
import type { Repeatability } from './retry';

export interface ApiCall {
	method: IHttpRequestMethods;
	path: string;
	qs?: Record<string, string>;
	body?: unknown;
	repeatability?: Repeatability;
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
 * The options of n8n's request helper for `call` (`timeoutMs` bounds the headers). The one place
 * the API key is put on a request, and only on a URL built here from the Base URL: the credential
 * has no `authenticate`, so n8n adds the key to nothing (README, "Credentials").
 */
export function requestOptions(
	call: ApiCall,
	baseUrl: string,
	apiKey: string,
	timeoutMs: number,
): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: call.method,
		url: `${baseUrl}${call.path}`,
		qs: call.qs as IDataObject | undefined,
		headers: { Accept: 'application/json', 'x-api-key': apiKey },
		// A stream, read here up to MAX_RESPONSE_BYTES (body.ts): never an unbounded buffer.
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		// Never follow a redirect: n8n's request helper would carry the API key (and a send's
		// body) to wherever it points. A 3xx is a failure that names that host (classify.ts).
		disableFollowRedirect: true,
	};
	if (call.body !== undefined) {
		// The JSON text as bytes: axios sends them untouched. Given as text with a JSON content type,
		// axios parses it again to check it (a second copy of every row of a 1,000-row body in
		// memory) before sending the same bytes; given as an object, it deep-copies it and drops
		// fields named __proto__ or constructor.
		options.body = Buffer.from(JSON.stringify(call.body), 'utf8');
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	return options;
}
