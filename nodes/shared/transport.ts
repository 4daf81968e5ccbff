/**
 * The one transport of the package: every HTTP call of every node goes through
 * `CampaignClient.call`. It owns the base URL rules, the envelope parsing, the mapping of
 * result codes to errors, the retry policy and the redaction of the API key.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { CodeInfo } from './codes';
import { describeCode } from './codes';

export const CREDENTIAL_TYPE = 'campaignApi';

export interface TransportSettings {
	/** Extra attempts after the first one for a transient failure. */
	maxRetries: number;
	/** Base of the exponential backoff, in milliseconds. */
	retryDelayMs: number;
	/** Time after which a request that has not answered is abandoned, in milliseconds. */
	timeoutMs: number;
}

export const DEFAULT_TRANSPORT: TransportSettings = { maxRetries: 3, retryDelayMs: 1000, timeoutMs: 30000 };

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Upper bound of one backoff pause, whatever the attempt number or Retry-After says. */
export const MAX_BACKOFF_MS = 30000;

/**
 * The pause before retry number `attempt` (1 for the first retry): exponential from `baseMs`
 * (base, 2 x base, 4 x base...), with "equal jitter" (half of it fixed, half random, `random` in
 * [0, 1)) so that many clients do not retry in step; at least a Retry-After of whole seconds,
 * and never more than MAX_BACKOFF_MS.
 */
export function backoffDelay(attempt: number, baseMs: number, retryAfterHeader: unknown, random: number): number {
	const exponential = baseMs * 2 ** (attempt - 1);
	const jittered = exponential * (0.5 + random / 2);
	const retryAfter = Number(retryAfterHeader);
	const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.max(jittered, retryAfter * 1000) : jittered;
	return Math.min(wait, MAX_BACKOFF_MS);
}

/**
 * `idempotent`: repeating the request cannot do harm (reads, upserts, deletes); it is retried
 * on every transient failure. `unsafe`: repeating it could duplicate a side effect (a send);
 * it is retried only when the request provably never reached the service, unless the caller
 * explicitly accepts duplicates with `retryUnknownDelivery`.
 */
export type Safety = 'idempotent' | 'unsafe';

export interface ApiCall {
	method: IHttpRequestMethods;
	path: string;
	qs?: Record<string, string>;
	body?: unknown;
	safety?: Safety;
	retryUnknownDelivery?: boolean;
	/** `optional`: a 2xx answer without an envelope counts as success (the send's body is "not shown"). */
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
	/** The service's own message, if it sent one (redacted). */
	serviceMessage?: string;
	/** True when a send may or may not have gone out. */
	deliveryUnknown: boolean;
	attempts: number;
}

/**
 * The plain words for a result (the transport's: they also cover answers without a code, an HTTP
 * status or a timeout), with the service's own message when it adds something.
 */
export function resultWords(result: Pick<ApiResult, 'info' | 'serviceMessage'>): string {
	const { info, serviceMessage } = result;
	return serviceMessage && serviceMessage !== info.message ? `${info.message} (${serviceMessage})` : info.message;
}

/**
 * Passing-fault codes that say the service did not process the request at all ("a process is
 * already in progress"): the only ones a send may repeat without risking a second message.
 */
const NOT_PROCESSED_CODES = new Set(['-1005']);

/** Network errors after which the request provably never reached the service. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** Socket-level failures that are worth another attempt (anything else is not retried). */
const NETWORK_CODES = new Set([
	...NEVER_SENT,
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EPROTO',
]);

const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be resolved',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	ECONNRESET: 'the connection was closed before an answer arrived',
	ECONNABORTED: 'the request timed out',
	ETIMEDOUT: 'the request timed out',
	EPIPE: 'the connection was closed while sending',
};

interface RawOutcome {
	status?: number;
	headers?: Record<string, unknown>;
	text?: string;
	networkCode?: string;
}

interface Envelope {
	code?: string;
	processValue: unknown;
	message?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A numeric code given as a number or a numeric string; anything else is not a code. */
export function toCode(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isInteger(value)) return String(value);
	if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return String(Number(value));
	return undefined;
}

/**
 * Reads the envelope tolerantly: `processCode` as number or numeric string; the send's body
 * (shape not shown) may instead carry `code` or `resultCode` at the top level. `httpStatus.code`
 * (or its `col` misspelling) is informational only and never decides.
 */
export function readEnvelope(body: unknown): Envelope | undefined {
	if (!isObject(body)) return undefined;
	const code = toCode(body.processCode) ?? toCode(body.resultCode) ?? toCode(body.code);
	if (code === undefined) return undefined;
	const messageField = [body.message, body.processMessage, body.resultMessage, body.errorMessage].find(
		(m) => typeof m === 'string' && m.trim() !== '',
	) as string | undefined;
	return { code, processValue: body.processValue, message: messageField };
}

