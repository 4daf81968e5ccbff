/**
 * The comparisons that need the whole of n8n: the Code node runs user code in n8n's task runner
 * (a separate process the n8n command line starts), which n8n-core alone does not provide. So
 * the Code + HTTP Request pipeline, and the package doing the same job, run through
 * `n8n execute` of the local n8n runtime (n8n 2.41.1 on Node 24, scripts/runtime/), with
 * the package installed as a community package from `npm pack`, exactly as users get it.
 *
 * Each execution is a cold n8n process; what is compared is the run data n8n records itself:
 * the execution time of each node and of the whole execution (startedAt..stoppedAt), without
 * the command line's start-up.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const runtime = require('../scripts/runtime');
const { cliWorkflow } = require('./steps.cjs');

const CREDENTIAL = { id: 'benchCampaign', name: 'Bench Campaign', type: 'campaignApi' };

/**
 * A fresh n8n user folder with the packed package, the sandbox credential and the workflows.
 * Returns `{ paths, userFolder, workflows }` (workflows by workload id).
 */
async function prepareCli({ paths, workDir, sandbox, workloads }) {
	fs.rmSync(workDir, { recursive: true, force: true });
	fs.mkdirSync(workDir, { recursive: true });
	const userFolder = runtime.createUserFolder(workDir, 'n8n-user-');
	const tarball = await runtime.packPackage(path.join(workDir, 'pack'));
	await runtime.installPackage(userFolder, tarball);
	await runtime.importCredentials(paths, userFolder, [
		{ ...CREDENTIAL, data: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey } },
	]);
	const env = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey };
	const workflows = {};
	const files = [];
	workloads.forEach((workload, index) => {
		const id = `bench${String(index + 1).padStart(4, '0')}wf${'x'.repeat(6)}`.slice(0, 16);
		const wf = cliWorkflow(workload, { ...env, ...workload.params }, id);
		const { resultNode, measuredNodes, ...json } = wf;
		const file = path.join(workDir, `${workload.id}.json`);
		fs.writeFileSync(file, JSON.stringify(json, null, 1));
		files.push(file);
		workflows[workload.id] = { id, resultNode, measuredNodes };
	});
	await runtime.importWorkflows(paths, userFolder, files);
	return { paths, userFolder, workflows };
}

/** One `n8n execute` of a prepared workflow; the figures n8n recorded for it. */
async function runCli(cli, workloadId) {
	const wf = cli.workflows[workloadId];
	const started = Date.now();
	const result = await runtime.executeWorkflow(cli.paths, cli.userFolder, wf.id, {
		timeoutMs: 600000,
	});
	const processMs = Date.now() - started;
	const run = result.data;
	const runData = run?.data?.resultData?.runData;
	if (!runData) {
		throw new Error(
			`n8n execute ${workloadId} gave no run data (exit ${result.code}):\n${(result.stderr || result.stdout).slice(-3000)}`,
		);
	}
	const error = run.data.resultData.error;
	const nodeTimesMs = {};
	for (const [name, runs] of Object.entries(runData))
		nodeTimesMs[name] = runs.reduce((s, r) => s + (r.executionTime ?? 0), 0);
	const measuredMs = wf.measuredNodes.reduce((sum, name) => sum + (nodeTimesMs[name] ?? 0), 0);
	const last = runData[wf.resultNode]?.[0]?.data?.main ?? [];
	return {
		processMs,
		executionMs: new Date(run.stoppedAt).getTime() - new Date(run.startedAt).getTime(),
		measuredMs,
		nodeTimesMs,
		error: error ? String(error.message ?? error) : undefined,
		result: { outputs: last.map((items) => (items ?? []).length) },
	};
}

module.exports = { prepareCli, runCli };
