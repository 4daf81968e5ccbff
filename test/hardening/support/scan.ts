/**
 * Shared by the hardening suites: one secret key for every run, a runner that records every
 * output item, error and request so that a leak of the key anywhere fails the suite, the checks
 * of the output promises, and the counters written to
 * test-artifacts/hardening-summary.json for the closing report.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { logLines, runNode, type NodeRun } from '../../support';
import { FAST, withFast } from '../../support/speed';
import type { LoggedRequest } from '../../../sandbox/server';
import * as conservation from '../../support/conservation';
import { expectClearText, type RowRef, type WriteCheck } from '../../support/conservation';
import { fs, path, ROOT } from '../../support/node';
import { pairsOf } from '../../support/paired';

/** The API key of every hardening run: long and distinctive, so any echo of it is found. */
export const API_KEY = ['hardening', 'api', 'key', 'f3c9a1d7e5b2'].join('-');

/** Seeds of the property runs: fixed, so a failure always reproduces. */
export const SEED = 20240601;

export const tally = {
	/** Inputs fast-check generated and the node ran with (one per property run). */
	generatedCases: 0,
	/** Workflow executions of a package node. */
	nodeRuns: 0,
	inputItems: 0,
	outputItems: 0,
	/** Requests the sandbox or a scripted server answered with a fault (or dropped, or left hanging). */
	injectedFaults: 0,
	/** Malformed or unexpected answers served by a scripted server. */
	badResponses: 0,
	/** Requests that reached a test server. */
	requests: 0,
	/** Texts searched for the key (outputs, errors, run data, requests, log lines). */
	textsScanned: 0,
	/** Input items whose path to an output was checked. */
	itemsAccounted: 0,
	/** Lines n8n's logger received (all searched for the key). */
	logLines: 0,
	/** Violations found (each one also fails its test): expected to stay 0. */
	lost: 0,
	doubled: 0,
	leaked: 0,
	/** Requests that arrived with a header the node never sets (a header injected through a value). */
	injectedHeaders: 0,
};

const leaks: string[] = [];

/** When this suite file was loaded (its time is reported with its counters). */
const loadedAt = Date.now();

/** Records a leak of the key in `text` (any form the key may take in JSON or a URL). */
export function scan(where: string, text: string | undefined): void {
	if (text === undefined) return;
	tally.textsScanned++;
	const forms = [API_KEY, encodeURIComponent(API_KEY), JSON.stringify(API_KEY).slice(1, -1)];
	if (forms.some((form) => text.includes(form))) {
		tally.leaked++;
		leaks.push(
			`${where}: ${text.slice(Math.max(0, text.indexOf(API_KEY) - 80), text.indexOf(API_KEY) + 80)}`,
		);
	}
}

function safeJson(value: unknown): string {
	const seen = new WeakSet<object>();
	try {
		return (
			JSON.stringify(value, (_key, v: unknown) => {
				if (typeof v === 'object' && v !== null) {
					if (seen.has(v)) return '[circular]';
					seen.add(v);
				}
				return typeof v === 'bigint' ? String(v) : v;
			}) ?? ''
		);
	} catch (error) {
		return String(error);
	}
}

export type RunResult = Awaited<ReturnType<typeof runNode>>;

/** Runs a package node through the real engine and scans everything it produced for the key. */
export async function run(options: NodeRun, label = options.type): Promise<RunResult> {
	const result = await runNode({ ...options, parameters: withFast(options.parameters) });
	tally.nodeRuns++;
	tally.inputItems += options.input.length;
	for (const output of result.out) tally.outputItems += output.length;
	scan(`${label}: output items`, safeJson(result.out));
	if (result.error) {
		const e = result.error as unknown as Record<string, unknown>;
		scan(`${label}: error message`, String(e.message ?? ''));
		scan(`${label}: error description`, String(e.description ?? ''));
		scan(`${label}: error`, safeJson({ ...e, stack: e.stack, context: e.context, cause: e.cause }));
	}
	// Everything n8n would store for this execution (run data, error, metadata).
	scan(`${label}: run data`, safeJson(result.run.data));
	return result;
}

/** Scans what reached a test server: the key belongs in the x-api-key header only. */
export function scanRequests(
	label: string,
	requests: Array<{ body?: unknown; query?: unknown; url?: string; path?: string }>,
): void {
	for (const request of requests) {
		tally.requests++;
		const { body, query, url, path: p } = request;
		scan(`${label}: request`, safeJson({ body, query, url, path: p }));
	}
}

/** The only headers a request of the package carries (lower-cased; the rest are the HTTP client's own). */
const HEADERS = new Set([
	'accept',
	'accept-encoding',
	'connection',
	'content-length',
	'content-type',
	'host',
	'user-agent',
	'x-api-key',
]);

/** Records a request header the node never sets: a header injected through a value. */
export function checkHeaders(label: string, headers: Record<string, unknown>): void {
	const extra = Object.keys(headers).filter((h) => !HEADERS.has(h.toLowerCase()));
	if (extra.length > 0) {
		tally.injectedHeaders += extra.length;
		leaks.push(`${label}: unexpected request headers ${extra.join(', ')}`);
	}
}

