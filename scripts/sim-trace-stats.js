#!/usr/bin/env node
/**
 * The statistics of the deduplication store calls of a trace, side by side for several traces:
 * a real queue-mode run's and the simulation's (SIM_TRACE of test/CampaignAlimtalk/dedup/
 * sim-suite.ts), so that the simulation's store model can be checked against real n8n
 * (docs/deduplication.md, "The simulation").
 *
 *   node scripts/sim-trace-stats.js <trace> [<trace> ...] [--json]
 *
 * A trace is read by scripts/sim-trace-read.js (either format). Per row (lock, keys) and call
 * (count, record, remove, clear): how many, and percentiles of its duration, of the time from
 * the call to its read, from its read to its answer and from its write to its answer. Then the
 * holder's counts of the lock row that overlap its own heartbeat's write (the pattern
 * `Holder.counted` guards against, holder.beat.test.ts: a count read before the beat's write landed and answered after it was sent),
 * and how many calls each process has in flight when it makes one.
 */
const { readTrace } = require('./sim-trace-read');

const PERCENTILES = [0, 0.5, 0.9, 0.99, 1];

function percentile(sorted, p) {
	if (sorted.length === 0) return undefined;
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function summary(values) {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	const out = { n: sorted.length };
	for (const p of PERCENTILES)
		out[p === 0 ? 'min' : p === 1 ? 'max' : `p${p * 100}`] = percentile(sorted, p);
	return out;
}

/** The holder's counts of the lock row made while its heartbeat's write was under way. */
function beatOverlaps(calls) {
	const beats = calls.filter((c) => c.row === 'lock' && c.op === 'record' && c.beat);
	const counts = calls.filter((c) => c.row === 'lock' && c.op === 'count');
	let overlapping = 0;
	let answeredDuring = 0;
	let readBeforeAnsweredDuring = 0;
	for (const beat of beats) {
		for (const c of counts) {
			if (c.proc !== beat.proc || c === beat) continue;
			if (c.start < beat.end && c.end > beat.start) overlapping++;
			if (c.end > beat.start && c.end <= beat.end) answeredDuring++;
			// Finding 2's pattern: made before the beat's write, read before it landed, answered while
			// the beat waited for its own answer.
			const readEarly = beat.write !== undefined && c.read !== undefined && c.read < beat.write;
			if (readEarly && c.start < beat.start && c.end > beat.start && c.end <= beat.end)
				readBeforeAnsweredDuring++;
		}
	}
	return { beats: beats.length, overlapping, answeredDuring, readBeforeAnsweredDuring };
}

/**
 * Whole-row writes that landed late: a call's write to a row after another call made that row
 * anew (an insert) since this call read it (docs/deduplication.md, window 5: on the lock row it
 * rewrites the new holder's lock with the old one's entries). And stalls: the lock row's count
 * answered the same for 5 s or more (no holder works on it: waiters wait for a takeover).
 */
function lateWrites(calls) {
	const creates = calls.filter((c) => c.created && c.write !== undefined);
	const late = { lock: 0, keys: 0 };
	for (const c of calls) {
		if (c.read === undefined || c.write === undefined || c.created) continue;
		const id = c.row === 'lock' ? 'lock' : 'keys';
		// 1 ms of margin: PostgreSQL's log times are truncated to the millisecond.
		if (
			creates.some((d) => d !== c && d.row === c.row && d.write > c.read + 1 && d.write < c.write)
		)
			late[id]++;
	}
	const counts = calls
		.filter((c) => c.row === 'lock' && c.op === 'count' && c.ok !== false && c.result !== undefined)
		.sort((a, b) => a.end - b.end);
	const stalls = [];
	let from;
	for (let i = 1; i <= counts.length; i++) {
		const same =
			i < counts.length && counts[i].result === counts[i - 1].result && counts[i].result > 0;
		from ??= counts[i - 1].end;
		if (same) continue;
		const ms = counts[i - 1].end - from;
		if (ms >= 5000) stalls.push(Math.round(ms / 100) / 10);
		from = undefined;
	}
	// A create that lost: it found the row (n8n then writes back what it read) or its insert failed.
	const attempts = calls.filter((c) => c.row === 'lock' && c.op === 'record' && !c.beat && c.n > 1);
	const foundRow = attempts.filter((c) => !c.created && c.ok !== false && c.write !== undefined);
	return {
		lateLock: late.lock,
		lateKeys: late.keys,
		createsFoundRow: foundRow.length,
		createsFailed: attempts.filter((c) => c.ok === false).length,
		stalls: stalls.length,
		stallSeconds: stalls.join(' '),
	};
}

/** How many calls of the same process are in flight when a process makes a call (itself included). */
function inFlight(calls) {
	const byProc = new Map();
	for (const c of calls) byProc.set(c.proc, [...(byProc.get(c.proc) ?? []), c]);
	const seen = [];
	for (const list of byProc.values())
		for (const c of list)
			seen.push(list.filter((o) => o.start <= c.start && o.end > c.start).length);
	return summary(seen);
}

function stats(calls) {
	const ops = {};
	for (const c of calls) {
		const key = `${c.row}.${c.op}`;
		(ops[key] ??= []).push(c);
	}
	const perOp = {};
	for (const [key, list] of Object.entries(ops).sort()) {
		perOp[key] = {
			duration: summary(list.map((c) => c.end - c.start)),
			toRead: summary(list.map((c) => (c.read === undefined ? NaN : c.read - c.start))),
			readToAnswer: summary(list.map((c) => (c.read === undefined ? NaN : c.end - c.read))),
			writeToAnswer: summary(list.map((c) => (c.write === undefined ? NaN : c.end - c.write))),
		};
	}
	return {
		calls: calls.length,
		perOp,
		beat: beatOverlaps(calls),
		late: lateWrites(calls),
		inFlight: inFlight(calls),
	};
}

function row(label, values) {
	return `${label.padEnd(34)}${values.map((v) => String(v ?? '-').padStart(28)).join('')}`;
}

const fmt = (s) =>
	s === undefined || s.n === 0
		? '-'
		: `${s.n}: ${[s.min, s.p50, s.p90, s.p99, s.max].map((v) => Math.round(v)).join('/')}`;

function main() {
	const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
	if (files.length === 0) {
		console.error('usage: node scripts/sim-trace-stats.js <trace> [<trace> ...] [--json]');
		process.exit(2);
	}
	const all = files.map((f) => stats(readTrace(f)));
	if (process.argv.includes('--json')) {
		console.log(JSON.stringify(Object.fromEntries(files.map((f, i) => [f, all[i]])), null, 1));
		return;
	}
	console.log(
		row(
			'',
			files.map((f) => f.split('/').slice(-2).join('/').slice(-26)),
		),
	);
	console.log(
		row(
			'calls',
			all.map((s) => s.calls),
		),
	);
	console.log('per call: n: min/p50/p90/p99/max ms');
	const keys = [...new Set(all.flatMap((s) => Object.keys(s.perOp)))].sort();
	for (const key of keys)
		for (const what of ['duration', 'toRead', 'readToAnswer', 'writeToAnswer'])
			console.log(
				row(
					`${key} ${what}`,
					all.map((s) => fmt(s.perOp[key]?.[what])),
				),
			);
	for (const what of ['beats', 'overlapping', 'answeredDuring', 'readBeforeAnsweredDuring'])
		console.log(
			row(
				`holder counts vs beats: ${what}`,
				all.map((s) => s.beat[what]),
			),
		);
	for (const what of [
		'createsFoundRow',
		'createsFailed',
		'lateLock',
		'lateKeys',
		'stalls',
		'stallSeconds',
	])
		console.log(
			row(
				`rows: ${what}`,
				all.map((s) => s.late[what]),
			),
		);
	console.log(
		row(
			'in flight per process',
			all.map((s) => fmt(s.inFlight)),
		),
	);
}

main();
