/**
 * The report of a run: the machine, a markdown table of every workload (and of the n8n command
 * line comparisons), the targets, and with --baseline the two trees side by side.
 */
import os from 'node:os';
import { MB, fmt } from './format.mjs';

export function machine() {
	const cpus = os.cpus();
	return {
		cpu: `${cpus[0]?.model ?? 'unknown'} x ${cpus.length}`,
		memory: `${fmt(os.totalmem() / 1024 ** 3, 0)} GB`,
		os: `${os.type()} ${os.release()}`,
		node: process.version,
		loadAverageAtStart: os.loadavg().map((n) => Number(n.toFixed(2))),
	};
}

/** Median and spread ((max - min) / median) of one figure over a workload's runs. */
function spread(result, pick) {
	const values = result.raw.map(pick).filter((v) => Number.isFinite(v));
	if (values.length === 0) return '–';
	const median = pick(result);
	return `${fmt((100 * (Math.max(...values) - Math.min(...values))) / median, 0)}%`;
}

const change = (now, before) =>
	before ? `${now >= before ? '+' : ''}${fmt((100 * (now - before)) / before, 1)}%` : '–';

/** This tree against the baseline tree, workload by workload (medians, runs alternating). */
function baselineLines(report) {
	const lines = [];
	const before = Object.fromEntries(report.baseline.results.map((r) => [r.id, r]));
	lines.push('');
	lines.push(
		`This tree against the baseline \`${report.baseline.dir}\` (${report.baseline.commit}), the same workloads alternating run by run (medians; spread = (max - min) / median of each side's runs):`,
	);
	lines.push('');
	lines.push(
		'| Workload | Wall now (s) | Wall before (s) | Change | CPU now (s) | CPU before (s) | Change | Spread now / before (wall) |',
	);
	lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
	for (const r of report.results) {
		const b = before[r.id];
		if (!b) continue;
		lines.push(
			`| \`${r.id}\` | ${fmt(r.wallMs / 1000, 2)} | ${fmt(b.wallMs / 1000, 2)} | ${change(r.wallMs, b.wallMs)} | ${fmt(r.cpuMs / 1000, 2)} | ${fmt(b.cpuMs / 1000, 2)} | ${change(r.cpuMs, b.cpuMs)} | ${spread(r, (x) => x.wallMs)} / ${spread(b, (x) => x.wallMs)} |`,
		);
	}
	return lines;
}

export function markdown(report) {
	const lines = [];
	const m = report.machine;
	lines.push(
		`Measured ${report.date} on ${m.cpu}, ${m.memory} RAM, ${m.os}; n8n ${report.n8n.version} engine (n8n-core ${report.n8n.core}, in-process on Node ${m.node.replace(/^v/, '')}); n8n's own nodes from n8n ${report.n8n.version}; Code node comparison through the n8n ${report.n8n.version} command line on Node ${report.n8n.cliNode}. Sandbox latency ${report.options.latencyMs} ms a request (sends ${report.options.sendLatencyMs} ms); median of ${report.options.runs} runs, each in a fresh process after a warm-up.`,
	);
	lines.push('');
	lines.push(
		'| Workload | Items | Requests | In flight | Wall (s) | CPU (s) | CPU/row (µs) | Peak RSS growth (MB) | Heap kept (MB) | Rows/s |',
	);
	lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
	for (const r of report.results) {
		lines.push(
			`| ${r.label} (\`${r.id}\`) | ${fmt(r.items)} | ${fmt(r.requests)} | ${fmt(r.maxInFlight)} | ${fmt(r.wallMs / 1000, 2)} | ${fmt(r.cpuMs / 1000, 2)} | ${fmt((r.cpuMs * 1000) / r.items, 1)} | ${fmt(r.rssGrowthBytes / MB)} | ${fmt(r.heapLiveGrowthBytes / MB)} | ${fmt(r.rowsPerSecond)} |`,
		);
	}
	if (report.cli?.length) {
		lines.push('');
		lines.push(
			'Through the n8n command line (`n8n execute`, cold process each run; times as n8n records them):',
		);
		lines.push('');
		lines.push(
			'| Workload | Items | Requests | Nodes doing the job (ms) | Whole execution (ms) | Process incl. start-up (s) |',
		);
		lines.push('|---|---:|---:|---:|---:|---:|');
		for (const c of report.cli) {
			lines.push(
				`| ${c.label} (\`${c.id}\`) | ${fmt(c.items)} | ${fmt(c.requests)} | ${fmt(c.measuredMs)} | ${fmt(c.executionMs)} | ${fmt(c.processMs / 1000, 1)} |`,
			);
		}
	}
	if (report.baseline) lines.push(...baselineLines(report));
	lines.push('');
	lines.push('| Target | Measured | Limit | Met |');
	lines.push('|---|---|---|---|');
	for (const t of report.targets) {
		lines.push(
			`| ${t.target} | ${t.measured} | ${t.limit} | ${t.met === undefined ? '–' : t.met ? 'yes' : '**no**'}${t.note ? ` (${t.note})` : ''} |`,
		);
	}
	return lines.join('\n');
}
