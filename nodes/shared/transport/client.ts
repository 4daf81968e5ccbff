/**
 * The one client of the package: every HTTP call of every node goes through
 * `CampaignClient.call`, which ties the credential rules, the classifier and the retry policy
 * together and keeps the API key out of everything it hands back.
 */
import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	STOPPED_CODE,
	STOPPED_INFO,
	describeCode,
	withOwnDescription,
	withServiceCode,
} from '../codes';
import { isObject } from '../values';
import { CREDENTIAL_TYPE, checkApiKey, normalizeBaseUrl } from './credentials';
import { close, readBody } from './body';
import { bounded, idleLimit, monotonicNow, type AttemptBounds, type EndedBy } from './deadline';
import { cancelSignalOf, isStopped, pause } from './pause';
import type { ApiCall, ApiResult, RawOutcome, Redactor } from './call';
import { networkCodeOf } from './network';
import { MAX_RESPONSE_BYTES, requestOptions } from './call';
import { classify } from './classify';
import { backoffDelay, retryStep } from './retry';

/** How requests are retried and timed out: read from the node's options (shared/options.ts holds the bounds and defaults). */
export interface TransportSettings {
	/** Extra attempts after the first one for a transient failure. */
	maxRetries: number;
	/** Base of the exponential backoff, in milliseconds. */
	retryDelayMs: number;
	/** Time after which an attempt without its whole answer (headers and body) is abandoned, in milliseconds. */
	timeoutMs: number;
}

/** An attempt ended by a stopped execution, after the request was handed to n8n. */
const STOPPED = 'stopped';

