/**
 * Reads the store calls of a trace for scripts/sim-trace-stats.js and scripts/sim-calibrate.js,
 * as one list of calls `{ proc, op, row, start, read, write, end, beat, held, created, steps }` (ms), in
 * the order they were made:
 * - the simulation's SIM_TRACE (test/CampaignAlimtalk/dedup/sim-suite.ts): its `timing` lines, or
 *   a folder of such traces (`*.trace`, one per seed, as SIM_TRACE=<folder>/%s.trace writes them);
 * - a real queue-mode trace: a folder of the store-call tracer's JSON lines (one file per n8n
 *   process, `*.jsonl`: one line per call with its `sql` statements, `sent` and `done` on the
 *   client) and PostgreSQL's statement log of the same run (`*.log`, prefix `%m [%p] `), which
 *   gives when the database ran each statement: `read` is when the call's select started on the
 *   server, `write` when its insert, update or delete ended there. Each call also gets its
 *   `steps`: per statement, the time from the call (or the last answer) to the server starting
 *   it (`before`) and from its end there to the answer back in the process (`after`).
 */
const fs = require('node:fs');
const path = require('node:path');

const LOG_LINE = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (\w+) \[(\d+)\] (\w+): {2}(.*)$/;
const EXECUTED = /^duration: ([\d.]+) ms {2}(?:execute \S+|statement): (\w+)/;

/** The statements PostgreSQL ran on processed_data, by server process: `{ start, end, kind }`. */
function serverStatements(file) {
	const byPid = new Map();
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const m = LOG_LINE.exec(line);
		if (!m) continue;
		const [, stamp, zone, pid, , message] = m;
		const done = EXECUTED.exec(message);
		if (!done || !/processed_data/i.test(message)) continue;
		const end = Date.parse(`${stamp.replace(' ', 'T')}${zone === 'UTC' ? 'Z' : ''}`);
		const list = byPid.get(Number(pid)) ?? [];
		list.push({ start: end - Number(done[1]), end, kind: done[2].toLowerCase() });
		byPid.set(Number(pid), list);
	}
	return byPid;
}

const STATEMENTS = ['select', 'insert', 'update', 'delete'];

/**
 * The server's run of a client statement: same server process and kind, its log time (the end,
 * truncated to the millisecond) within [floor(sent) - 2, done + 2] (the traces' README).
 */
function matchOf(statement, byPid) {
	const list = byPid.get(statement.b) ?? [];
	const from = Math.floor(statement.sent) - 2;
	return list.find((s) => s.kind === statement.q && s.end >= from && s.end <= statement.done + 2);
}

/** One call of the tracer, with its server times when the statement log has them. */
function realCall(record, byPid) {
	const statements = (record.sql ?? []).filter((s) => STATEMENTS.includes(s.q));
	let last = record.start;
	const steps = [];
	let read;
	let write;
	let created = false;
	for (const s of statements) {
		const server = matchOf(s, byPid);
		const ranAt = server ? server.start : (s.sent + s.done) / 2;
		const endedAt = server ? server.end : ranAt;
		steps.push({
			step: s.q === 'select' ? 'find' : s.q,
			before: ranAt - last,
			after: s.done - endedAt,
			matched: server !== undefined,
		});
		last = s.done;
		if (s.q === 'select' && read === undefined) read = ranAt;
		// A write that failed (a create that lost) or updated no row (it was deleted) wrote nothing.
		const wrote = s.q !== 'select' && !s.error && (s.q !== 'update' || s.rows !== 0);
		if (wrote) write = endedAt;
		if (wrote && s.q === 'insert') created = true;
	}
	if (steps.length > 0) steps[steps.length - 1].after += record.end - last;
	return {
		proc: `${record.proc}:${record.pid}`,
		op: record.op,
		row: record.scope === 'workflow' ? 'lock' : 'keys',
		start: record.start,
		read,
		write,
		end: record.end,
		ok: record.ok,
		result: record.result,
		n: record.n,
		...((record.values ?? []).some((v) => /:beat:\d+$/.test(v)) ? { beat: true } : {}),
		...(created ? { created } : {}),
		steps,
	};
}

/** Marks the calls a process made while it held the lock: from its create (an insert) to its clear. */
function markHeld(calls) {
	const holding = new Map();
	for (const c of calls) {
		if (holding.get(c.proc)) c.held = true;
		if (c.row !== 'lock') continue;
		if (c.op === 'record' && c.created) holding.set(c.proc, true);
		if (c.op === 'clear') holding.set(c.proc, false);
	}
	return calls;
}

function readRealTrace(dir) {
	const files = fs.readdirSync(dir);
	const byPid = new Map();
	for (const log of files.filter((f) => f.endsWith('.log')))
		for (const [pid, list] of serverStatements(path.join(dir, log)))
			byPid.set(pid, [...(byPid.get(pid) ?? []), ...list]);
	const calls = [];
	for (const file of files.filter((f) => f.endsWith('.jsonl')))
		for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n'))
			if (line.startsWith('{')) calls.push(realCall(JSON.parse(line), byPid));
	return markHeld(calls.sort((a, b) => a.start - b.start));
}

/** The simulation's traces of several seeds (a folder of `*.trace`), each on its own stretch of time. */
function readSimTraces(dir) {
	const files = fs.readdirSync(dir).filter((f) => f.endsWith('.trace'));
	return files.flatMap((f, i) =>
		readTrace(path.join(dir, f)).map((c) => {
			const shift = (x) => (x === undefined ? x : x + i * 1e8);
			return {
				...c,
				proc: `${f}:${c.proc}`,
				start: shift(c.start),
				read: shift(c.read),
				write: shift(c.write),
				end: shift(c.end),
			};
		}),
	);
}

function readTrace(file) {
	if (fs.statSync(file).isDirectory())
		return fs.readdirSync(file).some((f) => f.endsWith('.trace'))
			? readSimTraces(file)
			: readRealTrace(file);
	const calls = [];
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const at = line.indexOf(' timing {');
		if (at !== -1) calls.push(JSON.parse(line.slice(at + 8)));
		else if (line.startsWith('{')) calls.push(JSON.parse(line));
	}
	return calls.sort((a, b) => a.start - b.start);
}

module.exports = { readTrace };
