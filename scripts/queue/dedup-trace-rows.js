/**
 * What scripts/queue/dedup-trace-report.js reads in a trace: each call's statements matched to
 * PostgreSQL's log (the server's time of its read and its write), the lock rows, the kind of
 * each call, a holder's counts that overlapped its own heartbeat, lost updates, and releases that
 * found the lock row grown. The values are the engine's (nodes/CampaignAlimtalk/store/holder.ts).
 */
'use strict';

const LOCK_ENTRY = 'campaign-alimtalk-deduplication-lock';
const BEAT = /:beat:\d+$/;
/** A release that found more entries than its own removes every lock entry it may meet (holder.ts `lockEntries`: over 100). */
const GROWN_RELEASE_VALUES = 100;
const WRITES = ['update', 'insert', 'delete'];
/** PostgreSQL logs to the millisecond (truncated); the client's times are finer. */
const SLACK_MS = 2;

const rowKey = (call) => `${call.wf}|${call.ctx}`;

/**
 * Sets `server: { start, at, duration }` on each statement of each call that the log has: the
 * same server process and statement, logged between the client's send and its answer.
 */
function matchStatements(calls, statements) {
	const byPid = new Map();
	for (const s of statements) {
		if (!byPid.has(s.pid)) byPid.set(s.pid, []);
		byPid.get(s.pid).push(s);
	}
	for (const list of byPid.values()) list.sort((a, b) => a.at - b.at);
	let matched = 0;
	let unmatched = 0;
	for (const call of calls)
		for (const s of call.sql ?? []) {
			if (!['select', ...WRITES].includes(s.q)) continue;
			const list = byPid.get(s.b) ?? [];
			const found = list.find(
				(l) =>
					!l.used &&
					l.kind === s.q &&
					l.at >= Math.floor(s.sent) - SLACK_MS &&
					l.at <= s.done + SLACK_MS,
			);
			if (!found) {
				unmatched++;
				continue;
			}
			found.used = true;
			matched++;
			s.server = { start: found.start, at: found.at, duration: found.duration, error: found.error };
		}
	return { matched, unmatched };
}

/** The rows that hold a lock: any row a call recorded the lock entry in. */
function rowsOf(calls) {
	const lockRows = new Set();
	for (const call of calls) if (call.values?.includes(LOCK_ENTRY)) lockRows.add(rowKey(call));
	return { lockRows };
}

/** `<op> <lock|keys> (<what>)`: create, beat, probe, a grown release's remove. */
function kindOf(call, lockRows) {
	const lock = lockRows.has(rowKey(call));
	let what = '';
	if (lock && call.op === 'record') {
		if (call.values.every((v) => v === LOCK_ENTRY)) what = call.n > 1 ? 'create' : 'probe';
		else if (call.n === 1 && BEAT.test(call.values[0])) what = 'beat';
	}
	if (lock && call.op === 'remove')
		what = call.n > GROWN_RELEASE_VALUES ? 'release found it grown' : 'own copies';
	return `${call.op} ${lock ? 'lock' : 'keys'}${what ? ` (${what})` : ''}`;
}

const read = (call) => call.sql?.find((s) => s.q === 'select' && s.server);
const written = (call) => call.sql?.find((s) => WRITES.includes(s.q) && s.server);
const t = (ms) => new Date(ms).toISOString().slice(11, 23);

/**
 * A holder's counts of its lock row that overlapped its own heartbeat's record call; those read
 * before the beat's write landed and answered while the beat had no answer yet (what made a
 * holder forget its beat before f2057fa: holder.ts `counted`).
 */
