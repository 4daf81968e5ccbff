/**
 * Shared helpers of the Custom Data / Legacy Data workflow tests: the two dialects as test
 * cases, a runner through the real engine, and a tiny scripted page server for
 * answers the sandbox does not give (a repeated nextPageSeq, 200,000 entries fast).
 */
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/types';
import { runNode, withFast, type DialectCase } from '../support';
import { envelope, startScripted, type ScriptedServer } from '../support/scripted-server';

export interface RunExtra {
	onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
	timezone?: string;
	credentials?: IDataObject;
}

/** Runs Source -> the data node with the sandbox's credential and no retry pauses. */
export async function run(
	sb: { baseUrl: string; apiKey: string },
	dialect: DialectCase,
	parameters: IDataObject,
	input: IDataObject[],
	extra: RunExtra = {},
) {
	return await runNode({
		type: dialect.type,
		parameters: withFast(parameters),
		input,
		credentials: (extra.credentials ?? { baseUrl: sb.baseUrl, apiKey: sb.apiKey }) as never,
		onError: extra.onError,
		timezone: extra.timezone,
	});
}

/** Fills a store with `members` members of `keysPer` keys each: m00000 -> { k0: 0, k1: 1, ... }. */
export function fill(
	store: Map<string, Map<string, string | number>>,
	members: number,
	keysPer: number,
): void {
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
export const scriptedCredential = (baseUrl: string) => ({
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
