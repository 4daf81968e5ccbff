/**
 * The support of the sandbox conformance tests: plain HTTP calls with axios (never throwing on a
 * status), typed access to the envelope, the file's sandbox with every account status, and (at
 * the end) what the custom data suites share. Not a test file itself (no `.test.ts`).
 */
import axios, { type AxiosResponseHeaders, type RawAxiosResponseHeaders } from 'axios';
import { setTimer } from '../support/node';
import { useSandbox } from '../support/sandbox';
import type { AccountStatus, Sandbox, SandboxOptions } from '../../sandbox/types';

/** Keys for every account status, on top of the sandbox's own active key. */
export const ACCOUNTS: Record<string, AccountStatus> = {
	'key-unregistered': 'unregistered',
	'key-unapproved': 'unapproved',
	'key-expired': 'expired',
	'key-no-permission': 'noPermission',
};

/** The file's sandbox (see test/support/sandbox.ts), with every account status. */
export const useTestSandbox = (options: SandboxOptions = {}): Sandbox =>
	useSandbox({ accounts: ACCOUNTS, ...options });

export interface EnvelopeBody {
	httpStatus: { code?: number | string; col?: number | string; reasonPhrase: string };
	processCode: number | string;
	processValue: unknown;
}

export interface CallResult {
	status: number;
	headers: RawAxiosResponseHeaders | AxiosResponseHeaders;
	/** The body as received. */
	text: string;
	/** The parsed body (undefined when empty or not JSON), typed as an envelope for convenience. */
	body: EnvelopeBody;
	/** processCode of the envelope. */
	code: number | string | undefined;
	/** processValue, cast to what the test expects. */
	value<T>(): T;
}

export interface CallOptions {
	/** JSON body (serialized with JSON.stringify). */
	body?: unknown;
	/** Body sent byte for byte (takes precedence over `body`). */
	raw?: string;
	/** x-api-key: default the sandbox key; null = no header. */
	key?: string | null;
	/** Content-Type: default application/json when there is a body; null = no header. */
	contentType?: string | null;
	timeout?: number;
}

export async function call(
	sb: Sandbox,
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<CallResult> {
	const data =
		options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
	const headers: Record<string, string | false> = {};
	const key = options.key === undefined ? sb.apiKey : options.key;
	if (key !== null) headers['x-api-key'] = key;
	const contentType =
		options.contentType === undefined
			? data === undefined
				? null
				: 'application/json'
			: options.contentType;
	headers['Content-Type'] = contentType ?? false;

	const response = await axios.request<string>({
		method,
		url: sb.baseUrl + path,
		data,
		headers,
		timeout: options.timeout,
		validateStatus: () => true,
		transformRequest: [(body: unknown) => body],
		transformResponse: [(body: unknown) => body],
		responseType: 'text',
	});
	const text = typeof response.data === 'string' ? response.data : '';
	let parsed: unknown;
	try {
		parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
	} catch {
		parsed = undefined;
	}
	const body = parsed as EnvelopeBody;
	return {
		status: response.status,
		headers: response.headers,
		text,
		body,
		code: body?.processCode,
		value: <T>() => body?.processValue as T,
	};
}

export const get = (sb: Sandbox, path: string, options?: CallOptions) =>
	call(sb, 'GET', path, options);
export const post = (sb: Sandbox, path: string, body: unknown, options?: CallOptions) =>
	call(sb, 'POST', path, { body, ...options });
export const put = (sb: Sandbox, path: string, body: unknown, options?: CallOptions) =>
	call(sb, 'PUT', path, { body, ...options });
export const del = (sb: Sandbox, path: string, body: unknown, options?: CallOptions) =>
	call(sb, 'DELETE', path, { body, ...options });

/** Entries of a custom/legacy store as plain objects, for toEqual. */
export function storeOf(
	map: Map<string, Map<string, string | number>>,
): Record<string, Record<string, string | number>> {
	const out: Record<string, Record<string, string | number>> = {};
	for (const [memberId, entries] of map) out[memberId] = Object.fromEntries(entries);
	return out;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimer(resolve, ms));
}

/**
 * Waits (at most 10 s) until `check` holds: what a request has reached the sandbox is waited
 * for, never timed (on a busy machine a request can take far longer than usual to arrive).
 */
export async function until(check: () => boolean): Promise<void> {
	const deadline = Date.now() + 10000;
	while (!check()) {
		if (Date.now() > deadline) throw new Error('timed out waiting for the sandbox');
		await sleep(5);
	}
}

/**
 * What the custom data conformance suites share: the entry shapes, the file's sandbox with three
 * registered keys, seeding, and a reader that follows nextPageSeq to the end.
 */

export interface Entry {
	memberId: string;
	customDataKey: string;
	customDataValue: string | number;
}
export interface Page {
	nextPageSeq?: number | string | null;
	dataList: Entry[];
}
export interface FailRow {
	memberId: string;
	failKey: string;
	failValue: unknown;
	failCode: string;
}

/** The file's sandbox, with the keys name (string), points (number) and birthday (date) registered before each test. */
export function useCustomDataSandbox(): Sandbox {
	const sb = useTestSandbox();
	beforeEach(() => {
		sb.registerKey('name', 'string');
		sb.registerKey('points', 'number');
		sb.registerKey('birthday', 'date');
	});
	return sb;
}

/** `members` members with keys k0..k4 each, straight into the state. */
export function seed(sb: Sandbox, members: number): Entry[] {
	const expected: Entry[] = [];
	for (let m = 0; m < members; m++) {
		const memberId = `m${m}`;
		const entries = new Map<string, string | number>();
		for (let k = 0; k < 5; k++) {
			entries.set(`k${k}`, m * 10 + k);
			expected.push({ memberId, customDataKey: `k${k}`, customDataValue: m * 10 + k });
		}
		sb.state.custom.set(memberId, entries);
	}
	return expected;
}

/** Follows nextPageSeq until the end (at most 20 pages). */
export async function readAll(
	sb: Sandbox,
	path = '/v2/custom',
): Promise<{ pages: Page[]; entries: Entry[] }> {
	const pages: Page[] = [];
	let next: Page['nextPageSeq'] = undefined;
	for (let i = 0; i < 20; i++) {
		const sep = path.includes('?') ? '&' : '?';
		const res = await get(
			sb,
			next === undefined ? path : `${path}${sep}seq=${encodeURIComponent(String(next))}`,
		);
		expect(Number(res.code)).toBe(0);
		const page = res.value<Page>();
		pages.push(page);
		if (page.nextPageSeq === null || page.nextPageSeq === undefined || page.nextPageSeq === '')
			break;
		next = page.nextPageSeq;
	}
	return { pages, entries: pages.flatMap((p) => p.dataList) };
}