/** The HTTP status of the envelope (number, string, or the `col` misspelling), for messages only. */
export function envelopeHttpStatus(body: unknown): number | undefined {
	if (!isObject(body) || !isObject(body.httpStatus)) return undefined;
	const raw = body.httpStatus.code ?? body.httpStatus.col;
	const code = toCode(raw);
	return code === undefined ? undefined : Number(code);
}

/** Deeper than any answer of the service: such JSON is not read (walking it could exhaust the stack). */
const MAX_JSON_DEPTH = 64;

/** Whether a parsed value nests deeper than `limit` arrays/objects (walked without recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 0]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop() as [unknown, number];
		if (typeof current !== 'object' || current === null) continue;
		if (depth >= limit) return true;
		for (const child of Object.values(current)) stack.push([child, depth + 1]);
	}
	return false;
}

function parseJson(text: string | undefined): unknown {
	if (text === undefined || text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Normalises and checks a base URL: https, or http only for this machine. */
export function normalizeBaseUrl(raw: unknown, node: INode): string {
	const text = typeof raw === 'string' ? raw.trim() : '';
	const fail = (rule: string) =>
		new NodeOperationError(node, `Base URL in the Campaign API credential ${rule}`, {
			description: 'Example: https://api.example.com',
		});
	if (text === '') throw fail('is empty');
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw fail('is not a valid URL');
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail('must start with https://');
	const local = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname);
	if (url.protocol === 'http:' && !local) throw fail('must use https (http is allowed only for localhost)');
	if (url.username !== '' || url.password !== '') throw fail('must not contain a user name or password');
	if (url.search !== '' || url.hash !== '') throw fail('must not contain a query (?) or a fragment (#)');
	// Checked on the text as typed: URL parsing has already resolved "a/../b" (and "%2e%2e") away.
	const typedPath = text.replace(/^[^:]*:[/\\]*[^/\\?#]*/, '').split(/[?#]/)[0];
	if (typedPath.split(/[/\\]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment)))
		throw fail('must not contain "." or ".." path segments');
	const path = url.pathname.replace(/\/+$/, '');
	return `${url.protocol}//${url.host}${path}`;
}

/** The key goes into a header: it must be present and hold no line break or control character. */
export function checkApiKey(raw: unknown, node: INode): void {
	if (typeof raw !== 'string' || raw.trim() === '') {
		throw new NodeOperationError(node, 'API Key in the Campaign API credential is empty', {
			description: 'Keys are issued in the service site settings, under key management.',
		});
	}
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f]/.test(raw)) {
		throw new NodeOperationError(
			node,
			'API Key in the Campaign API credential contains a line break or another control character',
			{ description: 'Paste the key again without surrounding line breaks.' },
		);
	}
	// A header carries bytes: any other character (Korean, an emoji, U+2028) would be sent mangled.
	if (/[^\u0020-\u007e]/.test(raw)) {
		throw new NodeOperationError(
			node,
			'API Key in the Campaign API credential contains a character that cannot be sent in an HTTP header (only ASCII letters, digits and symbols)',
			{ description: 'Copy the key again from the service site settings, key management.' },
		);
	}
}

export class CampaignClient {
	private constructor(
		private readonly ctx: IExecuteFunctions,
		readonly baseUrl: string,
		private readonly secret: string,
		readonly memberApiVersion: 'any' | 'v1' | 'v2',
		readonly settings: TransportSettings,
	) {}

	/** Reads the credential once per execution and checks the base URL before anything is sent. */
	static async create(ctx: IExecuteFunctions, settings: TransportSettings): Promise<CampaignClient> {
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
		const baseUrl = normalizeBaseUrl(credentials.baseUrl, ctx.getNode());
		checkApiKey(credentials.apiKey, ctx.getNode());
		const version = credentials.memberApiVersion;
		return new CampaignClient(
			ctx,
			baseUrl,
			typeof credentials.apiKey === 'string' ? credentials.apiKey : '',
			version === 'v1' || version === 'v2' ? version : 'any',
			settings,
		);
	}

	/** Removes the API key from any text that may reach an item, an error or a log. */
	redact(text: string): string {
		if (this.secret.length < 4) return text;
		return text.split(this.secret).join('[redacted]');
	}

	/**
	 * Removes the API key from every text of a parsed answer (values and field names), so that
	 * nothing the service echoes can carry it into an item, whichever field a node copies.
	 */
	private redactAll(value: unknown): unknown {
		if (typeof value === 'string') return this.redact(value);
		if (Array.isArray(value)) return value.map((entry) => this.redactAll(entry));
		if (isObject(value)) {
			const out: Record<string, unknown> = {};
			for (const [key, entry] of Object.entries(value)) {
				Object.defineProperty(out, this.redact(key), { value: this.redactAll(entry), enumerable: true, writable: true, configurable: true });
			}
			return out;
		}
		return value;
	}

