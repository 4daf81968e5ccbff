/**
 * The performance targets, checked on the results of one run. What is compared with what comes
 * from the workload table (workloads.cjs): a package entry's `baseline` and `minimal`, an
 * alternative's `compare`. Each target: `{ group, target, measured, limit, met, note }`, `met`
 * undefined for figures given as information.
 */
import { MB, fmt, ms } from './format.mjs';

/** Wall time, CPU and memory of a package workload against n8n's own cost (its No Operation baseline). */
function packageTargets(r, base, add) {
	const w = r.workload;
	add(
		r.group,
		`${r.id}: requests at the physical minimum`,
		fmt(r.requests),
		fmt(w.requests),
		r.requestsPerRun.every((n) => n === w.requests),
	);
	if (!base) return;
	const engine = (base.wallMs * r.items) / base.items;
	const nominal = 1.1 * ((w.requests * w.latency) / w.concurrency + engine);
	// What the sandbox itself took (its latency plus its own processing of each request).
	const service = 1.1 * (r.serviceMs / w.concurrency + engine);
	const metNominal = r.wallMs <= nominal;
	add(
		r.group,
		`${r.id}: wall time <= 1.1 x (requests x latency / concurrency + No Operation's time)`,
		ms(r.wallMs),
		`${ms(nominal)}; ${ms(service)} counting the sandbox's own ${fmt(r.meanRequestMs, 1)} ms a request`,
		metNominal,
		metNominal
			? undefined
			: r.wallMs <= service
				? "met against the sandbox's measured time"
				: undefined,
	);
	if (w.group !== 'send') {
		const perRow = ((r.cpuMs - (base.cpuMs * r.items) / base.items) * 1000) / r.items;
		add(
			r.group,
			`${r.id}: package CPU per row beyond No Operation <= 5 µs`,
			`${fmt(perRow, 2)} µs`,
			'5 µs',
			perRow <= 5,
		);
		const ratio = r.rssGrowthBytes / base.rssGrowthBytes;
		const live = r.heapLiveGrowthBytes / base.heapLiveGrowthBytes;
		add(
			r.group,
			`${r.id}: peak RSS growth <= 1.5 x No Operation's`,
			`${fmt(r.rssGrowthBytes / MB)} MB (${fmt(ratio, 2)}x); heap kept after the run ${fmt(r.heapLiveGrowthBytes / MB)} MB (${fmt(live, 2)}x)`,
			`${fmt((1.5 * base.rssGrowthBytes) / MB)} MB`,
			ratio <= 1.5,
		);
		return;
	}
	const perSend = ((r.cpuMs - (base.cpuMs * r.items) / base.items) * 1000) / r.items;
	add(
		r.group,
		`${r.id}: CPU per send beyond No Operation (information)`,
		`${fmt(perSend)} µs`,
		'–',
		undefined,
		"one request per row through n8n's request helper",
	);
	const rate = r.items / (r.wallMs / 1000);
	const ceiling = w.concurrency / (w.latency / 1000);
	const sending = r.items / (r.requestSpanMs / 1000);
	add(
		r.group,
		`${r.id}: sends >= 90% of concurrency / latency`,
		`${fmt(rate, 1)}/s (${fmt((100 * rate) / ceiling, 1)}%) over the node's run; ${fmt(sending, 1)}/s (${fmt((100 * sending) / ceiling, 1)}%) from the first request to the last`,
		`${fmt(0.9 * ceiling, 1)}/s`,
		rate >= 0.9 * ceiling,
		rate < 0.9 * ceiling && sending >= 0.9 * ceiling
			? "met once the parameters of every item are read (n8n's expression engine, before the first send)"
			: undefined,
	);
}

