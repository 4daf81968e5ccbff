#!/usr/bin/env node
/**
 * Reads a traced queue run (DEDUP_TRACE_DIR: the tracer's JSONL files, scripts/queue/dedup-trace.js,
 * and PostgreSQL's statement log, scripts/queue/statement-log.js) and prints, per kind of store
 * call: how many, their durations (p50/p90/p99/max), the delay from the SQL read on the server to
 * the answer in the process, and from the read to the write; the lock-row counts of a holder
 * that overlapped its own heartbeat; every write that landed over another call's write to the
 * same row (it read the row before that write and wrote after it: a lost update); every release
 * that found its lock row grown (a round answered late or foreign) with the lock row's calls
 * around it; and, given the measurement's figures (bench/dedup-copies.mjs), the executions whose
 * answers were not sent or duplicate.
 *
 *   node scripts/queue/dedup-trace-report.js <trace dir> [--figures figures.json] [--json out.json]
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { readStoreStatements } = require('./statement-log.js');
const rows = require('./dedup-trace-rows.js');

const { kindOf } = rows;

function percentiles(values) {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return undefined;
	const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
	const round = (v) => Math.round(v * 100) / 100;
	return {
		n: sorted.length,
		p50: round(at(0.5)),
		p90: round(at(0.9)),
		p99: round(at(0.99)),
		max: round(sorted.at(-1)),
	};
}

function load(dir) {
	const calls = [];
	for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')))
		for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n'))
			if (line.trim()) calls.push(JSON.parse(line));
	calls.sort((a, b) => a.start - b.start);
	const statements = fs
		.readdirSync(dir)
		.filter((f) => /^postgres-.*\.log$/.test(f))
		.flatMap((f) => readStoreStatements(path.join(dir, f)));
	return { calls, statements };
}

/** Per kind of call: durations, and the delays between the server's read and write and the answer. */
function perKind(calls, lockRows) {
	const groups = new Map();
	for (const call of calls) {
		const kind = kindOf(call, lockRows);
		if (!groups.has(kind)) groups.set(kind, []);
		groups.get(kind).push(call);
	}
	const table = {};
	for (const [kind, list] of [...groups].sort()) {
		const read = (c) => c.sql.find((s) => s.q === 'select' && s.server);
		const write = (c) =>
			c.sql.find((s) => ['update', 'insert', 'delete'].includes(s.q) && s.server);
		table[kind] = {
			calls: list.length,
			failed: list.filter((c) => !c.ok).length,
			durationMs: percentiles(list.map((c) => c.end - c.start)),
			readToAnswerMs: percentiles(list.map((c) => read(c) && c.end - read(c).server.at)),
			readToWriteMs: percentiles(
				list.map((c) => read(c) && write(c) && write(c).server.at - read(c).server.at),
			),
			writeToAnswerMs: percentiles(list.map((c) => write(c) && c.end - write(c).server.at)),
		};
	}
	return table;
}

const fmt = (p) => (p ? `${p.p50} / ${p.p90} / ${p.p99} / ${p.max}` : '-');
const time = (t) => new Date(t).toISOString().slice(11, 23) + String((t % 1).toFixed(3)).slice(1);

function callLine(call, lockRows) {
	const sql = call.sql
		.filter((s) => s.server || s.error)
		.map(
			(s) =>
				`${s.q}@${s.server ? time(s.server.at) : '?'}${s.len === undefined ? '' : ` len ${s.len}`}${s.error ? ` ERR ${s.error.slice(0, 40)}` : ''}`,
		)
		.join(', ');
	const result = call.ok
		? call.result === undefined
			? ''
			: ` -> ${call.result}`
		: ` FAILED ${call.error}`;
	return `${time(call.start)}..${time(call.end)} ${call.proc} #${call.seq} ${kindOf(call, lockRows)} n=${call.n}${result} [${sql}]`;
}