	/** Sends one call, retrying as its safety allows. Throws for whole-call failures only. */
	async call(call: ApiCall): Promise<ApiResult> {
		const safety = call.safety ?? 'idempotent';
		for (let attempt = 1; ; attempt++) {
			const raw = await this.once(call);
			const result = this.classify(call, raw, attempt);
			const kind = result.info.kind;
			const retryable =
				kind === 'transient' ||
				(kind === 'deliveryUnknown' && (safety === 'idempotent' || call.retryUnknownDelivery === true));
			if (retryable && attempt <= this.settings.maxRetries) {
				await sleep(this.backoff(attempt, raw));
				continue;
			}
			if (kind === 'account') throw this.error(result, call);
			if (kind === 'transient' || (kind === 'deliveryUnknown' && safety === 'idempotent')) {
				throw this.error(result, call);
			}
			return result;
		}
	}

	/** A whole-call error for a result, with the code, plain words and what to do; never the key. */
	error(result: ApiResult, call: Pick<ApiCall, 'method' | 'path' | 'itemIndex'>): NodeApiError {
		const { info, code } = result;
		const tries = result.attempts > 1 ? ` (after ${result.attempts} attempts)` : '';
		const detail = result.serviceMessage ? ` The service said: ${result.serviceMessage}` : '';
		// n8n replaces a message that names a network code (ECONNREFUSED...) by its own generic
		// text, so a network code goes to the description and the message keeps our words.
		const network = /^E[A-Z_]+$/.test(code);
		const label = network ? '' : ` (code ${code})`;
		const networkDetail = network ? ` Network error: ${code}.` : '';
		const error = new NodeApiError(
			this.ctx.getNode(),
			{ campaignCode: code, request: `${call.method} ${call.path}` } as JsonObject,
			{
				message: this.redact(`${info.message}${label}${tries}`),
				description: this.redact(`${info.hint}${detail}${networkDetail} Request: ${call.method} ${call.path}.`.trim()),
				httpCode: result.httpStatus === undefined ? undefined : String(result.httpStatus),
				itemIndex: call.itemIndex,
			},
		);
		error.context.campaignCode = code;
		return error;
	}

	private backoff(attempt: number, raw: RawOutcome): number {
		return backoffDelay(attempt, this.settings.retryDelayMs, raw.headers?.['retry-after'], Math.random());
	}

	private async once(call: ApiCall): Promise<RawOutcome> {
		for (const [name, value] of Object.entries(call.qs ?? {})) {
			// Half of a UTF-16 pair has no UTF-8 form: in a URL it would arrive as another character.
			if (UNPAIRED_SURROGATE.test(value)) {
				throw new NodeOperationError(this.ctx.getNode(), `The value of "${name}" contains a broken character (half of a UTF-16 surrogate pair) that cannot be sent in a URL`, {
					itemIndex: call.itemIndex,
					description: 'Fix the value where it comes from; it was not sent.',
				});
			}
		}
		const options: IHttpRequestOptions = {
			method: call.method,
			url: `${this.baseUrl}${call.path}`,
			qs: call.qs as IDataObject | undefined,
			headers: { Accept: 'application/json' },
			encoding: 'text',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: this.settings.timeoutMs,
		};
		if (call.body !== undefined) {
			// The JSON text as bytes: axios sends them untouched. Given as text with a JSON content type,
			// axios parses it again to check it (a second copy of every row of a 1,000-row body in
			// memory) before sending the same bytes; given as an object, it deep-copies it and drops
			// fields named __proto__ or constructor.
			options.body = Buffer.from(JSON.stringify(call.body), 'utf8');
			options.headers = { ...options.headers, 'Content-Type': 'application/json' };
		}
		try {
			const response = (await this.ctx.helpers.httpRequestWithAuthentication.call(
				this.ctx,
				CREDENTIAL_TYPE,
				options,
			)) as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
			const text =
				typeof response.body === 'string'
					? response.body
					: response.body === undefined || response.body === null
						? ''
						: Buffer.isBuffer(response.body)
							? response.body.toString('utf8')
							: JSON.stringify(response.body);
			return { status: response.statusCode, headers: response.headers, text };
		} catch (error) {
			const networkCode = networkCodeOf(error);
			if (networkCode === undefined) {
				// Not a network failure (a cancelled execution, a missing credential): never retried.
				const message = isObject(error) && typeof error.message === 'string' ? error.message : 'Request failed';
				throw new NodeApiError(this.ctx.getNode(), { message: this.redact(message) } as JsonObject, {
					message: this.redact(message),
					itemIndex: call.itemIndex,
				});
			}
			return { networkCode };
		}
	}

