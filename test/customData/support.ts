/**
 * Shared helpers of the Custom Data / Legacy Data workflow tests: the two dialects as test
 * cases, a runner through the real engine, pairing checks, and a tiny scripted page server for
 * answers the sandbox does not give (a repeated nextPageSeq, 200,000 entries fast).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { runNode } from '../engine/harness';
import type { Sandbox } from '../../sandbox/server';
import { envelope, startScripted, type ScriptedServer } from '../support/scripted-server';

export const FAST = { retryDelayMs: 0 };

export interface DialectCase {
	type: 'campaignCustomData' | 'campaignLegacyData';
	path: '/v2/custom' | '/v1/legacy';
	keyField: string;
	valueField: string;
	store(sb: Sandbox): Map<string, Map<string, string | number>>;
}

export const CUSTOM: DialectCase = {
	type: 'campaignCustomData',
	path: '/v2/custom',
	keyField: 'customDataKey',
	valueField: 'customDataValue',
	store: (sb) => sb.state.custom,
};

export const LEGACY: DialectCase = {
	type: 'campaignLegacyData',
	path: '/v1/legacy',
	keyField: 'legacyDataKey',
	valueField: 'legacyDataValue',
	store: (sb) => sb.state.legacy,
};

export const DIALECTS: Array<[string, DialectCase]> = [
	['custom data v2', CUSTOM],
	['legacy data v1', LEGACY],
];

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
		parameters: { ...parameters, options: { ...FAST, ...((parameters.options as IDataObject) ?? {}) } },
		input,
		credentials: (extra.credentials ?? { baseUrl: sb.baseUrl, apiKey: sb.apiKey }) as never,
		onError: extra.onError,
		timezone: extra.timezone,
	});
}

/** The input indexes an item is paired to. */
export function pairedOf(item: INodeExecutionData): number[] {
	const p = item.pairedItem;
	if (p === undefined) return [];
	if (typeof p === 'number') return [p];
	return (Array.isArray(p) ? p : [p]).map((x) => (typeof x === 'number' ? x : x.item));
}

/** Every input index some output item is paired to. */
export function covered(out: INodeExecutionData[][]): Set<number> {
	const seen = new Set<number>();
	for (const output of out) for (const item of output) for (const i of pairedOf(item)) seen.add(i);
	return seen;
}

/** Asserts that every input item is accounted for, and every output item is paired. */
export function expectAllAccounted(out: INodeExecutionData[][], inputCount: number): void {
	for (const output of out) for (const item of output) expect(pairedOf(item).length).toBeGreaterThan(0);
	const seen = covered(out);
	const missing = Array.from({ length: inputCount }, (_, i) => i).filter((i) => !seen.has(i));
	expect(missing).toEqual([]);
}

/** Fills a store with `members` members of `keysPer` keys each: m00000 -> { k0: 0, k1: 1, ... }. */
export function fill(store: Map<string, Map<string, string | number>>, members: number, keysPer: number): void {
	for (let m = 0; m < members; m++) {
		const entries = new Map<string, string | number>();
		for (let k = 0; k < keysPer; k++) entries.set(`k${k}`, m * keysPer + k);
		store.set(`m${String(m).padStart(5, '0')}`, entries);
	}
}

export type PageServer = ScriptedServer;

/**
 * A scripted server: every request is logged (see `seen`) and answered with the envelope whose
 * processValue (and code) `page` returns.
 */
export async function startPageServer(
	page: (url: URL, index: number, body: string) => { processCode?: number | string; processValue: unknown },
): Promise<PageServer> {
	return await startScripted((req, index) => {
		const answer = page(new URL(req.url, 'http://127.0.0.1'), index, req.body);
		return { body: envelope(answer.processCode ?? 0, answer.processValue) };
	});
}

/** A credential for a scripted server (its key is never checked). */
export const scriptedCredential = (baseUrl: string) => ({ baseUrl, apiKey: 'scripted-test-credential' });