type Response = { statusCode: number; headers?: Record<string, unknown>; body: unknown };

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class CampaignClient implements Redactor {
	private constructor(
		private readonly ctx: IExecuteFunctions,
		readonly baseUrl: string,
		private readonly secret: string,
		readonly memberApiVersion: 'any' | 'v1' | 'v2',
		readonly settings: TransportSettings,
		/** The execution's cancel signal: a stopped execution starts no request and ends its pauses. */
		readonly signal: AbortSignal | undefined,
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
			cancelSignalOf(ctx),
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

	/** Sends one call, retrying as its repeatability allows. Throws for whole-call failures only. */
	async call(call: ApiCall): Promise<ApiResult> {
		const policy = {
			repeatability: call.repeatability ?? 'idempotent',
			retryUnknownDelivery: call.retryUnknownDelivery,
			maxRetries: this.settings.maxRetries,
		};
		// Whether an earlier attempt of this call may have reached the service.
		let mayHaveLeft = false;
		for (let attempt = 1; ; attempt++) {
			if (isStopped(this.signal)) return this.stopped(call, attempt - 1, mayHaveLeft);
			const raw = await this.once(call);
			if (raw === STOPPED) return this.stopped(call, attempt, true);
			const result = classify(call, raw, attempt, this);
			mayHaveLeft = mayHaveLeft || result.deliveryUnknown;
			const step = retryStep(result.info.kind, policy, attempt);
			if (step === 'retry') {
				// A stopped execution ends the pause at once; the loop then starts nothing more.
				await pause(
					backoffDelay(
						attempt,
						this.settings.retryDelayMs,
						raw.headers?.['retry-after'],
						Math.random(),
					),
					this.signal,
				);
				continue;
			}
			// A send an earlier attempt of which may have reached the service is never a certain
			// failure, whatever the last attempt said: its delivery is unknown.
			const doubt = call.repeatability === 'unsafe' && mayHaveLeft && result.code !== '0';
			if (step === 'throw') {
				const error = this.error(result, call);
				if (doubt) error.context.deliveryUnknown = true;
				throw error;
			}
			return doubt ? { ...result, deliveryUnknown: true } : result;
		}
	}

	/** A whole-call error for a result, with the code, plain words and what to do; never the key. */
	error(result: ApiResult, call: Pick<ApiCall, 'method' | 'path' | 'itemIndex'>): NodeApiError {
		const { info, code } = result;
		const tries = result.attempts > 1 ? ` (after ${result.attempts} attempts)` : '';
		// n8n replaces a message that names a network code (ECONNREFUSED...) by its own generic
		// text, so a network code goes to the description and the message keeps our words.
		const network = /^E[A-Z_]+$/.test(code);
		const label = network ? '' : ` (code ${code})`;
		const networkDetail = network ? ` Network error: ${code}.` : '';
		const described = (said: string) =>
			this.redact(
				`${info.hint}${said}${networkDetail} Request: ${call.method} ${call.path}.`.trim(),
			);
		const error = new NodeApiError(
			this.ctx.getNode(),
			{ request: `${call.method} ${call.path}` } as JsonObject,
			{
				message: this.redact(`${info.message}${label}${tries}`),
				description: described(
					result.serviceMessage ? ` The service said: ${result.serviceMessage}` : '',
				),
				httpCode: result.httpStatus === undefined ? undefined : String(result.httpStatus),
				itemIndex: call.itemIndex,
			},
		);
		// A model is told the package's words alone (tool.ts), never the service's text.
		if (result.serviceMessage) withOwnDescription(error, described(''));
		return withServiceCode(error, code);
	}

	/**
	 * A call ended by a stopped execution. A send that may have reached the service is a result
	 * whose delivery is unknown (never a certain failure: a Deduplication Key stays kept); anything
	 * else stops the node (n8n discards a stopped execution's output).
	 */
	private stopped(call: ApiCall, attempts: number, mayHaveLeft: boolean): ApiResult {
		if (call.repeatability === 'unsafe' && mayHaveLeft) {
			return {
				code: STOPPED_CODE,
				info: describeCode(STOPPED_CODE),
				processValue: undefined,
				body: undefined,
				deliveryUnknown: true,
				attempts,
			};
		}
		throw this.error(
			{
				code: STOPPED_CODE,
				info: STOPPED_INFO,
				processValue: undefined,
				body: undefined,
				deliveryUnknown: false,
				attempts,
			},
			call,
		);
	}

	/** What an attempt ended early by its bounds (deadline.ts) gave. */
	private endedOutcome(endedBy: EndedBy): RawOutcome | typeof STOPPED {
		return endedBy === 'stopped' ? STOPPED : { networkCode: 'ETIMEDOUT' };
	}

	/** One attempt of `call`: its request sent, its answer read within its bounds. */
	private async once(call: ApiCall): Promise<RawOutcome | typeof STOPPED> {
		this.refuseBrokenQuery(call);
		const options = requestOptions(call, this.baseUrl, this.secret, this.settings.timeoutMs);
		// One deadline for the whole answer: n8n's request helper times the headers only.
		const bounds = { deadline: monotonicNow() + this.settings.timeoutMs, signal: this.signal };
		try {
			const request = this.ctx.helpers.httpRequestWithAuthentication.call(
				this.ctx,
				CREDENTIAL_TYPE,
				options,
			) as Promise<Response>;
			const answered = await bounded(request, bounds);
			if ('endedBy' in answered) {
				// An answer that comes after all is closed unread.
				void request.then(
					(late) => close(late.body),
					() => undefined,
				);
				return this.endedOutcome(answered.endedBy);
			}
			return await this.readAnswer(answered.value, bounds);
		} catch (error) {
			return this.failedAttempt(call, error);
		}
	}

	/** Half of a UTF-16 pair has no UTF-8 form: in a URL it would arrive as another character. */
	private refuseBrokenQuery(call: ApiCall): void {
		for (const [name, value] of Object.entries(call.qs ?? {})) {
			if (!UNPAIRED_SURROGATE.test(value)) continue;
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

	/** The body of an answer, read up to MAX_RESPONSE_BYTES within the deadline and the idle limit. */
	private async readAnswer(
		response: Response,
		bounds: Pick<AttemptBounds, 'deadline' | 'signal'>,
	): Promise<RawOutcome | typeof STOPPED> {
		let lastByte = monotonicNow();
		const read = await bounded(
			readBody(response.body, MAX_RESPONSE_BYTES, () => (lastByte = monotonicNow())),
			{ ...bounds, idleMs: idleLimit(this.settings.timeoutMs), lastActivity: () => lastByte },
		);
		if ('endedBy' in read) {
			close(response.body); // the connection closes: nothing keeps it open
			return this.endedOutcome(read.endedBy);
		}
		return { status: response.statusCode, headers: response.headers, ...read.value };
	}

	/** A request that threw: a stopped execution, a network failure, or an error never retried. */
	private failedAttempt(call: ApiCall, error: unknown): RawOutcome | typeof STOPPED {
		// Aborted by the execution's cancel signal (ERR_CANCELED), possibly after it was sent.
		if (isStopped(this.signal)) return STOPPED;
		const networkCode = networkCodeOf(error);
		if (networkCode !== undefined) return { networkCode };
		// Not a network failure (a missing credential, a broken request): never retried.
		const message =
			isObject(error) && typeof error.message === 'string' ? error.message : 'Request failed';
		throw new NodeApiError(this.ctx.getNode(), { message: this.redact(message) } as JsonObject, {
			message: this.redact(message),
			itemIndex: call.itemIndex,
		});
	}
}
