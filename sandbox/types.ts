/**
 * Public types of the sandbox: a local HTTP simulator of the campaign service's API (its rules
 * in docs/service-rules.md). The tests, the benchmarks and `npm start` are written against
 * these names: keep them stable.
 */

export type KeyFormat = 'string' | 'number' | 'date';

export type AccountStatus = 'active' | 'unregistered' | 'unapproved' | 'expired' | 'noPermission';

export type FaultKind =
	| 'http500html'
	| 'http502html'
	| 'http503html'
	| 'emptyBody'
	| 'code-9999'
	| 'code-9998'
	| 'code-1005'
	| 'drop'
	| 'hang'
	// The headers and the start of the body, then nothing (stallBody) or one byte every 500 ms (dripBody).
	| 'stallBody'
	| 'dripBody'
	| 'truncatedJson'
	// Triggered-send server errors (docs/service-rules.md#send): HTTP 500 in the configured triggerResponse shape.
	| 'code2000'
	| 'code7998'
	| 'code7999';

export interface FaultConfig {
	/** Picked per faulted request by the seeded PRNG. */
	kinds: FaultKind[];
	/**
	 * 0..1 probability per matching request. Without `firstN` and without `rate` every matching
	 * request is faulted (rate 1). With `firstN` the rate applies inside that window only.
	 */
	rate?: number;
	/** Fault the first N matching requests (then stop). */
	firstN?: number;
	/** Default 1; deterministic sequence. */
	seed?: number;
	/** Which requests may be faulted (default all). `path` is the URL path without the query. */
	match?: (req: { method: string; path: string }) => boolean;
	/**
	 * 'before' (default): fault instead of processing.
	 * 'after': apply the request's effect THEN answer with the fault (delivery unknown).
	 */
	phase?: 'before' | 'after';
}

export interface SandboxOptions {
	port?: number;
	/** Default 'sandbox-demo-key'. */
	apiKey?: string;
	/** Extra keys; the apiKey is always 'active'. Unknown keys => unknown customer. */
	accounts?: Record<string, AccountStatus>;
	/** Added to every response (the request counts as in flight meanwhile). */
	latencyMs?: number;
	/** processCode, httpStatus.code, nextPageSeq (and the flat trigger `code`) as strings. */
	stringCodes?: boolean;
	/**
	 * How the last page signals the end (default 'null'). 'emptyPage': the last data page still
	 * has a nextPageSeq and the page after it has an empty dataList and nextPageSeq null.
	 */
	pagingEnd?: 'null' | 'absent' | 'emptyString' | 'emptyPage';
	/** Default 1000 (max 1000). */
	pageSize?: number;
	/**
	 * Custom-data/member failures: 'ok' = HTTP 200 with the envelope (default), 'mapped' = 4xx/5xx
	 * with the envelope (see envelope.ts for the table).
	 */
	errorHttpStatus?: 'ok' | 'mapped';
	/** v1 member save/delete responses spell httpStatus.code as httpStatus.col. */
	v1ColMisspelling?: boolean;
	/** v2 member failure rows as a bare array in processValue (default) or { failList: [...] }. */
	v2FailureShape?: 'array' | 'object';
	/**
	 * Triggered-send body: envelope {httpStatus, processCode, processValue}, flat {code, message},
	 * or empty body with only the HTTP status. Default 'envelope'.
	 */
	triggerResponse?: 'envelope' | 'flat' | 'empty';
	faults?: FaultConfig;
}

export interface LoggedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	/** Lower-cased names; the x-api-key value is replaced by '[redacted]'. */
	headers: Record<string, string>;
	/** Parsed JSON, the raw string when it is not JSON, undefined when the body is empty. */
	body: unknown;
	/** HTTP status sent; 0 when no answer was sent (drop, hang, client gone). */
	status: number;
	processCode?: number;
	faulted?: FaultKind;
	startedAt: number;
	/** 0 while the request is still being handled. */
	endedAt: number;
}

export interface CampaignConfig {
	/** blocked -> 7002, dormant -> 7003 */
	profileState: 'active' | 'blocked' | 'dormant';
	/** waiting 7004, reviewRequested 7005, dormant 7006, blocked 7007, suspended 7008, rejected 7009, expired 7010 */
	templateState:
		| 'approved'
		| 'waiting'
		| 'reviewRequested'
		| 'dormant'
		| 'blocked'
		| 'suspended'
		| 'rejected'
		| 'expired';
	/** false -> 7001 */
	channelLinked: boolean;
	/** false -> 7997 */
	unitPriceSet: boolean;
	/** missing one -> 7011 */
	requiredVariables: string[];
	/** value not YYYY-MM-DD -> 1204 */
	dateVariables: string[];
}

export interface MemberV1Record {
	memberId: string;
	phoneNumber: string;
	isReceive: boolean;
	name?: string;
}

export interface MemberV2Record {
	memberId: string;
	phoneNumber: string;
	isReceive: 'true' | 'false';
	name?: string;
}

export interface SentMessage {
	campaignKey: string;
	phoneNumber: string;
	properties: Record<string, unknown>;
	at: number;
}

export interface SandboxState {
	/** Registered custom-data keys (v2; legacy v1 uses the same registry for formats). */
	customKeys: Map<string, KeyFormat>;
	/** memberId -> key -> value (v2). */
	custom: Map<string, Map<string, string | number>>;
	/** memberId -> key -> value (v1). */
	legacy: Map<string, Map<string, string | number>>;
	/** By memberId. phoneNumber is stored as sent. */
	membersV1: Map<string, MemberV1Record>;
	/** By normalized phone digits. */
	membersV2: Map<string, MemberV2Record>;
	campaigns: Map<string, CampaignConfig>;
	/** Every message actually sent. */
	sent: SentMessage[];
	/**
	 * memberId -> processCode (-1006/-1007/-1012/-1013) the v1 save rejects a whole request with,
	 * although the row looks valid ("a rule the client cannot see").
	 */
	v1RejectMemberIds: Map<string, number>;
	/** A custom/legacy delete request naming one of these is refused with that code (nothing deleted). */
	lockedMembers: Map<string, -1009 | -1010>;
}

export interface Sandbox {
	/** http://127.0.0.1:PORT (no trailing slash) */
	baseUrl: string;
	apiKey: string;
	/** Every request in arrival order. */
	requests: LoggedRequest[];
	inFlight: number;
	maxInFlight: number;
	state: SandboxState;
	registerKey(key: string, format: KeyFormat): void;
	addCampaign(key: string, config?: Partial<CampaignConfig>): void;
	/** Change options at run time (faults, latency, shapes). An `undefined` value restores the default. */
	configure(options: Partial<SandboxOptions>): void;
	/** Clear state, log, counters (keeps options). */
	reset(): void;
	close(): Promise<void>;
}
