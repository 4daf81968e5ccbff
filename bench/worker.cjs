/**
 * One measured run of one workload, in its own process (so that peak RSS is the workload's own),
 * through n8n-core's real WorkflowExecute (test/support/engine.ts) with the package loaded from
 * dist/ and n8n's own nodes loaded from the local n8n runtime.
 *
 * With `env.packageRoot` (the runner's --baseline) the package comes from that checkout's dist/,
 * run by this checkout's engine and harness, so that only the package differs.
 *
 * Protocol (IPC with bench/engine-runs.mjs): the parent sends { cmd: 'run', workload, env }; the worker
 * does a small warm-up run, sends { type: 'ready' }, waits for { cmd: 'go' } (the parent resets
 * and seeds the sandbox meanwhile), runs the workload once while measuring, sends
 * { type: 'result', ... } and exits.
 */
'use strict';
const path = require('node:path');
const hook = require('./ts-hook.cjs');
const { SOURCE_TYPE, inProcessWorkflow } = require('./steps.cjs');
const {
	minimalBulkCreateType,
	minimalSendType,
	rawHttpSendType,
	readSendParametersType,
	sourceNodeType,
} = require('./bench-nodes.cjs');

function send(message) {
	return new Promise((resolve, reject) =>
		process.send(message, (error) => (error ? reject(error) : resolve())),
	);
}

function nextMessage() {
	return new Promise((resolve) => process.once('message', resolve));
}

/** n8n's own node types, from the runtime's n8n-nodes-base, by full type name. */
function baseNodeTypes(nodesBaseDir) {
	hook.shareWorkflowWith(nodesBaseDir);
	const load = (file, className) => {
		const mod = require(path.join(nodesBaseDir, 'dist', 'nodes', file));
		return new mod[className]();
	};
	return {
		'n8n-nodes-base.noOp': load('NoOp/NoOp.node.js', 'NoOp'),
		'n8n-nodes-base.httpRequest': load('HttpRequest/HttpRequest.node.js', 'HttpRequest'),
		'n8n-nodes-base.splitOut': load('Transform/SplitOut/SplitOut.node.js', 'SplitOut'),
	};
}

function countOutputs(result, nodeName) {
	return result.outputs(nodeName).map((items) => items.length);
}

/** Item counts of selected fields of the result node's first output, to check what a run did. */
function summarize(result, nodeName) {
	const outputs = result.outputs(nodeName);
	const first = outputs[0] ?? [];
	let errors = 0;
	for (const item of first) if (item.json && item.json.error !== undefined) errors++;
	return { outputs: outputs.map((o) => o.length), errorItems: errors };
}

/** A V8 CPU profile of the measured run only (not of start-up and warm-up), through node:inspector. */
async function startProfile(kind) {
	const inspector = require('node:inspector');
	const session = new inspector.Session();
	session.connect();
	const post = (method, params) =>
		new Promise((resolve, reject) =>
			session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
		);
	if (kind === 'heap') {
		// Allocations by place (bytes allocated while the run ran, including what became garbage).
		await post('HeapProfiler.enable');
		await post('HeapProfiler.startSampling', {
			samplingInterval: 8192,
			includeObjectsCollectedByMajorGC: true,
			includeObjectsCollectedByMinorGC: true,
		});
	} else {
		await post('Profiler.enable');
		await post('Profiler.setSamplingInterval', { interval: 200 });
		await post('Profiler.start');
	}
	return async (file) => {
		const { profile } = await post(kind === 'heap' ? 'HeapProfiler.stopSampling' : 'Profiler.stop');
		session.disconnect();
		require('node:fs').mkdirSync(path.dirname(file), { recursive: true });
		require('node:fs').writeFileSync(file, JSON.stringify(profile));
	};
}

function nodeTimes(result) {
	const times = {};
	for (const [name, runs] of Object.entries(result.runData)) {
		times[name] = runs.reduce((sum, r) => sum + (r.executionTime ?? 0), 0);
	}
	return times;
}

