/**
 * `npm run bench`: the workloads of workloads.cjs, side by side with what users would build without
 * this package, through n8n's real engine, against the local API sandbox with a fixed
 * simulated latency. Prints a markdown table and writes bench/results/latest.json (and .md).
 *
 *   npm run bench                       # everything (about 9 minutes on 2 cores, plus the n8n
 *                                       #   runtime's preparation on first use, about 5)
 *   npm run bench -- --latency 20       # latency of the data endpoints, ms (BENCH_LATENCY_MS)
 *   npm run bench -- --send-latency 50  # latency of the send endpoint, ms (BENCH_SEND_LATENCY_MS)
 *   npm run bench -- --runs 3           # measured runs per workload, the median is reported (BENCH_RUNS)
 *   npm run bench -- --full             # the full sizes for every send run (10,000 items at
 *                                       #   concurrency 1 and 5 too, one run each: about 7 more minutes)
 *   npm run bench -- --scale 0.1        # every item count times 0.1 (a quick smoke run)
 *   npm run bench -- --only getall      # only workloads whose id matches (a regular expression)
 *   npm run bench -- --no-cli           # skip the n8n command-line comparisons (Code node)
 *   npm run bench -- --no-queue         # skip the n8n queue-mode workloads (bench/queue.mjs)
 *   npm run bench -- --no-build         # use dist/ as it is
 *   npm run bench -- --list             # print the workloads and their sizes, run nothing
 *   npm run bench -- --profile          # also write a CPU profile of every run (build/bench/profiles)
 *   npm run bench -- --heap-profile     # ... or a sampling heap profile (allocations by place)
 *   npm run bench -- --baseline ../old  # also the same workloads with that checkout's dist/ (built
 *                                       #   there first), alternating run by run with this tree's:
 *                                       #   before and after in one run (BENCH_BASELINE)
 *
 * How it measures: the sandbox runs in this process; each run of each workload is a new child
 * process (bench/worker.cjs) that runs the workflow through n8n-core's WorkflowExecute (the test
 * harness, test/support/engine.ts) after a small warm-up, and reports wall time, CPU time (user
 * + system of the whole process) and peak RSS (getrusage maxrss) of the measured run. Requests
 * and concurrency are counted by the sandbox. The Code + HTTP Request comparison needs n8n's
 * task runner, so it runs through the real n8n command line (bench/n8n-execute.cjs).
 *
 * Not in this run (5 to 14 minutes alone): `node bench/dedup-copies.mjs`, the Deduplication Key's
 * fault-free cost in queue mode, counted and optionally traced (docs/performance.md).
 *
 * Files: workloads.cjs (the one table of workloads and what each is compared with), steps.cjs
 * (the workflows they run), bench-nodes.cjs (bench-only node types), worker.cjs (one measured
 * run), measure.mjs (runs a worker against the sandbox), targets.mjs, report.mjs, options.mjs.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MB, fmt } from './format.mjs';
import { measurer, median, sandboxFigures, seedSandbox, summarize, verify } from './measure.mjs';
import { settings } from './options.mjs';
import { machine, markdown } from './report.mjs';
import { evaluate } from './targets.mjs';
import { runQueueWorkloads, stopQueueCluster } from './queue.mjs';
import { npmBuild, trees } from './trees.mjs';
import { queueMarkdown } from './queue-report.mjs';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const hook = require('./ts-hook.cjs');
const runtime = require('../scripts/runtime');
const { workloads: table } = require('./workloads.cjs');
const { prepareCli, runCli } = require('./n8n-execute.cjs');

const ROOT = hook.ROOT;
const startedAt = Date.now();
const S = settings(process.argv.slice(2), { root: ROOT, resultsDir: path.join(HERE, 'results') });

function log(message) {
	const s = ((Date.now() - startedAt) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${s}s] ${message}\n`);
}

/** The workloads --only selects, with the No Operation baselines they are measured against. */
function selected() {
	const all = table(S);
	const only = S.only ? new RegExp(S.only) : undefined;
	const chosen = all.filter((w) => !only || only.test(w.id));
	const baselines = new Set(chosen.map((w) => w.baseline?.id).filter(Boolean));
	return all.filter((w) => chosen.includes(w) || baselines.has(w.id));
}

