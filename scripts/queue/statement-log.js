/**
 * PostgreSQL's statement log of a traced cluster (DEDUP_TRACE_DIR: scripts/queue/services.js
 * turns it on, log_line_prefix `%m [%p] `): kept for n8n's deduplication store only, and read
 * back as records. Every statement of a run is logged (about 300 MB for 2,000 executions); what
 * is kept is each statement on processed_data as the server executed it (`execute`, or
 * `statement` for the simple protocol) with its bound values (`DETAIL: parameters`), and every
 * error whose statement was on processed_data.
 */
'use strict';
const fs = require('node:fs');
const readline = require('node:readline');

const PREFIX = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (\w+) \[(\d+)\] (\w+):  (.*)$/;

/** One log record (a prefixed line and the lines that continue it) from its lines. */
function recordOf(lines) {
	const m = PREFIX.exec(lines[0]);
	if (!m) return undefined;
	const [, stamp, zone, pid, level, message] = m;
	const at = Date.parse(`${stamp.replace(' ', 'T')}${zone === 'UTC' ? 'Z' : ''}`);
	return { at, pid: Number(pid), level, text: [message, ...lines.slice(1)].join('\n') };
}

const ON_STORE = /processed_data/;
const PROTOCOL_STEP = /^duration: [\d.]+ ms {2}(parse|bind) /;

/** Copies from `source` to `dest` only the records on n8n's deduplication store. */
async function keepStoreStatements(source, dest) {
	const out = fs.openSync(dest, 'w');
	const lastByPid = new Map();
	let pendingError;
	let lines = [];
	const flush = () => {
		const record = lines.length > 0 ? recordOf(lines) : undefined;
		const text = lines.join('\n');
		lines = [];
		if (!record) return;
		let keep = ON_STORE.test(record.text) && !PROTOCOL_STEP.test(record.text);
		if (record.level === 'DETAIL') keep = lastByPid.get(record.pid) === true;
		if (record.level === 'ERROR') {
			pendingError = { pid: record.pid, text };
			return;
		}
		if (record.level === 'STATEMENT' && pendingError?.pid === record.pid && keep)
			fs.writeSync(out, `${pendingError.text}\n`);
		if (record.level !== 'DETAIL') pendingError = undefined;
		if (record.level !== 'DETAIL') lastByPid.set(record.pid, keep);
		if (keep) fs.writeSync(out, `${text}\n`);
	};
	const input = readline.createInterface({
		input: fs.createReadStream(source),
		crlfDelay: Infinity,
	});
	for await (const line of input) {
		if (PREFIX.test(line)) flush();
		lines.push(line);
	}
	flush();
	fs.closeSync(out);
}

/**
 * The kept log's statements: `{ at, start, pid, kind, duration, params, error }`, `at` the
 * server's time when it logged the statement's end (epoch ms, to the millisecond), `start` that
 * less its duration, `kind` select, update, insert or delete.
 */
function readStoreStatements(file) {
	const records = [];
	let lines = [];
	const flush = () => {
		const record = lines.length > 0 ? recordOf(lines) : undefined;
		lines = [];
		if (record) records.push(record);
	};
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		if (PREFIX.test(line)) flush();
		if (line) lines.push(line);
	}
	flush();
	const statements = [];
	for (const record of records) {
		const done = /^duration: ([\d.]+) ms {2}(?:execute \S+|statement): (\w+)/.exec(record.text);
		if (done) {
			const duration = Number(done[1]);
			statements.push({
				at: record.at,
				start: record.at - duration,
				pid: record.pid,
				kind: done[2].toLowerCase(),
				duration,
			});
		} else if (record.level === 'DETAIL' && statements.at(-1)?.pid === record.pid)
			statements.at(-1).params = record.text.replace(/^parameters: /, '');
		else if (record.level === 'ERROR')
			statements.push({ at: record.at, start: record.at, pid: record.pid, error: record.text });
		else if (record.level === 'STATEMENT' && statements.at(-1)?.error && !statements.at(-1).kind)
			statements.at(-1).kind = /^(\w+)/.exec(record.text)[1].toLowerCase();
	}
	return statements;
}

module.exports = { keepStoreStatements, readStoreStatements };
