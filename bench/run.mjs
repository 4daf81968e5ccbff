/**
 * `npm run bench`: the workloads of issue 7, side by side with what users would build without
 * this package, through n8n's real engine, against the local API sandbox with a fixed
 * simulated latency. Prints a markdown table and writes bench/results/latest.json (and .md).
 *
 *   npm run bench                       # everything (about 9 minutes on 2 cores, plus the n8n
 *                                       #   runtime's preparation on first use, about 5)
 *   npm run bench -- --latency 20       # latency of the data endpoints, ms (BENCH_LATENCY_MS)
 *   npm run bench -- --send-latency 50  # latency of the send endpoint, ms (BENCH_SEND_LATENCY_MS)
 *   npm run bench -- --runs 3           # measured runs per workload, the median is reported (BENCH_RUNS)
 *   npm run bench -- --full             # the issue's sizes for every send run (10,000 items at
 *                                       #   concurrency 1 and 5 too, one run each: about 7 more minutes)
 *   npm run bench -- --scale 0.1        # every item count times 0.1 (a quick smoke run)
 *   npm run bench -- --only getall      # only workloads whose id matches (a regular expression)
 *   npm run bench -- --no-cli           # skip the n8n command-line comparisons (Code node)
 *   npm run bench -- --no-build         # use dist/ as it is
 *   npm run bench -- --list             # print the workloads and their sizes, run nothing
 *   npm run bench -- --profile          # also write a CPU profile of every run (build/bench/profiles)
 *   npm run bench -- --heap-profile     # ... or a sampling heap profile (allocations by place)
 *
 * How it measures: the sandbox runs in this process; each run of each workload is a new child
 * process (bench/worker.cjs) that runs the workflow through n8n-core's WorkflowExecute (the test
 * harness, test/engine/harness.ts) after a small warm-up, and reports wall time, CPU time (user
 * + system of the whole process) and peak RSS (getrusage maxrss) of the measured run. Requests
 * and concurrency are counted by the sandbox. The Code + HTTP Request comparison needs n8n's
 * task runner, so it runs through the real n8n command line (bench/n8n-cli.cjs).
 */
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const hook = require('./ts-hook.cjs');
const runtime = require('../scripts/runtime');
const W = require('./workloads.cjs');
const { prepareCli, runCli } = require('./n8n-cli.cjs');

const ROOT = hook.ROOT;
const startedAt = Date.now();

// ---------------------------------------------------------------------------------------------
// Options

const args = process.argv.slice(2);
function option(name, envName, fallback) {
	const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
	if (i >= 0) return args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
	return process.env[envName] ?? fallback;
}
const flag = (name) => args.includes(`--${name}`);
function positiveNumber(name, value) {
	const n = Number(value);
	if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got ${value})`);
	return n;
}

const LATENCY = positiveNumber('latency', option('latency', 'BENCH_LATENCY_MS', '20'));
const SEND_LATENCY = positiveNumber('send-latency', option('send-latency', 'BENCH_SEND_LATENCY_MS', '50'));
const RUNS = Math.round(positiveNumber('runs', option('runs', 'BENCH_RUNS', '3')));
const SCALE = positiveNumber('scale', option('scale', 'BENCH_SCALE', '1'));
const FULL = flag('full');
const ONLY = option('only', 'BENCH_ONLY', undefined);
const OUT = path.resolve(option('out', 'BENCH_OUT', path.join(HERE, 'results', 'latest.json')));
const WITH_CLI = !flag('no-cli');
const BUILD = !flag('no-build');
/** --profile: each measured run also writes a V8 CPU profile of that run to build/bench/profiles. */
const PROFILE = flag('profile') || flag('heap-profile');
/** --heap-profile: a sampling heap profile (allocations by place) instead. */
const PROFILE_KIND = flag('heap-profile') ? 'heap' : 'cpu';
const PROFILE_DIR = path.join(hook.ROOT, 'build', 'bench', 'profiles');

const scaled = (n) => Math.max(1, Math.round(n * SCALE));

function log(message) {
	const s = ((Date.now() - startedAt) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${s}s] ${message}\n`);
}

// ---------------------------------------------------------------------------------------------
// The workloads

/**
 * `kind`: package (this package), alternative (the same job with n8n's own nodes), baseline
 * (No Operation over the same items: n8n's own cost). `rows`: what a row is for rows/s.
 * `requests`: the physical minimum. `concurrency`: requests in flight by design.
 */