/** Every in-process workload, `runs` rounds; with a baseline each run alternates the trees (which goes first swaps every round). */
async function runEngineWorkloads(measure, workloads, env, treeList) {
	const runs = Object.fromEntries(
		treeList.map((t) => [t.name, Object.fromEntries(workloads.map((w) => [w.id, []]))]),
	);
	const rounds = Math.max(...workloads.map((w) => w.runs), 0);
	for (let round = 1; round <= rounds; round++) {
		for (const workload of workloads) {
			if (round > workload.runs) continue;
			const order = round % 2 ? treeList : [...treeList].reverse();
			for (const tree of order) {
				const t = Date.now();
				const figures = await measure(workload, { ...env, packageRoot: tree.root });
				runs[tree.name][workload.id].push(figures);
				log(
					`run ${round}/${workload.runs} ${workload.id}${treeList.length > 1 ? ` [${tree.name}: ${figures.packageModules} package modules from ${path.relative(ROOT, tree.root) || '.'}/dist]` : ''}: ${fmt(figures.wallMs)} ms wall, ${fmt(figures.cpuMs)} ms CPU, ${fmt(figures.peakRssBytes / MB)} MB peak RSS (+${fmt(figures.rssGrowthBytes / MB)}), ${figures.sandbox.requests} requests (sandbox ${fmt(figures.sandbox.meanRequestMs, 1)} ms each, ${fmt(figures.sandbox.cpuMs)} ms CPU)` +
						`${figures.problems.length ? ` PROBLEM: ${figures.problems.join('; ')}` : ''} (${fmt((Date.now() - t) / 1000, 1)} s)`,
				);
			}
		}
	}
	return Object.fromEntries(
		treeList.map((t) => [
			t.name,
			workloads.map((w) => ({ ...summarize(w, runs[t.name][w.id]), workload: w })),
		]),
	);
}

/** The command-line comparisons (this tree only): the packed package in a fresh n8n user folder. */
async function runCliWorkloads(paths, sb, workloads) {
	log('n8n command line: packing the package, preparing a user folder, importing workflows');
	const prepared = await prepareCli({
		paths,
		workDir: path.join(ROOT, 'build', 'bench', 'cli'),
		sandbox: sb,
		workloads,
	});
	const runs = Object.fromEntries(workloads.map((w) => [w.id, []]));
	for (let round = 1; round <= S.runs; round++) {
		for (const workload of workloads) {
			seedSandbox(sb, workload, 0);
			const figures = await runCli(prepared, workload.id);
			figures.sandbox = sandboxFigures(sb);
			figures.problems = verify(sb, workload, figures);
			runs[workload.id].push(figures);
			log(
				`cli run ${round}/${S.runs} ${workload.id}: ${fmt(figures.measuredMs)} ms in the nodes, ${fmt(figures.executionMs)} ms execution, ${fmt(figures.processMs)} ms process, ${figures.sandbox.requests} requests${figures.problems.length ? ` PROBLEM: ${figures.problems.join('; ')}` : ''}`,
			);
		}
	}
	return workloads.map((w) => {
		const list = runs[w.id];
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
			workload: w,
		};
	});
}

function n8nVersions(paths) {
	const marker = JSON.parse(fs.readFileSync(paths.marker, 'utf8'));
	const nodesBaseDir = path.join(paths.dir, 'node_modules', 'n8n-nodes-base');
	const version = (file) => JSON.parse(fs.readFileSync(file, 'utf8')).version;
	return {
		nodesBaseDir,
		n8n: {
			version: version(path.join(paths.dir, 'node_modules', 'n8n', 'package.json')),
			nodesBase: version(path.join(nodesBaseDir, 'package.json')),
			core: version(require.resolve('n8n-core/package.json', { paths: [ROOT] })),
			workflow: version(require.resolve('n8n-workflow/package.json', { paths: [ROOT] })),
			cliNode: marker.node,
		},
	};
}

