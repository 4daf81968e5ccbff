/**
 * The benchmark's command-line options (each also from an environment variable); see run.mjs for
 * the list. `settings()` reads them once.
 */
import path from 'node:path';

function reader(args) {
	const option = (name, envName, fallback) => {
		const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
		if (i >= 0)
			return args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
		return process.env[envName] ?? fallback;
	};
	const flag = (name) => args.includes(`--${name}`);
	const positiveNumber = (name, value) => {
		const n = Number(value);
		if (!Number.isFinite(n) || n <= 0)
			throw new Error(`--${name} must be a positive number (got ${value})`);
		return n;
	};
	return { option, flag, positiveNumber };
}

export function settings(args, { root, resultsDir }) {
	const { option, flag, positiveNumber } = reader(args);
	const scale = positiveNumber('scale', option('scale', 'BENCH_SCALE', '1'));
	const baseline = option('baseline', 'BENCH_BASELINE', undefined);
	return {
		latency: positiveNumber('latency', option('latency', 'BENCH_LATENCY_MS', '20')),
		sendLatency: positiveNumber(
			'send-latency',
			option('send-latency', 'BENCH_SEND_LATENCY_MS', '50'),
		),
		runs: Math.round(positiveNumber('runs', option('runs', 'BENCH_RUNS', '3'))),
		scale,
		scaled: (n) => Math.max(1, Math.round(n * scale)),
		full: flag('full'),
		only: option('only', 'BENCH_ONLY', undefined),
		out: path.resolve(option('out', 'BENCH_OUT', path.join(resultsDir, 'latest.json'))),
		withCli: !flag('no-cli'),
		withQueue: !flag('no-queue'),
		build: !flag('no-build'),
		list: flag('list'),
		/** A second checkout whose dist/ runs the same workloads, alternating with this one. */
		baseline: baseline ? path.resolve(baseline) : undefined,
		/** --profile: each measured run also writes a V8 CPU profile of that run; --heap-profile: a sampling heap profile. */
		profile: flag('profile') || flag('heap-profile'),
		profileKind: flag('heap-profile') ? 'heap' : 'cpu',
		profileDir: path.join(root, 'build', 'bench', 'profiles'),
	};
}