/** Counts the faults the sandbox injected in its request log, scans the requests and checks their headers. */
export function countSandbox(label: string, requests: LoggedRequest[]): void {
	scanRequests(label, requests);
	for (const r of requests) checkHeaders(label, r.headers);
	tally.injectedFaults += requests.filter((r) => r.faulted !== undefined).length;
}

/** Lines of n8n's log already searched, and leaks already reported to a test. */
let logsScanned = 0;
let leaksReported = 0;

/**
 * Fails the test that just ran if the key reached anything recorded during it: its outputs,
 * errors, run data, requests, and every line n8n logged meanwhile.
 */
export function assertNoNewLeaks(): void {
	for (; logsScanned < logLines.length; logsScanned++)
		scan(`log line ${logsScanned}`, logLines[logsScanned]);
	tally.logLines = logLines.length;
	const fresh = leaks.slice(leaksReported);
	leaksReported = leaks.length;
	expect(fresh).toEqual([]);
}

/**
 * Writes this file's counters to test-artifacts/hardening/<suite>.json and recomputes
 * test-artifacts/hardening-summary.json from every suite's file.
 */
export function writeSummary(suite: string): void {
	const dir = path.join(ROOT, 'test-artifacts', 'hardening');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, `${suite}.json`),
		`${JSON.stringify({ suite, finishedAt: new Date().toISOString(), suiteMs: Date.now() - loadedAt, ...tally }, null, 2)}\n`,
	);
	const suites = fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.map(
			(f) =>
				JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, number | string>,
		);
	const totals: Record<string, number> = {};
	for (const s of suites) {
		for (const [k, v] of Object.entries(s))
			if (typeof v === 'number') totals[k] = (totals[k] ?? 0) + v;
	}
	const summary = { writtenAt: new Date().toISOString(), totals, suites };
	const target = path.join(ROOT, 'test-artifacts', 'hardening-summary.json');
	fs.writeFileSync(`${target}.${suite}.tmp`, `${JSON.stringify(summary, null, 2)}\n`);
	fs.renameSync(`${target}.${suite}.tmp`, target);
}

/** The usual frame of a hardening file: no leak in any test (each test fails on its own), then the counters. */
export function finishSuite(suite: string): void {
	afterEach(() => assertNoNewLeaks());
	afterAll(() => writeSummary(suite));
}

// ---------------------------------------------------------------------------------------------
// Output checks (test/support/conservation.ts), counted in this file's tally
// ---------------------------------------------------------------------------------------------

export { expectClearText, pairsOf, type RowRef, type WriteCheck };

export const checkWriteOutputs = (
	out: INodeExecutionData[][],
	count: number,
	check: WriteCheck,
): void => conservation.checkWriteOutputs(out, count, check, tally);

export const checkNoRowOnBoth = (
	out: INodeExecutionData[][],
	rows: (json: IDataObject, output: 0 | 1) => RowRef[],
): void => conservation.checkNoRowOnBoth(out, rows, tally);

/** The error of a run, when it stopped, must be a clear one (never a crash). */
export function expectClearError(result: RunResult, where: string): void {
	if (!result.error) return;
	const e = result.error as unknown as { message?: unknown; description?: unknown; name?: unknown };
	expectClearText(e.message, `${where}: error message`);
	if (e.description !== undefined && e.description !== null && e.description !== '')
		expectClearText(e.description, `${where}: error description`);
}

const byKey = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/** A store of members' entries as sorted pairs, for equality checks. */
export function plainStore<V>(
	store: Map<string, Map<string, V>>,
): Array<[string, Array<[string, V]>]> {
	return [...store.entries()]
		.map(([id, entries]): [string, Array<[string, V]>] => [id, [...entries.entries()].sort(byKey)])
		.sort(byKey);
}

/** A plain, sorted copy of any map (for state equality). */
export function plainMap<V>(map: Map<string, V>): Array<[string, V]> {
	return [...map.entries()].sort(byKey);
}

/** One Alimtalk send of one message (DEMO-WELCOME to 821012345678) against `baseUrl`. */
export async function sendOnce(
	baseUrl: string,
	apiKey: string,
	options: IDataObject,
): Promise<Awaited<ReturnType<typeof runNode>>> {
	return await runNode({
		type: 'campaignAlimtalk',
		parameters: {
			operation: 'send',
			campaignKey: 'DEMO-WELCOME',
			phoneNumber: '821012345678',
			properties: { property: [{ key: 'name', value: 'Kim' }] },
			options,
		},
		input: [{}],
		credentials: { baseUrl, apiKey },
	});
}

/** One Custom Data read of every page against `baseUrl`, with no pause between retries. */
export async function readAll(
	baseUrl: string,
	apiKey: string,
): Promise<Awaited<ReturnType<typeof runNode>>> {
	return await runNode({
		type: 'campaignCustomData',
		parameters: { operation: 'getAll', returnAll: true, options: FAST },
		input: [{}],
		credentials: { baseUrl, apiKey },
	});
}