function main() {
	const args = process.argv.slice(2);
	const dir = args.find((a) => !a.startsWith('--'));
	const option = (name) =>
		args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined;
	if (!dir) {
		console.error(
			'usage: dedup-trace-report.js <trace dir> [--figures figures.json] [--json out.json]',
		);
		process.exit(2);
	}
	const { calls, statements } = load(dir);
	const matched = rows.matchStatements(calls, statements);
	const { lockRows } = rows.rowsOf(calls);
	const report = {
		calls: calls.length,
		processes: [...new Set(calls.map((c) => c.proc))].sort(),
		statements: {
			logged: statements.length,
			matched: matched.matched,
			unmatched: matched.unmatched,
		},
		perKind: perKind(calls, lockRows),
		beatOverlaps: rows.overlapsWithBeats(calls, lockRows),
		lostUpdates: rows.lostUpdates(calls),
		staleLockWrites: rows.staleLockWrites(calls, lockRows),
		grownReleases: rows.grownReleases(calls, lockRows),
	};
	const out = [];
	out.push(
		`${report.calls} store calls by ${report.processes.join(', ')}; ${statements.length} store statements in the PostgreSQL log, ${matched.matched} matched to a call (${matched.unmatched} of the calls' statements not found)`,
	);
	out.push(
		'',
		'Per kind of call (ms, p50 / p90 / p99 / max):',
		'| kind | calls | failed | duration | read to answer | read to write | write to answer |',
		'|---|---:|---:|---|---|---|---|',
	);
	for (const [kind, k] of Object.entries(report.perKind))
		out.push(
			`| ${kind} | ${k.calls} | ${k.failed} | ${fmt(k.durationMs)} | ${fmt(k.readToAnswerMs)} | ${fmt(k.readToWriteMs)} | ${fmt(k.writeToAnswerMs)} |`,
		);
	const o = report.beatOverlaps;
	out.push(
		'',
		`Lock-row counts of a holder overlapping its own heartbeat: ${o.overlaps} (of ${o.counts} counts, ${o.beats} beats); read before the beat landed and answered while the beat was unanswered: ${o.staleDuringBeat.length}`,
	);
	for (const s of o.staleDuringBeat.slice(0, 20)) out.push(`  ${s}`);
	out.push(
		'',
		`Writes that landed over another call's write to the same row (read before it, written after it): ${report.lostUpdates.length}`,
	);
	for (const l of report.lostUpdates.slice(0, 40)) out.push(`  ${l.text}`);
	out.push(
		'',
		`Lock-row writes that landed on a lock made after their read: ${report.staleLockWrites.length}`,
	);
	for (const w of report.staleLockWrites) out.push(`  ${w.text}`);
	out.push(
		'',
		`Releases that found the lock row grown (a round answered late or foreign): ${report.grownReleases.length}`,
	);
	const figures = option('figures') && JSON.parse(fs.readFileSync(option('figures'), 'utf8'));
	for (const g of report.grownReleases) {
		out.push(
			'',
			`- ${g.proc} at ${time(g.at)} (the lock row's calls from 3 s before to 0.5 s after):`,
		);
		for (const call of calls.filter(
			(c) => c.wf === g.wf && c.ctx === g.ctx && c.end >= g.at - 3000 && c.start <= g.at + 500,
		))
			out.push(`    ${callLine(call, lockRows)}`);
	}
	if (figures) {
		out.push(
			'',
			`Executions answered other than sent or duplicate (figures): ${figures.unusual?.length ?? 0}`,
		);
		for (const e of figures.unusual ?? [])
			out.push(
				`  execution ${e.id} on ${e.worker}, ${e.startedAt} .. ${e.stoppedAt}: ${e.status} ${e.error ?? ''} ${JSON.stringify(e.answer ?? null).slice(0, 300)}`,
			);
	}
	console.log(out.join('\n'));
	if (option('json')) fs.writeFileSync(option('json'), `${JSON.stringify(report, null, 2)}\n`);
}

main();