function plan() {
	const N_CREATE = scaled(100000);
	const N_COMPARE = scaled(5000);
	// Paced requests take requests x latency: 500 keep it to about 12 s a run.
	const N_PACED = scaled(500);
	const N_READ = scaled(200000);
	const N_MEMBERS = scaled(100000);
	const N_SEND = scaled(10000);
	// Sends take requests x latency / concurrency: 10,000 at concurrency 1 is 500 s alone. By
	// default the lower concurrencies send fewer items (15 s each at 50 ms), concurrency 20 the
	// issue's 10,000; --full sends 10,000 at every concurrency.
	const sendItems = (concurrency) => (FULL || concurrency >= 20 ? N_SEND : scaled(300 * concurrency));
	const bulk = (n) => Math.ceil(n / 1000);
	const warm = (n) => Math.min(n, 2000);
	const sendWorkload = (concurrency, deduplicationKey) => ({
		id: `send.${deduplicationKey ? 'dedup' : 'package'}.c${concurrency}`,
		group: 'send',
		kind: 'package',
		label: `Campaign Alimtalk: send${deduplicationKey ? ' with a Deduplication Key' : ''}, concurrency ${concurrency}`,
		steps: 'send',
		shape: 'send',
		items: sendItems(concurrency),
		requests: sendItems(concurrency),
		latency: SEND_LATENCY,
		concurrency,
		params: deduplicationKey ? { concurrency, deduplicationKey } : { concurrency },
		warmupItems: Math.min(sendItems(concurrency), concurrency * 4),
		baseline: 'send.noop.10k',
		perItemBaseline: true,
		verify: 'sent',
	});
	const list = [
		// 1. custom data create, 5 keys a member
		{ id: 'create.noop.100k', group: 'create', kind: 'baseline', label: 'No Operation', steps: 'noop', shape: 'custom', items: N_CREATE },
		{ id: 'create.package.100k', group: 'create', kind: 'package', label: 'Campaign Custom Data: create', steps: 'customCreate', shape: 'custom', items: N_CREATE, requests: bulk(N_CREATE), latency: LATENCY, concurrency: 1, baseline: 'create.noop.100k', verify: 'custom' },
		{ id: 'create.minimal-bulk.100k', group: 'create', kind: 'reference', label: "Minimal node: the same bodies through n8n's request helper, no checks", steps: 'minimalBulkCreate', shape: 'custom', items: N_CREATE, requests: bulk(N_CREATE), verify: 'custom' },
		{ id: 'create.noop.5k', group: 'create', kind: 'baseline', label: 'No Operation', steps: 'noop', shape: 'custom', items: N_COMPARE },
		// The same job at the size of the HTTP Request comparison (the targets are checked on the issue's sizes).
		{ id: 'create.package.5k', group: 'create', kind: 'package', comparisonOnly: true, label: 'Campaign Custom Data: create', steps: 'customCreate', shape: 'custom', items: N_COMPARE, requests: bulk(N_COMPARE), latency: LATENCY, concurrency: 1, baseline: 'create.noop.5k', verify: 'custom' },
		{ id: 'create.http-per-item.5k', group: 'create', kind: 'alternative', label: 'HTTP Request, one request per item', steps: 'httpPerItem', shape: 'custom', items: N_COMPARE, requests: N_COMPARE, latency: LATENCY, warmupItems: 50, verify: 'custom' },
		// The same, paced to about one request in flight (Batching: 1 item every latency), as a user does to spare the service.
		{ id: 'create.http-per-item-paced.500', group: 'create', kind: 'alternative', label: `HTTP Request, one request per item, paced (Batching: 1 item every ${LATENCY} ms)`, steps: 'httpPerItem', shape: 'custom', items: N_PACED, requests: N_PACED, latency: LATENCY, params: { batchSize: 1, batchInterval: LATENCY }, warmupItems: 20, verify: 'custom' },
		// 2. getAll over 200,000 entries
		{ id: 'getall.noop.200k', group: 'getall', kind: 'baseline', label: 'No Operation', steps: 'noop', shape: 'entry', items: N_READ },
		{ id: 'getall.package.200k', group: 'getall', kind: 'package', label: 'Campaign Custom Data: get many (return all)', steps: 'customGetAll', shape: 'one', sourceCount: 1, items: N_READ, requests: bulk(N_READ), latency: LATENCY, concurrency: 1, seedEntries: N_READ, baseline: 'getall.noop.200k' },
		{ id: 'getall.http-paginate.200k', group: 'getall', kind: 'alternative', label: 'HTTP Request pagination + Split Out', steps: 'httpPaginate', shape: 'one', sourceCount: 1, items: N_READ, requests: bulk(N_READ), latency: LATENCY, concurrency: 1, seedEntries: N_READ },
		// 3. members v2 upsert
		{ id: 'members.noop.100k', group: 'members', kind: 'baseline', label: 'No Operation', steps: 'noop', shape: 'members', items: N_MEMBERS },
		{ id: 'members.package.100k', group: 'members', kind: 'package', label: 'Campaign Members v2: create or update', steps: 'membersUpsert', shape: 'members', items: N_MEMBERS, requests: bulk(N_MEMBERS), latency: LATENCY, concurrency: 1, baseline: 'members.noop.100k', verify: 'members' },
		// 4. Alimtalk sends at the send latency
		{ id: 'send.noop.10k', group: 'send', kind: 'baseline', label: 'No Operation', steps: 'noop', shape: 'send', items: N_SEND },
		...[1, 5, 20].map((concurrency) => sendWorkload(concurrency)),
		// The same sends with a Deduplication Key (keys in the test store of test/support/dedup-store.ts,
		// which behaves like n8n's: every database step 0 to 2 ms), in the same run as the ones without.
		...[5, 20].map((concurrency) => sendWorkload(concurrency, '={{ $json.phone }}')),
		{ id: 'send.read-parameters.10k', group: 'send', kind: 'reference', label: "n8n reading the send node's parameters (expressions), no requests", steps: 'readSendParameters', shape: 'send', items: N_SEND, warmupItems: 200 },
		{ id: 'send.raw-http.c20', group: 'send', kind: 'reference', label: "Node's http client, no n8n, concurrency 20 (the sandbox's ceiling)", steps: 'rawHttpSend', shape: 'send', items: scaled(4000), requests: scaled(4000), latency: SEND_LATENCY, concurrency: 20, params: { concurrency: 20 }, warmupItems: 40, verify: 'sent' },
		{ id: 'send.minimal.c20', group: 'send', kind: 'reference', label: "Minimal node: the same sends through n8n's request helper, no checks, concurrency 20", steps: 'minimalSend', shape: 'send', items: scaled(4000), requests: scaled(4000), latency: SEND_LATENCY, concurrency: 20, params: { concurrency: 20 }, warmupItems: 40, verify: 'sent' },
		{ id: 'send.http-batched.c20', group: 'send', kind: 'alternative', label: 'HTTP Request, batching 20 items / 50 ms', steps: 'httpSendBatched', shape: 'send', items: scaled(4000), requests: scaled(4000), latency: SEND_LATENCY, concurrency: 20, params: { batchSize: 20, batchInterval: SEND_LATENCY }, warmupItems: 40, verify: 'sent' },
	];
	for (const w of list) {
		w.warmupItems = w.warmupItems ?? warm(w.items);
		w.runs = FULL && w.group === 'send' && w.concurrency < 20 ? 1 : RUNS;
	}
	return list;
}

