/**
 * Shared by the hardening suites: one secret key for every run, a runner that records every
 * output item, error and request so that a leak of the key anywhere fails the suite, the checks
 * of the output promises (INTERFACE.md), and the counters written to
 * test-artifacts/hardening-summary.json for the closing report.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { logLines, runNode, type NodeRun } from '../engine/harness';
import type { LoggedRequest, Sandbox } from '../../sandbox/server';
import { fs, path, ROOT } from '../support/node';

/** The API key of every hardening run: long and distinctive, so any echo of it is found. */
export const KEY = ['hardening', 'api', 'key', 'f3c9a1d7e5b2'].join('-');

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
	const forms = [KEY, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1)];
	if (forms.some((form) => text.includes(form))) {
		tally.leaked++;
		leaks.push(`${where}: ${text.slice(Math.max(0, text.indexOf(KEY) - 80), text.indexOf(KEY) + 80)}`);
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
	const result = await runNode(options);
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
export function scanRequests(label: string, requests: Array<{ body?: unknown; query?: unknown; url?: string; path?: string }>): void {
	for (const request of requests) {
		tally.requests++;
		const { body, query, url, path: p } = request;
		scan(`${label}: request`, safeJson({ body, query, url, path: p }));
	}
}

/** The only headers a request of the package carries (lower-cased; the rest are the HTTP client's own). */
const HEADERS = new Set(['accept', 'accept-encoding', 'connection', 'content-length', 'content-type', 'host', 'user-agent', 'x-api-key']);

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

/** Fails the file if the key reached anything recorded, including every line n8n logged. */
export function assertNoLeaks(): void {
	expect(leaks).toEqual([]);
}

/** Searches every line n8n logged in this file's runs. */
function scanLogs(): void {
	tally.logLines = logLines.length;
	for (const [i, line] of logLines.entries()) scan(`log line ${i}`, line);
}

/**
 * Writes this file's counters to test-artifacts/hardening/<suite>.json and recomputes
 * test-artifacts/hardening-summary.json from every suite's file.
 */
export function writeSummary(suite: string): void {
	const dir = path.join(ROOT, 'test-artifacts', 'hardening');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, `${suite}.json`), `${JSON.stringify({ suite, finishedAt: new Date().toISOString(), suiteMs: Date.now() - loadedAt, ...tally }, null, 2)}\n`);
	const suites = fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, number | string>);
	const totals: Record<string, number> = {};
	for (const s of suites) {
		for (const [k, v] of Object.entries(s)) if (typeof v === 'number') totals[k] = (totals[k] ?? 0) + v;
	}
	const summary = { writtenAt: new Date().toISOString(), totals, suites };
	const target = path.join(ROOT, 'test-artifacts', 'hardening-summary.json');
	fs.writeFileSync(`${target}.${suite}.tmp`, `${JSON.stringify(summary, null, 2)}\n`);
	fs.renameSync(`${target}.${suite}.tmp`, target);
}

/** The usual end of a hardening file: no leak anywhere, then the counters. */
export function finishSuite(suite: string): void {
	afterAll(() => {
		scanLogs();
		writeSummary(suite);
		assertNoLeaks();
	});
}

// ---------------------------------------------------------------------------------------------
// Output checks
// ---------------------------------------------------------------------------------------------

/** The input indexes an output item is paired to ([] when it has none). */
export function pairsOf(item: INodeExecutionData): number[] {
	const p = item.pairedItem;
	if (p === undefined || p === null) return [];
	if (typeof p === 'number') return [p];
	return (Array.isArray(p) ? p : [p]).map((x) => (typeof x === 'number' ? x : x.item));
}

/** Words that only appear when code crashed or printed something it did not mean to. */
const CRASH_WORDS =
	/TypeError|ReferenceError|URIError|RangeError|Cannot read|is not a function|is not iterable|undefined is not|\[object Object\]|\bNaN\b|Unexpected token|Maximum call stack|unknown code (HTTP_|E[A-Z])/;

/** A message a user can act on: plain non-empty text, no trace of a crash. */
export function expectClearText(text: unknown, where: string): void {
	if (typeof text !== 'string' || text.trim() === '' || CRASH_WORDS.test(text)) {
		throw new Error(`${where}: not a clear message: ${JSON.stringify(text)}`);
	}
}

export interface WriteCheck {
	/** Identifying fields a Failed item must carry (present, possibly null). */
	failedFields: string[];
	/**
	 * Each input index on at most one output item (members, deletes, sends). Custom data writes
	 * allow an item on both outputs (some keys stored, others not) and are checked row by row.
	 */
	eachIndexOnce: boolean;
}

