/**
 * The markdown of the queue-mode workloads (bench/queue.mjs): the table of this tree's runs, the
 * store call figures, the ratios of each entry's `compare` setting, and with --baseline the same
 * ratios for the baseline tree beside this one's.
 */
import { fmt } from './format.mjs';

function ratioLines(results, workloads, tag = '') {
	const byId = Object.fromEntries(results.map((r) => [r.id, r]));
	return workloads
		.filter((w) => w.compare && byId[w.id]?.wallMs && byId[w.compare.with]?.wallMs)
		.map((w) => {
			const a = byId[w.id];
			const b = byId[w.compare.with];
			return `- ${w.compare.label}${tag}: ${fmt(b.wallMs / a.wallMs, 2)}x (${fmt(a.wallMs / 1000, 2)} s against ${fmt(b.wallMs / 1000, 2)} s)`;
		});
}

/** The queue-mode table and its ratios, from the workloads' `compare` settings; `baseline` (results of the other tree) adds its ratios and walls. */
export function queueMarkdown(results, workloads, machine, baseline) {
	const lines = [
		'',
		`n8n queue mode on this machine (${machine.cpu}, ${machine.memory} RAM): PostgreSQL, Redis, main, one webhook process and the workers (worker concurrency 10), every process on the same cores; the fastest of the runs (wall times of every run in the JSON report).`,
		'',
	];
	lines.push('| Workload | Items | Requests | Latency (ms) | Wall (s) | Items/s | Runs |');
	lines.push('|---|---:|---:|---:|---:|---:|---:|');
	for (const r of results)
		lines.push(
			`| ${r.label} (\`${r.id}\`) | ${fmt(r.items)} | ${fmt(r.requests)} | ${fmt(r.latency)} | ${fmt(r.wallMs / 1000, 2)} | ${fmt(r.items / (r.wallMs / 1000), 1)} | ${r.raw.length} |`,
		);
	const stores = results.filter((r) => r.storeCallMs);
	if (stores.length > 0) lines.push('');
	for (const r of stores) {
		const c = r.storeCallMs;
		lines.push(
			`- \`${r.id}\`: one store call (read the record, write it back whole) ${fmt(c.p50, 1)} ms, at most ${fmt(c.max, 1)} ms; on a record of a few entries (the lock) ${fmt(c.lockP50, 1)} ms, at most ${fmt(c.lockMax, 1)} ms (20 calls each)`,
		);
	}
	const ratios = ratioLines(results, workloads);
	if (baseline) {
		const before = Object.fromEntries(baseline.results.map((r) => [r.id, r]));
		lines.push(
			'',
			`The same entries with the package of the baseline (${baseline.commit}), runs alternating with this tree's:`,
			'',
		);
		lines.push(
			'| Workload | Wall (s), baseline | Wall (s), this tree | This tree against the baseline |',
		);
		lines.push('|---|---:|---:|---:|');
		for (const r of results.filter((x) => x.wallMs && before[x.id]?.wallMs))
			lines.push(
				`| \`${r.id}\` | ${fmt(before[r.id].wallMs / 1000, 2)} | ${fmt(r.wallMs / 1000, 2)} | ${fmt(before[r.id].wallMs / r.wallMs, 2)}x |`,
			);
		ratios.push(...ratioLines(baseline.results, workloads, `, baseline ${baseline.commit}`));
	}
	if (ratios.length > 0) lines.push('', ...ratios);
	return lines;
}