/** The CLI comparison: the same 5,000-member create, as the package and as Code + HTTP Request. */
function cliPlan() {
	const n = scaled(5000);
	return [
		{ id: 'cli.create.package.5k', group: 'create', kind: 'package', label: 'Campaign Custom Data: create (generated by a Code node)', steps: 'customCreate', shape: 'custom', items: n, requests: Math.ceil(n / 1000), verify: 'custom' },
		{ id: 'cli.create.code-http.5k', group: 'create', kind: 'alternative', label: 'Code (1,000-member bodies) + HTTP Request', steps: 'codeHttp', shape: 'custom', items: n, requests: Math.ceil(n / 1000), verify: 'custom' },
	];
}

// ---------------------------------------------------------------------------------------------
// Sandbox

function seedSandbox(sb, workload, entries) {
	sb.reset();
	for (const [key, format] of Object.entries(W.CUSTOM_KEYS)) sb.registerKey(key, format);
	sb.addCampaign(W.CAMPAIGN, { requiredVariables: ['name'] });
	if (entries) W.fillCustom(sb.state.custom, Math.ceil(entries / 5));
	sb.configure({ latencyMs: workload.group === 'send' ? SEND_LATENCY : LATENCY });
}

function sandboxFigures(sb) {
	let serverMs = 0;
	let first = Infinity;
	let last = 0;
	const codes = {};
	for (const r of sb.requests) {
		serverMs += r.endedAt - r.startedAt;
		first = Math.min(first, r.startedAt);
		last = Math.max(last, r.endedAt);
		const code = `${r.status}/${r.processCode ?? '-'}`;
		codes[code] = (codes[code] ?? 0) + 1;
	}
	return {
		requests: sb.requests.length,
		maxInFlight: sb.maxInFlight,
		/** Mean time the sandbox held a request (its latency plus its own processing). */
		meanRequestMs: sb.requests.length ? serverMs / sb.requests.length : 0,
		spanMs: sb.requests.length ? last - first : 0,
		answers: codes,
	};
}

