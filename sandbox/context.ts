/**
 * What a route handler gets: the request as received, the options in force and the state.
 */
import type { AccountStatus, FaultConfig, SandboxOptions, SandboxState } from './types';

export interface ResolvedOptions {
	apiKey: string;
	accounts: Record<string, AccountStatus>;
	latencyMs: number;
	stringCodes: boolean;
	pagingEnd: 'null' | 'absent' | 'emptyString' | 'emptyPage';
	pageSize: number;
	errorHttpStatus: 'ok' | 'mapped';
	v1ColMisspelling: boolean;
	v2FailureShape: 'array' | 'object';
	triggerResponse: 'envelope' | 'flat' | 'empty';
	faults?: FaultConfig;
}

export const DEFAULT_API_KEY = 'sandbox-demo-key';

/** The service's documented page limit (spec 4.1 rule 1, section 8). */
export const MAX_PAGE_SIZE = 1000;

/** Member ids / rows per write or delete request (spec section 8). */
export const MAX_ROWS = 1000;

export function defaultOptions(): ResolvedOptions {
	return {
		apiKey: DEFAULT_API_KEY,
		accounts: {},
		latencyMs: 0,
		stringCodes: false,
		pagingEnd: 'null',
		pageSize: MAX_PAGE_SIZE,
		errorHttpStatus: 'ok',
		v1ColMisspelling: false,
		v2FailureShape: 'array',
		triggerResponse: 'envelope',
		faults: undefined,
	};
}

/**
 * Merges `partial` over `base`. A key present with the value `undefined` restores that option's
 * default (for `faults`: no faults). `port` is only used at start and ignored here.
 */
export function mergeOptions(
	base: ResolvedOptions,
	partial: Partial<SandboxOptions>,
): ResolvedOptions {
	const defaults = defaultOptions();
	const next: ResolvedOptions = { ...base };
	const assign = <K extends keyof ResolvedOptions>(key: K): void => {
		if (!(key in partial)) return;
		const value = (partial as Partial<ResolvedOptions>)[key];
		next[key] = (value === undefined ? defaults[key] : value) as ResolvedOptions[K];
	};
	(Object.keys(defaults) as Array<keyof ResolvedOptions>).forEach(assign);
	// The page size is clamped to the documented maximum: the sandbox never serves more than the service would.
	next.pageSize = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(next.pageSize) || MAX_PAGE_SIZE));
	next.latencyMs = Math.max(0, next.latencyMs || 0);
	return next;
}

/**
 * Paging cursors. `nextPageSeq` is an opaque number handed out by the sandbox (not an offset, not a
 * page number) so that a client has to pass back exactly what it received. Tokens stay valid until
 * reset(); an unknown token is answered with -9997.
 */
export class CursorStore {
	private static readonly FIRST_TOKEN = 100001;
	private next = CursorStore.FIRST_TOKEN;
	private readonly cursors = new Map<number, { offset: number; memberId?: string }>();

	issue(offset: number, memberId?: string): number {
		const token = this.next++;
		this.cursors.set(token, { offset, memberId });
		return token;
	}

	get(token: number): { offset: number; memberId?: string } | undefined {
		return this.cursors.get(token);
	}

	clear(): void {
		this.cursors.clear();
		this.next = CursorStore.FIRST_TOKEN;
	}
}

export interface RequestContext {
	method: string;
	/** URL path without query; a trailing slash is removed. */
	path: string;
	/** First value of each query parameter; a bare `?delete` gives `{ delete: '' }`. */
	query: Record<string, string>;
	/** Lower-cased header names, raw values (including the api key). */
	headers: Record<string, string>;
	rawBody: string;
	options: ResolvedOptions;
	state: SandboxState;
	cursors: CursorStore;
	/** 'col' on v1 member save/delete responses when v1ColMisspelling is on. */
	statusField: 'code' | 'col';
}

export type ParsedBody =
	| { kind: 'empty' }
	| { kind: 'invalid'; raw: string }
	| { kind: 'json'; value: unknown };

/**
 * The last body parsed: the request log and the route of one request read the same body, and a
 * 1,000-row body is then parsed once, not twice. Handlers only read what they are given.
 */
let lastParsed: { raw: string; parsed: ParsedBody } | undefined;

/** A body of only whitespace counts as empty. */
export function parseBody(raw: string): ParsedBody {
	if (lastParsed !== undefined && lastParsed.raw === raw) return lastParsed.parsed;
	let parsed: ParsedBody;
	if (raw.trim() === '') parsed = { kind: 'empty' };
	else {
		try {
			parsed = { kind: 'json', value: JSON.parse(raw) as unknown };
		} catch {
			parsed = { kind: 'invalid', raw };
		}
	}
	lastParsed = { raw, parsed };
	return parsed;
}

/** `application/json`, with or without parameters such as `; charset=utf-8`, any case. */
export function isJsonContentType(value: string | undefined): boolean {
	if (!value) return false;
	return value.split(';')[0].trim().toLowerCase() === 'application/json';
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
