/**
 * Shared helpers of the Custom Data / Legacy Data workflow tests: the one runner through the real
 * engine, stores seeded before a test, and a tiny scripted page server for answers the sandbox
 * does not give (a repeated nextPageSeq, 200,000 entries fast).
 */
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/types';
import { runNode, withFast, type DialectCase } from '../support';
import { envelope, startScripted, type ScriptedServer } from '../support/scripted-server';

export interface RunExtra {
	onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
	timezone?: string;
}

/** Where a run sends its requests: the sandbox, a scripted server, or either with another key. */
export interface Credential {
	baseUrl: string;
	apiKey: string;
}

/**
 * The one preset over runNode (test/support) for the data nodes: Source -> the dialect's node
 * with `credential` (the sandbox, or a scripted server's) and no retry pauses.
 */
export async function run(
	credential: Credential,
	dialect: DialectCase,
	parameters: IDataObject,
	input: IDataObject[],
	extra: RunExtra = {},
) {
	return await runNode({
		type: dialect.type,
		parameters: withFast(parameters),
		input,
		credentials: { baseUrl: credential.baseUrl, apiKey: credential.apiKey } as never,
		onError: extra.onError,
		timezone: extra.timezone,
	});
}

/** The sandbox's address with a key it does not know (answered -1001). */
export const unknownKey = (sb: Credential): Credential => ({
	baseUrl: sb.baseUrl,
	apiKey: 'not-a-known-key',
});

type Store = Map<string, Map<string, string | number>>;

/** Gives each member in `ids` the entries `entries` (by default three) in a dialect's store. */
export function seed(
	store: Store,
	ids: readonly string[],
	entries: IDataObject = { grade: 'g', points: 1, joined: '2024-01-01' },
): void {
	for (const id of ids)
		store.set(id, new Map(Object.entries(entries) as Array<[string, string | number]>));
}

/** Define Below parameters: the member id and `[key, value]` entries, as given (expressions too). */
export const defineBelow = (memberId: string, entries: ReadonlyArray<[string, string]>) => ({
	mappingMode: 'defineBelow',
	memberId,
	entries: { entry: entries.map(([key, value]) => ({ key, value })) },
});

/** Fills a store with `members` members of `keysPer` keys each: m00000 -> { k0: 0, k1: 1, ... }. */
export function fill(store: Store, members: number, keysPer: number): void {
	for (let m = 0; m < members; m++) {
		const entries = new Map<string, string | number>();
		for (let k = 0; k < keysPer; k++) entries.set(`k${k}`, m * keysPer + k);
		store.set(`m${String(m).padStart(5, '0')}`, entries);
	}
}

/** An entry item of a read (custom data key mode) by its member and key, to find one repeated. */
export const entryId = (json: { memberId?: unknown; key?: unknown }) =>
	`${String(json.memberId)}/${String(json.key)}`;

export type PageServer = ScriptedServer;

/**
 * A scripted server: every request is logged (see `seen`) and answered with the envelope whose
 * processValue (and code) `page` returns.
 */
export async function startPageServer(
	page: (
		url: URL,
		index: number,
		body: string,
	) => { processCode?: number | string; processValue: unknown },
): Promise<PageServer> {
	return await startScripted((req, index) => {
		const answer = page(new URL(req.url, 'http://127.0.0.1'), index, req.body);
		return { body: envelope(answer.processCode ?? 0, answer.processValue) };
	});
}

/** A credential for a scripted server (its key is never checked). */
export const scriptedCredential = (baseUrl: string): Credential => ({
	baseUrl,
	apiKey: 'scripted-test-credential',
});

/** The keys the write tests register before each test (the sandbox forgets them between tests). */
export function registerWriteKeys(sb: Sandbox): void {
	beforeEach(() => {
		sb.registerKey('grade', 'string');
		sb.registerKey('points', 'number');
		sb.registerKey('joined', 'date');
		sb.registerKey('active', 'string');
	});
}

export const asObject = (value: unknown) => value as Record<string, Record<string, unknown>>;

/** What the sandbox holds for one member in a dialect's store, as a plain object. */
export const storedOf = (sb: Sandbox) => (dialect: DialectCase, memberId: string) =>
	Object.fromEntries(dialect.store(sb).get(memberId) ?? []);