function verify(sb, workload, figures) {
	const problems = [];
	if (workload.verify === 'custom' && sb.state.custom.size !== workload.items) problems.push(`stored ${sb.state.custom.size} members, expected ${workload.items}`);
	if (workload.verify === 'members' && sb.state.membersV2.size !== workload.items) problems.push(`stored ${sb.state.membersV2.size} members, expected ${workload.items}`);
	if (workload.verify === 'sent' && sb.state.sent.length !== workload.items) problems.push(`sent ${sb.state.sent.length} messages, expected ${workload.items}`);
	const outputs = figures.result?.outputs ?? [];
	const expected =
		workload.steps === 'codeHttp'
			? [Math.ceil(workload.items / 1000)]
			: ['customCreate', 'membersUpsert', 'send'].includes(workload.steps)
				? [workload.items, 0]
				: [workload.items];
	if (JSON.stringify(outputs) !== JSON.stringify(expected)) problems.push(`outputs ${JSON.stringify(outputs)}, expected ${JSON.stringify(expected)}`);
	if (figures.error) problems.push(`error: ${figures.error}`);
	return problems;
}

// ---------------------------------------------------------------------------------------------
// Running

let profileCount = 0;

function runWorker(sb, workload, env) {
	return new Promise((resolve, reject) => {
		const execArgv = ['--expose-gc'];
		if (PROFILE) {
			const extension = PROFILE_KIND === 'heap' ? 'heapprofile' : 'cpuprofile';
			env = { ...env, profileKind: PROFILE_KIND, profileFile: path.join(PROFILE_DIR, `${workload.id}.${++profileCount}.${extension}`) };
		}
		const child = fork(path.join(HERE, 'worker.cjs'), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		let sandboxCpu;
		const limit = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${workload.id} did not finish within 15 minutes`));
		}, 15 * 60000);
		let settled = false;
		child.on('message', (message) => {
			if (message.type === 'ready') {
				seedSandbox(sb, workload, workload.seedEntries);
				sandboxCpu = process.cpuUsage();
				child.send({ cmd: 'go' });
			} else if (message.type === 'result') {
				settled = true;
				clearTimeout(limit);
				const cpu = process.cpuUsage(sandboxCpu);
				resolve({ ...message, sandbox: { ...sandboxFigures(sb), cpuMs: (cpu.user + cpu.system) / 1000 } });
			} else if (message.type === 'error') {
				settled = true;
				clearTimeout(limit);
				reject(new Error(`${workload.id}: ${message.error}`));
			}
		});
		child.on('exit', (code) => {
			clearTimeout(limit);
			if (!settled) reject(new Error(`${workload.id}: worker exited with ${code}`));
		});
		seedSandbox(sb, workload, workload.seedEntries ? Math.min(workload.seedEntries, workload.warmupItems) : 0);
		child.send({ cmd: 'run', workload, env });
	});
}

/** A run that failed because dist/ was being rebuilt meanwhile (another `npm run build`) is run again. */
async function runWorkerRetrying(sb, workload, env) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await runWorker(sb, workload, env);
		} catch (error) {
			if (attempt >= 3 || !/is it built|Cannot find module .*dist/.test(String(error.message))) throw error;
			log(`${workload.id}: dist/ was missing (a build running meanwhile?); trying again in 15 s`);
			await new Promise((resolve) => setTimeout(resolve, 15000));
		}
	}
}

function median(values) {
	const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return undefined;
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function npmBuild() {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
		child.on('error', reject);
		child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run build failed (exit ${code})`))));
	});
}

// ---------------------------------------------------------------------------------------------
// Figures, targets, report

const MB = 1024 * 1024;
const fmt = (n, digits = 0) => (n === undefined || n === null || Number.isNaN(n) ? '–' : Number(n).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));

