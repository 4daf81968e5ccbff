/**
 * The one client of the package: every HTTP call of every node goes through
 * `CampaignClient.call`, which ties the credential rules, the classifier and the retry policy
 * together and keeps the API key out of everything it hands back.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { isObject } from '../values';
import { CREDENTIAL_TYPE, checkApiKey, normalizeBaseUrl } from './credentials';
import { readBody } from './body';
import type { ApiCall, ApiResult, RawOutcome, Redactor } from './outcome';
import { networkCodeOf } from './network';
import { MAX_RESPONSE_BYTES, classify } from './outcome';
import { backoffDelay, retryStep } from './retry';

/** How requests are retried and timed out: read from the node's options (shared/options.ts holds the bounds and defaults). */
export interface TransportSettings {
	/** Extra attempts after the first one for a transient failure. */
	maxRetries: number;
	/** Base of the exponential backoff, in milliseconds. */
	retryDelayMs: number;
	/** Time after which a request that has not answered is abandoned, in milliseconds. */
	timeoutMs: number;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class CampaignClient implements Redactor {
	private constructor(
		private readonly ctx: IExecuteFunctions,
		readonly baseUrl: string,
		private readonly secret: string,
		readonly memberApiVersion: 'any' | 'v1' | 'v2',
		readonly settings: TransportSettings,
	) {}

	/** Reads the credential once per execution and checks the base URL before anything is sent. */
	static async create(
		ctx: IExecuteFunctions,
		settings: TransportSettings,
	): Promise<CampaignClient> {
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

	text(text: string): string {
		return this.redact(text);
	}

	/**
	 * Without any escape (no backslash), every text of the JSON is a piece of the raw text: the
	 * key can only be in it if the raw text holds it, so most answers need no walk.
	 */
	body(parsed: unknown, rawText: string | undefined): unknown {
		const mayHoldKey =
			this.secret.length >= 4 &&
			rawText !== undefined &&
			(rawText.includes(this.secret) || rawText.includes('\\'));
		return mayHoldKey ? this.redactAll(parsed) : parsed;
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
				Object.defineProperty(out, this.redact(key), {
					value: this.redactAll(entry),
					enumerable: true,
					writable: true,
					configurable: true,
				});
			}
			return out;
		}
		return value;
	}

	/** Sends one call, retrying as its safety allows. Throws for whole-call failures only. */
	async call(call: ApiCall): Promise<ApiResult> {
		const policy = {
			safety: call.safety ?? 'idempotent',
			retryUnknownDelivery: call.retryUnknownDelivery,
			maxRetries: this.settings.maxRetries,
		};
		for (let attempt = 1; ; attempt++) {
			const raw = await this.once(call);
			const result = classify(call, raw, attempt, this);
			const step = retryStep(result.info.kind, policy, attempt);
			if (step === 'retry') {
				await sleep(
					backoffDelay(
						attempt,
						this.settings.retryDelayMs,
						raw.headers?.['retry-after'],
						Math.random(),
					),
				);
				continue;
			}
			if (step === 'throw') throw this.error(result, call);
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
				description: this.redact(
					`${info.hint}${detail}${networkDetail} Request: ${call.method} ${call.path}.`.trim(),
				),
				httpCode: result.httpStatus === undefined ? undefined : String(result.httpStatus),
				itemIndex: call.itemIndex,
			},
		);
		error.context.campaignCode = code;
		return error;
	}

	private async once(call: ApiCall): Promise<RawOutcome> {
		for (const [name, value] of Object.entries(call.qs ?? {})) {
			// Half of a UTF-16 pair has no UTF-8 form: in a URL it would arrive as another character.
			if (UNPAIRED_SURROGATE.test(value)) {
				throw new NodeOperationError(
					this.ctx.getNode(),
					`The value of "${name}" contains a broken character (half of a UTF-16 surrogate pair) that cannot be sent in a URL`,
					{
						itemIndex: call.itemIndex,
						description: 'Fix the value where it comes from; it was not sent.',
					},
				);
			}
		}
		const options: IHttpRequestOptions = {
			method: call.method,
			url: `${this.baseUrl}${call.path}`,
			qs: call.qs as IDataObject | undefined,
			headers: { Accept: 'application/json' },
			// A stream, read here up to MAX_RESPONSE_BYTES (body.ts): never an unbounded buffer.
			encoding: 'stream',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: this.settings.timeoutMs,
			// Never follow a redirect: n8n's request helper would carry the API key (and a send's
			// body) to wherever it points. A 3xx is a failure that names that host (outcome.ts).
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
		try {
			const response = (await this.ctx.helpers.httpRequestWithAuthentication.call(
				this.ctx,
				CREDENTIAL_TYPE,
				options,
			)) as {
				statusCode: number;
				headers?: Record<string, unknown>;
				body: unknown;
			};
			return {
				status: response.statusCode,
				headers: response.headers,
				...(await readBody(response.body, MAX_RESPONSE_BYTES)),
			};
		} catch (error) {
			const networkCode = networkCodeOf(error);
			if (networkCode === undefined) {
				// Not a network failure (a cancelled execution, a missing credential): never retried.
				const message =
					isObject(error) && typeof error.message === 'string' ? error.message : 'Request failed';
				throw new NodeApiError(
					this.ctx.getNode(),
					{ message: this.redact(message) } as JsonObject,
					{
						message: this.redact(message),
						itemIndex: call.itemIndex,
					},
				);
			}
			return { networkCode };
		}
	}
}