/**
 * The promises of INTERFACE.md for a write: two outputs; every item paired, to real input
 * indexes; every input index reachable; Failed items with a code, plain words and the
 * identifying fields. Throws (with the reason) on any violation.
 */
export function checkWriteOutputs(out: INodeExecutionData[][], count: number, check: WriteCheck): void {
	tally.itemsAccounted += count;
	if (out.length !== 2) throw new Error(`expected the two outputs Success and Failed, got ${out.length}`);
	const hits = new Map<number, number>();
	out.forEach((output, o) => {
		for (const [n, item] of output.entries()) {
			const indexes = pairsOf(item);
			if (indexes.length === 0) throw new Error(`output ${o} item ${n} has no pairedItem`);
			for (const i of indexes) {
				if (!Number.isInteger(i) || i < 0 || i >= count) throw new Error(`output ${o} item ${n} is paired to ${i}, not an input index`);
				hits.set(i, (hits.get(i) ?? 0) + 1);
			}
		}
	});
	const lost = Array.from({ length: count }, (_, i) => i).filter((i) => !hits.has(i));
	if (lost.length > 0) {
		tally.lost += lost.length;
		throw new Error(`input items ${lost.join(', ')} are on no output`);
	}
	if (check.eachIndexOnce) {
		const twice = [...hits].filter(([, n]) => n > 1).map(([i]) => i);
		if (twice.length > 0) {
			tally.doubled += twice.length;
			throw new Error(`input items ${twice.join(', ')} are on more than one output item`);
		}
	}
	for (const [n, item] of out[1].entries()) {
		const json = item.json;
		if (typeof json.code !== 'string' || json.code.trim() === '') throw new Error(`Failed item ${n} has no code: ${JSON.stringify(json)}`);
		expectClearText(json.message, `Failed item ${n} (code ${json.code})`);
		for (const field of check.failedFields) {
			if (!(field in json)) throw new Error(`Failed item ${n} lacks the identifying field ${field}: ${JSON.stringify(json)}`);
		}
	}
}

/**
 * A row an output item is about: `id` names it (e.g. member and key), `value` what was written
 * (undefined when the item does not say).
 */
export interface RowRef {
	id: string;
	value?: string;
}

/**
 * Asserts that no input index is on both outputs for the same row: the same row id with the
 * same value, or with a value one side does not state.
 */
export function checkNoRowOnBoth(out: INodeExecutionData[][], rows: (json: IDataObject, output: 0 | 1) => RowRef[]): void {
	const success = new Map<string, Set<string | undefined>>();
	for (const item of out[0] ?? []) {
		for (const i of pairsOf(item)) {
			for (const row of rows(item.json, 0)) {
				const key = `${i}\u0000${row.id}`;
				success.set(key, (success.get(key) ?? new Set()).add(row.value));
			}
		}
	}
	const both: string[] = [];
	for (const item of out[1] ?? []) {
		for (const i of pairsOf(item)) {
			for (const row of rows(item.json, 1)) {
				const values = success.get(`${i}\u0000${row.id}`);
				if (!values) continue;
				if (row.value === undefined || values.has(undefined) || values.has(row.value)) both.push(`item ${i}: ${JSON.stringify(row)}`);
			}
		}
	}
	if (both.length > 0) {
		tally.doubled += both.length;
		throw new Error(`rows on both outputs: ${both.slice(0, 5).join('; ')}`);
	}
}

/** The error of a run, when it stopped, must be a clear one (never a crash). */
export function expectClearError(result: RunResult, where: string): void {
	if (!result.error) return;
	const e = result.error as unknown as { message?: unknown; description?: unknown; name?: unknown };
	expectClearText(e.message, `${where}: error message`);
	if (e.description !== undefined && e.description !== null && e.description !== '') expectClearText(e.description, `${where}: error description`);
}

/** A sandbox for the file, with the hardening key; reset between cases by the caller. */
export function sandboxFixture(start: () => Promise<Sandbox>): () => Sandbox {
	let sb: Sandbox | undefined;
	beforeAll(async () => {
		sb = await start();
	});
	afterAll(async () => {
		await sb?.close();
	});
	return () => {
		if (!sb) throw new Error('sandbox not started');
		return sb;
	};
}

const byKey = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/** A store of members' entries as sorted pairs, for equality checks. */
export function plainStore<V>(store: Map<string, Map<string, V>>): Array<[string, Array<[string, V]>]> {
	return [...store.entries()].map(([id, entries]): [string, Array<[string, V]>] => [id, [...entries.entries()].sort(byKey)]).sort(byKey);
}

/** A plain, sorted copy of any map (for state equality). */
export function plainMap<V>(map: Map<string, V>): Array<[string, V]> {
	return [...map.entries()].sort(byKey);
}