function summarize(workload, runs) {
	const pick = (fn) => median(runs.map(fn));
	const wallMs = pick((r) => r.wallMs);
	return {
		id: workload.id,
		group: workload.group,
		kind: workload.kind,
		label: workload.label,
		items: workload.items,
		runs: runs.length,
		expectedRequests: workload.requests,
		requests: pick((r) => r.sandbox.requests),
		requestsPerRun: runs.map((r) => r.sandbox.requests),
		maxInFlight: pick((r) => r.sandbox.maxInFlight),
		meanRequestMs: pick((r) => r.sandbox.meanRequestMs),
		sandboxCpuMs: pick((r) => r.sandbox.cpuMs),
		wallMs,
		cpuMs: pick((r) => r.cpuMs),
		peakRssBytes: pick((r) => r.peakRssBytes),
		rssGrowthBytes: pick((r) => r.rssGrowthBytes),
		heapLiveGrowthBytes: pick((r) => r.heapLiveGrowthBytes),
		serviceMs: pick((r) => r.sandbox.meanRequestMs * r.sandbox.requests),
		/** From the first request's arrival to the last one's end, at the sandbox. */
		requestSpanMs: pick((r) => r.sandbox.spanMs),
		rowsPerSecond: wallMs ? workload.items / (wallMs / 1000) : undefined,
		nodeTimesMs: runs[0]?.nodeTimesMs,
		problems: [...new Set(runs.flatMap((r) => r.problems ?? []))],
		raw: runs,
	};
}

