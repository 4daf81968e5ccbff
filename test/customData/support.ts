/**
 * Shared helpers of the Custom Data / Legacy Data workflow tests: the two dialects as test
 * cases, a runner through the real engine, pairing checks, and a tiny scripted page server for
 * answers the sandbox does not give (a repeated nextPageSeq, 200,000 entries fast).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { runNode } from '../engine/harness';
import type { Sandbox } from '../sandbox/server';
import { http, type net } from '../support/node';

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

export interface PageServer {
	baseUrl: string;
	seen: string[];
	close(): Promise<void>;
}

/**
 * A scripted server: every request URL is logged and answered with the envelope whose
 * processValue (and code) `page` returns.
 */
export async function startPageServer(
	page: (url: URL, index: number, body: string) => { processCode?: number | string; processValue: unknown },
): Promise<PageServer> {
	const seen: string[] = [];
	const sockets = new Set<net.Socket>();
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c: Buffer) => (body += c.toString('utf8')));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			seen.push(`${req.method} ${req.url}`);
			const answer = page(url, seen.length - 1, body);
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					httpStatus: { code: 200, reasonPhrase: 'OK' },
					processCode: answer.processCode ?? 0,
					processValue: answer.processValue,
				}),
			);
		});
	});
	server.on('connection', (socket: net.Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		seen,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** A credential for a scripted server (its key is never checked). */
export const scriptedCredential = (baseUrl: string) => ({ baseUrl, apiKey: 'scripted-test-credential' });
