/**
 * The store-call tracer: a preload (`NODE_OPTIONS=--require <this file>`) for the n8n processes
 * of a queue-mode cluster, loaded when DEDUP_TRACE_DIR is set (scripts/queue/cluster.js). It
 * wraps n8n's deduplication helper (n8n 2.41.1: `dist/deduplication/deduplication-helper.js` of
 * the `n8n` package, the store every node's `this.helpers.checkProcessedAndRecord`,
 * `removeProcessed`, `clearAllProcessedItems` and `getProcessedDataCount` reach) and the
 * PostgreSQL client under it, and writes one JSON line per store call to
 * `<DEDUP_TRACE_DIR>/<DEDUP_TRACE_NAME>-<pid>.jsonl`:
 *
 *   { proc, pid, seq, op: 'record'|'remove'|'clear'|'count', wf, ctx, scope, node, n, values,
 *     fresh, maxEntries, start, end, ok, error, result,
 *     sql: [{ b, q, sent, done, len, rows, error }] }
 *
 * Times are epoch milliseconds with sub-millisecond digits (performance.timeOrigin +
 * performance.now()), on the clock PostgreSQL's log uses (the same host). `sql` lists the
 * call's database statements (found through AsyncLocalStorage): `b` the server process (the
 * `%p` of PostgreSQL's log line), `q` the statement's first word, `sent` when the client handed
 * it over, `done` when its answer was back, `len` the entries of the row it read or wrote.
 * The format is described for readers in the traces' README (scripts/queue/dedup-trace-report.js
 * prints it: `--format`). Test tooling only: nothing of it is in the package.
 */
'use strict';
const { AsyncLocalStorage } = require('node:async_hooks');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const DIR = process.env.DEDUP_TRACE_DIR;
const NAME = process.env.DEDUP_TRACE_NAME || path.basename(process.argv[1] || 'node');
const MAX_VALUES = 300;
const now = () => performance.timeOrigin + performance.now();
const calls = new AsyncLocalStorage();
let fd;
let seq = 0;

function emit(record) {
	if (fd === undefined) {
		fs.mkdirSync(DIR, { recursive: true });
		fd = fs.openSync(path.join(DIR, `${NAME}-${process.pid}.jsonl`), 'a');
	}
	fs.writeSync(fd, `${JSON.stringify(record)}\n`);
}

/** Entries of a processed_data value (an object or its JSON text), undefined when not one. */
function entriesOf(value) {
	let parsed = value;
	if (typeof value === 'string' && value.startsWith('{')) {
		try {
			parsed = JSON.parse(value);
		} catch {
			return undefined;
		}
	}
	return Array.isArray(parsed?.data) ? parsed.data.length : undefined;
}

const OPS = {
	checkProcessedAndRecord: 'record',
	removeProcessed: 'remove',
	clearAllProcessedItems: 'clear',
	getProcessedDataCount: 'count',
};

/** The helper's arguments, as (items?, scope, contextData, options?). */
function describe(name, args) {
	const [items, scope, context, options] =
		name === 'clearAllProcessedItems' || name === 'getProcessedDataCount'
			? [undefined, ...args]
			: args;
	const values = Array.isArray(items) ? items.map(String) : [];
	return {
		op: OPS[name],
		wf: String(context?.workflow?.id ?? ''),
		ctx: scope === 'node' ? `n:${context?.node?.id}` : '',
		scope,
		node: context?.node?.name,
		n: values.length,
		values: values.slice(0, MAX_VALUES).map((v) => v.slice(0, 120)),
		...(options?.maxEntries ? { maxEntries: options.maxEntries } : {}),
	};
}

function wrapHelper(proto) {
	for (const name of Object.keys(OPS)) {
		const original = proto[name];
		if (typeof original !== 'function' || original.traced) continue;
		const traced = function (...args) {
			const record = { proc: NAME, pid: process.pid, seq: ++seq, ...describe(name, args) };
			const sql = [];
			record.start = now();
			const settle = (ok, outcome) => {
				record.end = now();
				record.ok = ok;
				if (!ok) record.error = String(outcome?.message ?? outcome).slice(0, 300);
				else if (record.op === 'count') record.result = outcome;
				else if (record.op === 'record') {
					const fresh = new Set((outcome?.new ?? []).map(String));
					record.result = fresh.size;
					record.fresh = record.values.map((v) => (fresh.has(v) ? '1' : '0')).join('');
				}
				record.sql = sql;
				emit(record);
			};
			return calls.run(sql, () =>
				Promise.resolve(original.apply(this, args)).then(
					(value) => {
						settle(true, value);
						return value;
					},
					(error) => {
						settle(false, error);
						throw error;
					},
				),
			);
		};
		traced.traced = true;
		proto[name] = traced;
	}
}

function wrapClient(Client) {
	const original = Client?.prototype?.query;
	if (typeof original !== 'function' || original.traced) return;
	const traced = function (config, values, callback) {
		const sql = calls.getStore();
		const text = typeof config === 'string' ? config : config?.text;
		if (!sql || typeof text !== 'string' || typeof callback === 'function')
			return original.call(this, config, values, callback);
		const statement = { b: this.processID, q: text.trim().split(/\s+/)[0].toLowerCase() };
		const written = (Array.isArray(values) ? values : []).map(entriesOf).find((n) => n >= 0);
		if (written !== undefined) statement.len = written;
		statement.sent = now();
		sql.push(statement);
		return Promise.resolve(original.call(this, config, values)).then(
			(result) => {
				statement.done = now();
				statement.rows = result?.rowCount ?? undefined;
				// TypeORM names the column `ProcessedData_value`.
				const cells = (result?.rows ?? []).flatMap((row) =>
					Object.keys(row)
						.filter((key) => /value$/i.test(key))
						.map((key) => row[key]),
				);
				const read = cells.map(entriesOf).find((n) => n >= 0);
				if (read !== undefined) statement.len = read;
				return result;
			},
			(error) => {
				statement.done = now();
				statement.error = String(error?.message ?? error).slice(0, 200);
				throw error;
			},
		);
	};
	traced.traced = true;
	Client.prototype.query = traced;
}

if (DIR) {
	const load = Module._load;
	Module._load = function (request, ...rest) {
		const exports = load.call(this, request, ...rest);
		if (request === 'pg') wrapClient(exports?.Client);
		else if (/deduplication-helper$/.test(request) && exports?.DeduplicationHelper)
			wrapHelper(exports.DeduplicationHelper.prototype);
		return exports;
	};
}