	private classify(call: ApiCall, raw: RawOutcome, attempts: number): ApiResult {
		const unsafe = (call.safety ?? 'idempotent') === 'unsafe';
		if (raw.networkCode !== undefined) {
			const neverSent = NEVER_SENT.has(raw.networkCode);
			const words = NETWORK_WORDS[raw.networkCode] ?? 'the connection failed';
			return {
				code: raw.networkCode,
				info: {
					kind: unsafe && !neverSent ? 'deliveryUnknown' : 'transient',
					message: `Could not get an answer from the campaign service: ${words}`,
					hint:
						unsafe && !neverSent
							? 'The message may or may not have been sent; check in the service before sending again.'
							: 'Check the Base URL and the network, or raise the Timeout option if the service is slow.',
				},
				processValue: undefined,
				body: undefined,
				deliveryUnknown: unsafe && !neverSent,
				attempts,
			};
		}
		const status = raw.status ?? 0;
		const parsed = parseJson(raw.text);
		const tooDeep = parsed !== undefined && nestsDeeperThan(parsed, MAX_JSON_DEPTH);
		// Without any escape (no backslash), every text of the JSON is a piece of the raw text: the
		// key can only be in it if the raw text holds it, so most answers need no second walk.
		const mayHoldKey = this.secret.length >= 4 && raw.text !== undefined && (raw.text.includes(this.secret) || raw.text.includes('\\'));
		const body = tooDeep ? undefined : mayHoldKey ? this.redactAll(parsed) : parsed;
		const envelope = readEnvelope(body);
		if (envelope?.code !== undefined) {
			// The envelope's code decides, whatever the HTTP status (spec 7.2: a v1 failure can come as 503).
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
				serviceMessage: envelope.message === undefined ? undefined : this.redact(envelope.message),
				deliveryUnknown: info.kind === 'deliveryUnknown',
				attempts,
			};
		}
		const base = { httpStatus: status, processValue: undefined, body, attempts };
		if (status >= 200 && status < 300) {
			const empty = raw.text === undefined || raw.text.trim() === '';
			// A processCode that is there but is no code (null, "abc", 0.5) says nothing either way.
			const unreadableCode = isObject(body) && body.processCode !== undefined;
			if (call.envelope === 'optional' && (empty || (body !== undefined && !unreadableCode && !tooDeep))) {
				// The send's answer is "not shown": an empty body or JSON of any shape counts as success.
				return { ...base, code: '0', info: describeCode('0'), deliveryUnknown: false };
			}
			const what = empty
				? 'an empty body'
				: tooDeep
					? `JSON nested deeper than ${MAX_JSON_DEPTH} levels`
					: body === undefined
						? 'a body that is not JSON'
						: unreadableCode
							? `a processCode that is not a code (${(JSON.stringify(body.processCode) ?? '').slice(0, 40)})`
							: 'JSON without a processCode';
			const expected = call.envelope === 'optional' ? 'JSON or an empty body' : 'a JSON envelope with processCode';
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
		let kind: CodeInfo['kind'] = 'rejected';
		let message = `The service answered HTTP ${status} without a result code`;
		let hint = 'Check the parameters of the node.';
		if (status === 429 || status >= 500) {
			kind = maybeDelivered ? 'deliveryUnknown' : 'transient';
			message = `The service answered HTTP ${status} (${status === 429 ? 'too many requests' : 'server error'}) without a result code`;
			hint = maybeDelivered
				? 'The message may or may not have been sent; check in the service before sending again.'
				: 'Try again later.';
		} else if (status === 401 || status === 403) {
			kind = 'account';
			message = `The service refused the request (HTTP ${status})`;
			hint = 'Check the API key in the Campaign API credential.';
		} else if (status === 404) {
			kind = 'account';
			message = 'Nothing answers at this address (HTTP 404)';
			hint = 'Check the Base URL in the Campaign API credential.';
		}
		return { ...base, code: `HTTP_${status}`, info: { kind, message, hint }, deliveryUnknown: maybeDelivered };
	}
}

/**
 * The network error code inside whatever the request helper threw (it wraps the cause), or
 * undefined when the failure is not a network one (then it must not be retried). n8n-workflow
 * before 2.34 drops `cause` from the error the request helper throws; that error still carries
 * the network code in `httpCode` and the original texts in `messages`, so both are read too.
 */
function networkCodeOf(error: unknown): string | undefined {
	const chain: Array<Record<string, unknown>> = [];
	for (let current: unknown = error; isObject(current) && chain.length < 6; current = current.cause) {
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
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(messages)) {
		return /timeout/i.test(messages) || code === 'ETIMEDOUT' ? 'ETIMEDOUT' : 'ECONNRESET';
	}
	if (code !== undefined && NETWORK_CODES.has(code)) return code;
	if (/socket hang up|aborted/i.test(messages)) return 'ECONNRESET';
	return undefined;
}