function evaluate(results, cli) {
	const by = Object.fromEntries(results.map((r) => [r.id, r]));
	const targets = [];
	const add = (group, target, measured, limit, met, note) => targets.push({ group, target, measured, limit, met, note });
	const ms = (n) => `${fmt(n)} ms`;
	for (const r of results.filter((x) => x.kind === 'package' && !x.workload.comparisonOnly)) {
		const w = r.workload;
		const base = by[w.baseline];
		add(r.group, `${r.id}: requests at the physical minimum`, fmt(r.requests), fmt(w.requests), r.requestsPerRun.every((n) => n === w.requests));
		if (!base) continue;
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
			metNominal ? undefined : r.wallMs <= service ? "met against the sandbox's measured time" : undefined,
		);
		if (w.group !== 'send') {
			const perRow = ((r.cpuMs - (base.cpuMs * r.items) / base.items) * 1000) / r.items;
			add(r.group, `${r.id}: package CPU per row beyond No Operation <= 5 µs`, `${fmt(perRow, 2)} µs`, '5 µs', perRow <= 5);
			const ratio = r.rssGrowthBytes / base.rssGrowthBytes;
			const live = r.heapLiveGrowthBytes / base.heapLiveGrowthBytes;
			add(
				r.group,
				`${r.id}: peak RSS growth <= 1.5 x No Operation's`,
				`${fmt(r.rssGrowthBytes / MB)} MB (${fmt(ratio, 2)}x); heap kept after the run ${fmt(r.heapLiveGrowthBytes / MB)} MB (${fmt(live, 2)}x)`,
				`${fmt((1.5 * base.rssGrowthBytes) / MB)} MB`,
				ratio <= 1.5,
			);
		} else {
			const perSend = ((r.cpuMs - (base.cpuMs * r.items) / base.items) * 1000) / r.items;
			add(r.group, `${r.id}: CPU per send beyond No Operation (information)`, `${fmt(perSend)} µs`, '–', undefined, "one request per row through n8n's request helper");
			const rate = r.items / (r.wallMs / 1000);
			const ceiling = w.concurrency / (w.latency / 1000);
			const sending = r.items / (r.requestSpanMs / 1000);
			add(
				r.group,
				`${r.id}: sends >= 90% of concurrency / latency`,
				`${fmt(rate, 1)}/s (${fmt((100 * rate) / ceiling, 1)}%) over the node's run; ${fmt(sending, 1)}/s (${fmt((100 * sending) / ceiling, 1)}%) from the first request to the last`,
				`${fmt(0.9 * ceiling, 1)}/s`,
				rate >= 0.9 * ceiling,
				rate < 0.9 * ceiling && sending >= 0.9 * ceiling ? "met once the parameters of every item are read (n8n's expression engine, before the first send)" : undefined,
			);
		}
	}
	const minimal = by['create.minimal-bulk.100k'];
	const pkg = by['create.package.100k'];
	const noop = by['create.noop.100k'];
	if (minimal && pkg && noop) {
		add(
			'create',
			"create.package.100k vs a minimal node sending the same bodies (information: the engine's share)",
			`package ${fmt(((pkg.cpuMs - noop.cpuMs) * 1000) / pkg.items, 2)} µs/row, minimal node ${fmt(((minimal.cpuMs - noop.cpuMs) * 1000) / minimal.items, 2)} µs/row beyond No Operation; wall ${fmt(pkg.wallMs)} vs ${fmt(minimal.wallMs)} ms; peak RSS growth ${fmt(pkg.rssGrowthBytes / MB)} vs ${fmt(minimal.rssGrowthBytes / MB)} MB`,
			'–',
			undefined,
			'what n8n costs for the same bulk requests and new items, with or without checks',
		);
	}
	if (minimal && pkg) {
		// The engine's own cost of the same job: the same requests and new items through n8n, with
		// nothing of this package's checks, merging and failure routing.
		add('create', 'create.package.100k: wall time <= 1.1 x the minimal node\'s (the same requests through n8n, no checks)', ms(pkg.wallMs), ms(1.1 * minimal.wallMs), pkg.wallMs <= 1.1 * minimal.wallMs);
		const own = ((pkg.cpuMs - minimal.cpuMs) * 1000) / pkg.items;
		add('create', "create.package.100k: the package's own CPU per row beyond the minimal node <= 5 µs", `${fmt(own, 2)} µs`, '5 µs', own <= 5);
	}
	const minimalSend = by['send.minimal.c20'];
	const send20 = by['send.package.c20'];
	if (minimalSend && send20) {
		const ratio = send20.rowsPerSecond / minimalSend.rowsPerSecond;
		add('send', "send.package.c20: sends >= 90% of the minimal send node's rate (the same sends through n8n's request helper, no checks)", `${fmt(send20.rowsPerSecond, 1)}/s vs ${fmt(minimalSend.rowsPerSecond, 1)}/s (${fmt(100 * ratio, 1)}%)`, '90%', ratio >= 0.9);
	}
	for (const perItem of [by['create.http-per-item.5k'], by['create.http-per-item-paced.500']].filter(Boolean)) {
		for (const p of [by['create.package.100k'], by['create.package.5k']].filter(Boolean)) {
			const ratio = p.rowsPerSecond / perItem.rowsPerSecond;
			const cpuRatio = perItem.cpuMs / perItem.items / (p.cpuMs / p.items);
			add(
				'create',
				`${p.id} vs ${perItem.id} (${perItem.label}): >= 50x rows/s`,
				`${fmt(ratio, 1)}x rows/s; ${fmt(cpuRatio)}x less CPU a row`,
				'50x',
				ratio >= 50,
				perItem.maxInFlight > 10 ? `n8n sent the ${fmt(perItem.items)} requests at once (${fmt(perItem.maxInFlight)} in flight), which a real service would throttle` : undefined,
			);
		}
	}
	const cliPkg = cli?.find((c) => c.id === 'cli.create.package.5k');
	const cliCode = cli?.find((c) => c.id === 'cli.create.code-http.5k');
	if (cliPkg && cliCode) {
		const ratio = cliCode.measuredMs / cliPkg.measuredMs;
		add('create', `package vs Code + HTTP Request (n8n command line, ${fmt(cliPkg.items)} members): no slower`, `${ms(cliPkg.measuredMs)} vs ${ms(cliCode.measuredMs)} (${fmt(ratio, 2)}x faster)`, '>= 1x', ratio >= 1, 'time in the nodes doing the job, as n8n records it');
	}
	const pairs = [
		['getall.package.200k', 'getall.http-paginate.200k'],
		['send.package.c20', 'send.http-batched.c20'],
	];
	for (const [a, b] of pairs) {
		if (!by[a] || !by[b]) continue;
		add(
			by[a].group,
			`${a} vs ${b} (information)`,
			`rows/s ${fmt(by[b].rowsPerSecond / by[a].rowsPerSecond, 2)}x, CPU a row ${fmt(by[b].cpuMs / by[b].items / (by[a].cpuMs / by[a].items), 2)}x, peak RSS growth ${fmt(by[b].rssGrowthBytes / by[a].rssGrowthBytes, 2)}x (${fmt(by[b].items)} vs ${fmt(by[a].items)} items)`,
			'–',
			undefined,
			'the alternative / this package',
		);
	}
	return targets;
}

function machine() {
	const cpus = os.cpus();
	return {
		cpu: `${cpus[0]?.model ?? 'unknown'} x ${cpus.length}`,
		memory: `${fmt(os.totalmem() / 1024 ** 3, 0)} GB`,
		os: `${os.type()} ${os.release()}`,
		node: process.version,
		loadAverageAtStart: os.loadavg().map((n) => Number(n.toFixed(2))),
	};
}