function overlapsWithBeats(calls, lockRows) {
	const beats = calls.filter((c) => kindOf(c, lockRows) === 'record lock (beat)');
	const counts = calls.filter((c) => c.op === 'count' && lockRows.has(rowKey(c)));
	let overlaps = 0;
	const staleDuringBeat = [];
	for (const count of counts)
		for (const beat of beats) {
			if (beat.pid !== count.pid || rowKey(beat) !== rowKey(count)) continue;
			if (!(count.start < beat.end && count.end > beat.start)) continue;
			overlaps++;
			const countRead = read(count)?.server.at;
			const beatLanded = written(beat)?.server.at;
			if (
				countRead !== undefined &&
				beatLanded !== undefined &&
				countRead < beatLanded &&
				count.end > beat.start &&
				count.end < beat.end
			)
				staleDuringBeat.push(
					`${count.proc} #${count.seq}: count ${count.result} read ${t(countRead)}, answered ${t(count.end)}; beat #${beat.seq} ${beat.values[0].split(':').pop()} ${t(beat.start)}..${t(beat.end)} landed ${t(beatLanded)}`,
				);
		}
	return { counts: counts.length, beats: beats.length, overlaps, staleDuringBeat };
}

/**
 * Calls that read a row and wrote it back whole after another call's write to the same row had
 * landed (n8n's store has no transaction: the later write erases the earlier one, or lands on a
 * row made again since its read).
 */
function lostUpdates(calls) {
	const writes = calls
		.filter((c) => written(c))
		.map((c) => ({ call: c, at: written(c).server.at }));
	const found = [];
	for (const call of calls) {
		const r = read(call);
		const w = written(call);
		if (!r || !w || w.q !== 'update') continue;
		for (const other of writes) {
			if (other.call === call || rowKey(other.call) !== rowKey(call)) continue;
			if (!(other.at > r.server.at && other.at < w.server.at)) continue;
			const q = written(other.call).q;
			found.push({
				proc: call.proc,
				seq: call.seq,
				over: { proc: other.call.proc, seq: other.call.seq, q },
				text: `${call.proc} #${call.seq} ${call.op} ${call.ctx || 'workflow row'} n=${call.n}: read ${t(r.server.at)} (len ${r.len}), wrote ${t(w.server.at)} (len ${w.len}, rows ${w.rows}) over ${other.call.proc} #${other.call.seq} ${other.call.op} ${q} at ${t(other.at)}${other.call.values?.[0] ? ` (${String(other.call.values[0]).slice(-40)})` : ''}`,
			});
		}
	}
	return found;
}

/**
 * Lock-row writes that landed on a lock created after their read (a lost update over an insert):
 * the row then holds the entries of the lock they read, not the new holder's copies. Each with
 * the new lock's copies, what was written, and how long until the row was next deleted (a row
 * nobody holds stands until a waiter takes it over: lock.ts STALE_LOCK_MS).
 */
function staleLockWrites(calls, lockRows) {
	const found = new Map();
	for (const lost of lostUpdates(calls)) {
		const call = calls.find((c) => c.proc === lost.proc && c.seq === lost.seq);
		if (!lockRows.has(rowKey(call)) || lost.over.q !== 'insert') continue;
		const created = calls.find((c) => c.proc === lost.over.proc && c.seq === lost.over.seq);
		const landed = written(call).server.at;
		const nextDelete = calls
			.filter((c) => rowKey(c) === rowKey(call) && written(c)?.q === 'delete')
			.map((c) => written(c).server.at)
			.filter((at) => at > landed)
			.sort((a, b) => a - b)[0];
		found.set(call, {
			text: `${call.proc} #${call.seq} ${kindOf(call, lockRows)} read ${t(read(call).server.at)} (len ${read(call).len}), landed ${t(landed)} writing ${written(call).len} entries over the lock ${created.proc} #${created.seq} created at ${t(written(created).server.at)} with ${created.n} copies; the row next deleted ${nextDelete === undefined ? 'never' : `${((nextDelete - landed) / 1000).toFixed(1)} s later`}`,
			stallMs: nextDelete === undefined ? undefined : nextDelete - landed,
		});
	}
	return [...found.values()];
}

/** Releases that found the lock row holding more than their own (a round answered late or foreign). */
function grownReleases(calls, lockRows) {
	return calls
		.filter((c) => kindOf(c, lockRows) === 'remove lock (release found it grown)')
		.map((c) => ({ proc: c.proc, seq: c.seq, at: c.start, wf: c.wf, ctx: c.ctx }));
}

module.exports = {
	matchStatements,
	rowsOf,
	kindOf,
	overlapsWithBeats,
	lostUpdates,
	staleLockWrites,
	grownReleases,
};