async function main() {
	const { workload, env } = await nextMessage();
	const harness = require(path.join(hook.ROOT, 'test', 'support', 'engine.ts'));
	const packageRoot = env.packageRoot ?? hook.ROOT;
	if (packageRoot !== hook.ROOT) hook.shareWorkflowWith(path.join(packageRoot, 'dist'));
	const sendType = harness
		.loadPackage(packageRoot)
		.nodes.get(`${harness.PACKAGE_NAME}.campaignAlimtalk`);
	const extraTypes = {
		[SOURCE_TYPE]: sourceNodeType(),
		'bench.readSendParameters': readSendParametersType(sendType),
		'bench.rawHttpSend': rawHttpSendType(env),
		'bench.minimalSend': minimalSendType(env),
		'bench.minimalBulkCreate': minimalBulkCreateType(env),
		...baseNodeTypes(env.nodesBaseDir),
	};
	const credentials = { campaignApi: { baseUrl: env.baseUrl, apiKey: env.apiKey } };
	const runWith = async (items) => {
		const wf = inProcessWorkflow(
			{ ...workload, items, sourceCount: workload.sourceCount ?? items },
			{ ...env, ...workload.params },
		);
		const result = await harness.runWorkflow({
			nodes: wf.nodes,
			connections: wf.connections,
			credentials,
			extraTypes,
			packageRoot,
		});
		return { wf, result };
	};

	// A send with a Deduplication Key needs n8n's deduplication store: the test store, which
	// behaves like n8n's own (test/support/dedup-store.ts).
	const store = workload.params?.deduplicationKey
		? await require(path.join(hook.ROOT, 'test', 'support', 'dedup-store.ts')).installStore()
		: undefined;
	// Warm-up: the same workflow on a few items (module loading and JIT are not what is measured).
	if (workload.warmupItems > 0) {
		const { result, wf } = await runWith(workload.warmupItems);
		if (result.error) throw new Error(`warm-up failed: ${result.error.message}`);
		countOutputs(result, wf.resultNode);
	}
	// The warm-up's keys would make the measured run's first items duplicates.
	store?.reset();
	global.gc?.();
	global.gc?.();
	await send({ type: 'ready' });
	await nextMessage();

	global.gc?.();
	const stopProfile = env.profileFile ? await startProfile(env.profileKind) : undefined;
	const before = process.memoryUsage();
	const rssBefore = before.rss;
	const heapBefore = before.heapUsed;
	// Where the memory is (sampled every 25 ms while the event loop turns): JS heap vs. buffers.
	const peaks = {
		heapUsed: before.heapUsed,
		external: before.external,
		arrayBuffers: before.arrayBuffers,
	};
	const sampler = setInterval(() => {
		const m = process.memoryUsage();
		for (const key of Object.keys(peaks)) peaks[key] = Math.max(peaks[key], m[key]);
	}, 25);
	const cpu0 = process.cpuUsage();
	const t0 = process.hrtime.bigint();
	const { result, wf } = await runWith(workload.items);
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const cpu = process.cpuUsage(cpu0);
	const heapAfter = process.memoryUsage().heapUsed;
	const maxRssBytes = process.resourceUsage().maxRSS * 1024;
	clearInterval(sampler);
	if (stopProfile) await stopProfile(env.profileFile);
	global.gc?.();
	const heapLiveAfter = process.memoryUsage().heapUsed;

	await send({
		type: 'result',
		wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		rssBeforeBytes: rssBefore,
		peakRssBytes: maxRssBytes,
		rssGrowthBytes: Math.max(0, maxRssBytes - rssBefore),
		heapRetainedBytes: heapAfter - heapBefore,
		sampledPeakGrowthBytes: {
			heapUsed: peaks.heapUsed - before.heapUsed,
			external: peaks.external - before.external,
			arrayBuffers: peaks.arrayBuffers - before.arrayBuffers,
		},
		/** Heap still reachable after the run (outputs and run data), after a full GC. */
		heapLiveGrowthBytes: heapLiveAfter - heapBefore,
		nodeTimesMs: nodeTimes(result),
		error: result.error ? String(result.error.message ?? result.error) : undefined,
		result: summarize(result, wf.resultNode),
		node: process.version,
		/** The package's modules this process loaded, all from packageRoot's dist/ (the proof of which tree ran). */
		packageModules: Object.keys(require.cache).filter((file) =>
			file.startsWith(path.join(packageRoot, 'dist') + path.sep),
		).length,
	});
	process.exit(0);
}

main().catch(async (error) => {
	try {
		await send({ type: 'error', error: String(error?.stack ?? error) });
	} finally {
		process.exit(1);
	}
});