/** The package against a minimal node doing the same requests through n8n without its checks. */
function minimalTargets(pkg, minimal, noop, add) {
	if (pkg.group === 'send') {
		const ratio = pkg.rowsPerSecond / minimal.rowsPerSecond;
		add(
			'send',
			`${pkg.id}: sends >= 90% of the minimal send node's rate (the same sends through n8n's request helper, no checks)`,
			`${fmt(pkg.rowsPerSecond, 1)}/s vs ${fmt(minimal.rowsPerSecond, 1)}/s (${fmt(100 * ratio, 1)}%)`,
			'90%',
			ratio >= 0.9,
		);
		return;
	}
	if (noop) {
		add(
			pkg.group,
			`${pkg.id} vs a minimal node sending the same bodies (information: the engine's share)`,
			`package ${fmt(((pkg.cpuMs - noop.cpuMs) * 1000) / pkg.items, 2)} µs/row, minimal node ${fmt(((minimal.cpuMs - noop.cpuMs) * 1000) / minimal.items, 2)} µs/row beyond No Operation; wall ${fmt(pkg.wallMs)} vs ${fmt(minimal.wallMs)} ms; peak RSS growth ${fmt(pkg.rssGrowthBytes / MB)} vs ${fmt(minimal.rssGrowthBytes / MB)} MB`,
			'–',
			undefined,
			'what n8n costs for the same bulk requests and new items, with or without checks',
		);
	}
	// The engine's own cost of the same job: the same requests and new items through n8n, with
	// nothing of this package's checks, merging and failure routing.
	add(
		pkg.group,
		`${pkg.id}: wall time <= 1.1 x the minimal node's (the same requests through n8n, no checks)`,
		ms(pkg.wallMs),
		ms(1.1 * minimal.wallMs),
		pkg.wallMs <= 1.1 * minimal.wallMs,
	);
	const own = ((pkg.cpuMs - minimal.cpuMs) * 1000) / pkg.items;
	add(
		pkg.group,
		`${pkg.id}: the package's own CPU per row beyond the minimal node <= 5 µs`,
		`${fmt(own, 2)} µs`,
		'5 µs',
		own <= 5,
	);
}

/** An alternative (the same job with n8n's own nodes) against the package, by the entry's `compare.rule`. */
function compareTargets(alt, pkg, rule, add) {
	if (rule === 'rows50') {
		const ratio = pkg.rowsPerSecond / alt.rowsPerSecond;
		const cpuRatio = alt.cpuMs / alt.items / (pkg.cpuMs / pkg.items);
		add(
			alt.group,
			`${pkg.id} vs ${alt.id} (${alt.label}): >= 50x rows/s`,
			`${fmt(ratio, 1)}x rows/s; ${fmt(cpuRatio)}x less CPU a row`,
			'50x',
			ratio >= 50,
			alt.maxInFlight > 10
				? `n8n sent the ${fmt(alt.items)} requests at once (${fmt(alt.maxInFlight)} in flight), which a real service would throttle`
				: undefined,
		);
	} else if (rule === 'noSlower') {
		const ratio = alt.measuredMs / pkg.measuredMs;
		add(
			alt.group,
			`package vs ${alt.label} (n8n command line, ${fmt(pkg.items)} members): no slower`,
			`${ms(pkg.measuredMs)} vs ${ms(alt.measuredMs)} (${fmt(ratio, 2)}x faster)`,
			'>= 1x',
			ratio >= 1,
			'time in the nodes doing the job, as n8n records it',
		);
	} else {
		add(
			pkg.group,
			`${pkg.id} vs ${alt.id} (information)`,
			`rows/s ${fmt(alt.rowsPerSecond / pkg.rowsPerSecond, 2)}x, CPU a row ${fmt(alt.cpuMs / alt.items / (pkg.cpuMs / pkg.items), 2)}x, peak RSS growth ${fmt(alt.rssGrowthBytes / pkg.rssGrowthBytes, 2)}x (${fmt(alt.items)} vs ${fmt(pkg.items)} items)`,
			'–',
			undefined,
			'the alternative / this package',
		);
	}
}

/** Every target the results allow (a comparison whose entries did not run is left out). */
export function evaluate(results) {
	const by = Object.fromEntries(results.map((r) => [r.id, r]));
	const targets = [];
	const add = (group, target, measured, limit, met, note) =>
		targets.push({ group, target, measured, limit, met, note });
	const packages = results.filter((r) => r.kind === 'package' && !r.workload.cli);
	for (const r of packages.filter((x) => !x.workload.comparisonOnly))
		packageTargets(r, by[r.workload.baseline?.id], add);
	for (const r of packages) {
		const minimal = by[r.workload.minimal?.id];
		if (minimal) minimalTargets(r, minimal, by[r.workload.baseline?.id], add);
	}
	for (const alt of results.filter((r) => r.workload.compare)) {
		for (const entry of alt.workload.compare.with)
			if (by[entry.id]) compareTargets(alt, by[entry.id], alt.workload.compare.rule, add);
	}
	return targets;
}