function markdown(report) {
	const lines = [];
	const m = report.machine;
	lines.push(`Measured ${report.date} on ${m.cpu}, ${m.memory} RAM, ${m.os}; n8n ${report.n8n.version} engine (n8n-core ${report.n8n.core}, in-process on Node ${m.node.replace(/^v/, '')}); n8n's own nodes from n8n ${report.n8n.version}; Code node comparison through the n8n ${report.n8n.version} command line on Node ${report.n8n.cliNode}. Sandbox latency ${report.options.latencyMs} ms a request (sends ${report.options.sendLatencyMs} ms); median of ${report.options.runs} runs, each in a fresh process after a warm-up.`);
	lines.push('');
	lines.push('| Workload | Items | Requests | In flight | Wall (s) | CPU (s) | CPU/row (µs) | Peak RSS growth (MB) | Heap kept (MB) | Rows/s |');
	lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
	for (const r of report.results) {
		lines.push(
			`| ${r.label} (\`${r.id}\`) | ${fmt(r.items)} | ${fmt(r.requests)} | ${fmt(r.maxInFlight)} | ${fmt(r.wallMs / 1000, 2)} | ${fmt(r.cpuMs / 1000, 2)} | ${fmt((r.cpuMs * 1000) / r.items, 1)} | ${fmt(r.rssGrowthBytes / MB)} | ${fmt(r.heapLiveGrowthBytes / MB)} | ${fmt(r.rowsPerSecond)} |`,
		);
	}
	if (report.cli?.length) {
		lines.push('');
		lines.push('Through the n8n command line (`n8n execute`, cold process each run; times as n8n records them):');
		lines.push('');
		lines.push('| Workload | Items | Requests | Nodes doing the job (ms) | Whole execution (ms) | Process incl. start-up (s) |');
		lines.push('|---|---:|---:|---:|---:|---:|');
		for (const c of report.cli) {
			lines.push(`| ${c.label} (\`${c.id}\`) | ${fmt(c.items)} | ${fmt(c.requests)} | ${fmt(c.measuredMs)} | ${fmt(c.executionMs)} | ${fmt(c.processMs / 1000, 1)} |`);
		}
	}
	lines.push('');
	lines.push('| Target | Measured | Limit | Met |');
	lines.push('|---|---|---|---|');
	for (const t of report.targets) {
		lines.push(`| ${t.target} | ${t.measured} | ${t.limit} | ${t.met === undefined ? '–' : t.met ? 'yes' : '**no**'}${t.note ? ` (${t.note})` : ''} |`);
	}
	return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
	const only = ONLY ? new RegExp(ONLY) : undefined;
	const workloads = plan().filter((w) => !only || only.test(w.id) || (w.kind === 'baseline' && plan().some((p) => only.test(p.id) && p.baseline === w.id)));
	const cliWorkloads = WITH_CLI ? cliPlan().filter((w) => !only || only.test(w.id)) : [];
	if (flag('list')) {
		for (const w of [...workloads, ...cliWorkloads]) {
			process.stdout.write(`${w.id.padEnd(36)} ${String(w.items).padStart(7)} items  ${String(w.runs ?? RUNS)} run(s)  ${w.label}\n`);
		}
		return;
	}

	if (BUILD) {
		log('npm run build');
		await npmBuild();
	}
	log('preparing the local n8n runtime (scripts/runtime/install.js; first use installs it, later runs reuse it)');
	const paths = await runtime.ensureRuntime();
	const marker = JSON.parse(fs.readFileSync(paths.marker, 'utf8'));
	const nodesBaseDir = path.join(paths.dir, 'node_modules', 'n8n-nodes-base');
	const n8n = {
		version: JSON.parse(fs.readFileSync(path.join(paths.dir, 'node_modules', 'n8n', 'package.json'), 'utf8')).version,
		nodesBase: JSON.parse(fs.readFileSync(path.join(nodesBaseDir, 'package.json'), 'utf8')).version,
		core: JSON.parse(fs.readFileSync(require.resolve('n8n-core/package.json', { paths: [ROOT] }), 'utf8')).version,
		workflow: JSON.parse(fs.readFileSync(require.resolve('n8n-workflow/package.json', { paths: [ROOT] }), 'utf8')).version,
		cliNode: marker.node,
	};

	const { startSandbox } = require(path.join(ROOT, 'sandbox', 'server.ts'));
	const sb = await startSandbox({ latencyMs: LATENCY });
	const env = { baseUrl: sb.baseUrl, apiKey: sb.apiKey, nodesBaseDir };
	const machineInfo = machine();
	log(`sandbox ${sb.baseUrl}; latency ${LATENCY} ms (sends ${SEND_LATENCY} ms); ${RUNS} run(s) a workload; load average ${machineInfo.loadAverageAtStart.join(' ')}`);

	const runs = Object.fromEntries(workloads.map((w) => [w.id, []]));
	const rounds = Math.max(...workloads.map((w) => w.runs), 0);
	for (let round = 1; round <= rounds; round++) {
		for (const workload of workloads) {
			if (round > workload.runs) continue;
			const t = Date.now();
			const figures = await runWorkerRetrying(sb, workload, env);
			figures.problems = verify(sb, workload, figures);
			runs[workload.id].push(figures);
			log(
				`run ${round}/${workload.runs} ${workload.id}: ${fmt(figures.wallMs)} ms wall, ${fmt(figures.cpuMs)} ms CPU, ${fmt(figures.peakRssBytes / MB)} MB peak RSS (+${fmt(figures.rssGrowthBytes / MB)}), ${figures.sandbox.requests} requests (sandbox ${fmt(figures.sandbox.meanRequestMs, 1)} ms each, ${fmt(figures.sandbox.cpuMs)} ms CPU)` +
					`${figures.problems.length ? ` PROBLEM: ${figures.problems.join('; ')}` : ''} (${fmt((Date.now() - t) / 1000, 1)} s)`,
			);
		}
	}
	const results = workloads.map((w) => ({ ...summarize(w, runs[w.id]), workload: w }));

	let cli = [];
	if (cliWorkloads.length > 0) {
		log('n8n command line: packing the package, preparing a user folder, importing workflows');
		const prepared = await prepareCli({ paths, workDir: path.join(ROOT, 'build', 'bench', 'cli'), sandbox: sb, workloads: cliWorkloads });
		const cliRuns = Object.fromEntries(cliWorkloads.map((w) => [w.id, []]));
		for (let round = 1; round <= RUNS; round++) {
			for (const workload of cliWorkloads) {
				seedSandbox(sb, workload, 0);
				const figures = await runCli(prepared, workload.id);
				figures.sandbox = sandboxFigures(sb);
				figures.problems = verify(sb, workload, figures);
				cliRuns[workload.id].push(figures);
				log(`cli run ${round}/${RUNS} ${workload.id}: ${fmt(figures.measuredMs)} ms in the nodes, ${fmt(figures.executionMs)} ms execution, ${fmt(figures.processMs)} ms process, ${figures.sandbox.requests} requests${figures.problems.length ? ` PROBLEM: ${figures.problems.join('; ')}` : ''}`);
			}
		}
		cli = cliWorkloads.map((w) => {
			const list = cliRuns[w.id];
			return {
				id: w.id,
				group: w.group,
				kind: w.kind,
				label: w.label,
				items: w.items,
				runs: list.length,
				requests: median(list.map((r) => r.sandbox.requests)),
				measuredMs: median(list.map((r) => r.measuredMs)),
				executionMs: median(list.map((r) => r.executionMs)),
				processMs: median(list.map((r) => r.processMs)),
				problems: [...new Set(list.flatMap((r) => r.problems))],
				raw: list,
			};
		});
	}
	await sb.close();

	const report = {
		date: new Date().toISOString().slice(0, 10),
		machine: machineInfo,
		n8n,
		options: { latencyMs: LATENCY, sendLatencyMs: SEND_LATENCY, runs: RUNS, scale: SCALE, full: FULL, only: ONLY ?? null },
		results,
		cli,
		targets: [],
		durationSeconds: 0,
	};
	report.targets = evaluate(results, cli);
	report.durationSeconds = Math.round((Date.now() - startedAt) / 1000);
	const md = markdown(report);
	fs.mkdirSync(path.dirname(OUT), { recursive: true });
	fs.writeFileSync(OUT, `${JSON.stringify(report, (key, value) => (key === 'workload' ? undefined : value), 1)}\n`);
	fs.writeFileSync(OUT.replace(/\.json$/, '.md'), `${md}\n`);
	process.stdout.write(`\n${md}\n\n`);
	const problems = [...results, ...cli].filter((r) => r.problems.length > 0);
	for (const r of problems) log(`PROBLEM in ${r.id}: ${r.problems.join('; ')}`);
	log(`wrote ${path.relative(ROOT, OUT)} and ${path.relative(ROOT, OUT.replace(/\.json$/, '.md'))}; total ${fmt(report.durationSeconds)} s`);
	if (problems.length > 0) process.exitCode = 1;
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