async function main() {
	const chosen = selected();
	const workloads = chosen.filter((w) => !w.cli && !w.queue);
	const cliWorkloads = S.withCli ? chosen.filter((w) => w.cli) : [];
	const queueWorkloads = S.withQueue ? chosen.filter((w) => w.queue) : [];
	if (S.list) {
		for (const w of [...workloads, ...cliWorkloads, ...queueWorkloads]) {
			process.stdout.write(
				`${w.id.padEnd(36)} ${String(w.items).padStart(7)} items  ${String(w.runs)} run(s)  ${w.label}\n`,
			);
		}
		return;
	}
	const treeList = trees(ROOT, S.baseline);
	if (S.build) {
		for (const tree of treeList) {
			log(`npm run build${tree.root === ROOT ? '' : ` in ${tree.root}`}`);
			await npmBuild(tree.root);
		}
	}
	log(
		'preparing the local n8n runtime (scripts/runtime/install.js; first use installs it, later runs reuse it)',
	);
	const paths = await runtime.ensureRuntime();
	const { nodesBaseDir, n8n } = n8nVersions(paths);

	const { startSandbox } = require(path.join(ROOT, 'sandbox', 'server.ts'));
	const sb = await startSandbox({ latencyMs: S.latency });
	const env = { baseUrl: sb.baseUrl, apiKey: sb.apiKey, nodesBaseDir };
	const machineInfo = machine();
	log(
		`sandbox ${sb.baseUrl}; latency ${S.latency} ms (sends ${S.sendLatency} ms); ${S.runs} run(s) a workload; load average ${machineInfo.loadAverageAtStart.join(' ')}`,
	);
	if (treeList.length > 1)
		log(
			`baseline ${S.baseline} (${treeList[1].commit}): every in-process and queue-mode run alternates with this tree's; the command-line comparisons run on this tree only`,
		);

	const measure = measurer({
		sb,
		log,
		profile: S.profile,
		profileKind: S.profileKind,
		profileDir: S.profileDir,
	});
	const byTree = await runEngineWorkloads(measure, workloads, env, treeList);
	const results = byTree.this;
	const cli = cliWorkloads.length > 0 ? await runCliWorkloads(paths, sb, cliWorkloads) : [];
	const queueByTree =
		queueWorkloads.length > 0
			? await runQueueWorkloads({ sb, workloads: queueWorkloads, log, trees: treeList })
			: {};
	const queue = queueByTree.this ?? [];
	await sb.close();

	const report = {
		date: new Date().toISOString().slice(0, 10),
		machine: machineInfo,
		n8n,
		options: {
			latencyMs: S.latency,
			sendLatencyMs: S.sendLatency,
			runs: S.runs,
			scale: S.scale,
			full: S.full,
			only: S.only ?? null,
			baseline: S.baseline ?? null,
		},
		results,
		cli,
		queue,
		baseline:
			treeList.length > 1
				? {
						dir: S.baseline,
						commit: treeList[1].commit,
						results: byTree.baseline,
						queue: queueByTree.baseline ?? [],
					}
				: undefined,
		targets: evaluate([...results, ...cli]),
		durationSeconds: Math.round((Date.now() - startedAt) / 1000),
	};
	const md = [
		markdown(report),
		...(queue.length > 0
			? queueMarkdown(
					queue,
					queueWorkloads,
					machineInfo,
					report.baseline && { commit: report.baseline.commit, results: report.baseline.queue },
				)
			: []),
	].join('\n');
	fs.mkdirSync(path.dirname(S.out), { recursive: true });
	fs.writeFileSync(
		S.out,
		`${JSON.stringify(report, (key, value) => (key === 'workload' ? undefined : value), 1)}\n`,
	);
	fs.writeFileSync(S.out.replace(/\.json$/, '.md'), `${md}\n`);
	process.stdout.write(`\n${md}\n\n`);
	const problems = [
		...results,
		...cli,
		...queue,
		...(report.baseline?.results ?? []),
		...(report.baseline?.queue ?? []),
	].filter((r) => r.problems.length > 0);
	for (const r of problems) log(`PROBLEM in ${r.id}: ${r.problems.join('; ')}`);
	log(
		`wrote ${path.relative(ROOT, S.out)} and ${path.relative(ROOT, S.out.replace(/\.json$/, '.md'))}; total ${fmt(report.durationSeconds)} s`,
	);
	if (problems.length > 0) process.exitCode = 1;
}

// Interrupted (Ctrl+C, a kill): the queue-mode cluster under way is stopped, its folders removed.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
	process.on(signal, () => {
		if (interrupted) return;
		interrupted = true;
		log(`${signal}: stopping the queue-mode cluster under way, if any`);
		stopQueueCluster().finally(() => process.exit(1));
	});

main().catch((error) => {
	if (interrupted) return; // the run failing because its cluster is being stopped: the stop exits
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
