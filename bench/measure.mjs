/**
 * One measured run of one workload in a fresh worker process (worker.cjs) against the sandbox of
 * this process: the sandbox is reset and seeded for the warm-up and again for the measured run,
 * and what it saw (requests, concurrency, its own time and CPU) is added to the worker's figures.
 * `verify` says what is wrong with a run's result, `summarize` takes the median of a workload's runs.
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const { CAMPAIGN, CUSTOM_KEYS, expectedOutputs, fillCustom } = require('./steps.cjs');

export function seedSandbox(sb, workload, entries) {
	sb.reset();
	for (const [key, format] of Object.entries(CUSTOM_KEYS)) sb.registerKey(key, format);
	sb.addCampaign(CAMPAIGN, { requiredVariables: ['name'] });
	if (entries) fillCustom(sb.state.custom, Math.ceil(entries / 5));
	sb.configure({ latencyMs: workload.latency ?? 0 });
}

export function sandboxFigures(sb) {
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

export function verify(sb, workload, figures) {
	const problems = [];
	if (workload.verify === 'custom' && sb.state.custom.size !== workload.items)
		problems.push(`stored ${sb.state.custom.size} members, expected ${workload.items}`);
	if (workload.verify === 'members' && sb.state.membersV2.size !== workload.items)
		problems.push(`stored ${sb.state.membersV2.size} members, expected ${workload.items}`);
	if (workload.verify === 'sent' && sb.state.sent.length !== workload.items)
		problems.push(`sent ${sb.state.sent.length} messages, expected ${workload.items}`);
	const outputs = figures.result?.outputs ?? [];
	const expected = expectedOutputs(workload.steps, workload.items);
	if (JSON.stringify(outputs) !== JSON.stringify(expected))
		problems.push(`outputs ${JSON.stringify(outputs)}, expected ${JSON.stringify(expected)}`);
	if (figures.error) problems.push(`error: ${figures.error}`);
	return problems;
}

/** What the worker needs of a workload (the table's links to other entries stay here). */
const forWorker = ({ baseline, minimal, compare, ...plain }) => plain;

/** Runs workloads in worker processes; `profile` settings as options.mjs reads them. */
export function measurer({ sb, log, profile, profileKind, profileDir }) {
	let profileCount = 0;

	function runWorker(workload, env) {
		return new Promise((resolve, reject) => {
			if (profile) {
				const extension = profileKind === 'heap' ? 'heapprofile' : 'cpuprofile';
				env = {
					...env,
					profileKind,
					profileFile: path.join(profileDir, `${workload.id}.${++profileCount}.${extension}`),
				};
			}
			const child = fork(path.join(HERE, 'worker.cjs'), [], {
				execArgv: ['--expose-gc'],
				stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
			});
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
					resolve({
						...message,
						sandbox: { ...sandboxFigures(sb), cpuMs: (cpu.user + cpu.system) / 1000 },
					});
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
			seedSandbox(
				sb,
				workload,
				workload.seedEntries ? Math.min(workload.seedEntries, workload.warmupItems) : 0,
			);
			child.send({ cmd: 'run', workload: forWorker(workload), env });
		});
	}

	/** One measured run, checked; a run that failed because dist/ was being rebuilt meanwhile (another `npm run build`) is run again. */
	return async function measure(workload, env) {
		for (let attempt = 1; ; attempt++) {
			try {
				const figures = await runWorker(workload, env);
				figures.problems = verify(sb, workload, figures);
				return figures;
			} catch (error) {
				if (attempt >= 3 || !/is it built|Cannot find module .*dist/.test(String(error.message)))
					throw error;
				log(`${workload.id}: dist/ was missing (a build running meanwhile?); trying again in 15 s`);
				await new Promise((resolve) => setTimeout(resolve, 15000));
			}
		}
	};
}

export function median(values) {
	const sorted = values
		.filter((v) => typeof v === 'number' && Number.isFinite(v))
		.sort((a, b) => a - b);
	if (sorted.length === 0) return undefined;
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median figures of a workload's runs (and every run's own, in `raw`). */
export function summarize(workload, runs) {
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
