/**
 * The queue-mode workloads of workloads.cjs (entries with a `queue` setting): n8n's distributed
 * engine on this machine (scripts/queue/: PostgreSQL, Redis, main, webhook process, workers)
 * against the bench's sandbox. Entries with the same `queue` setting share one installation,
 * started afresh for each run (and, with --baseline, for each tree: the two packages take turns),
 * each entry warmed up with 100 events before it is measured.
 *
 * An entry's `queue`: `{ workers }` (0 with `mode: 'regular'`: one n8n process, no queue), and its
 * `steps`: 'webhookSend' (items webhook events, each one Alimtalk send, fired 20 at a time;
 * measured from the first event to the last execution finished) or 'sync' (a manual run of the
 * generated-rows custom data sync; measured from the run request to the execution finished).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fmt } from './format.mjs';

const require = createRequire(import.meta.url);
const { startCluster } = require('../scripts/queue/cluster.js');
const wf = require('../scripts/queue/workflows.js');
const rt = require('../scripts/runtime/index.js');

const CAMPAIGN = 'BENCH-QUEUE';
/** The cluster of the run under way (stopQueueCluster stops it when the bench is interrupted). */
let running;

/** Stops the cluster of the run under way, if any: its processes and folders go. */
export async function stopQueueCluster() {
	const cluster = running;
	running = undefined;
	await cluster?.stop();
}
const IN_FLIGHT = 20;

/**
 * The send workflow of an entry: with `dedup: { history, prefill }` the send has a Deduplication
 * Key (the event id) and its record holds `prefill` keys before each run, written straight into
 * n8n's processed_data table as n8n stores them (the md5 of each value), as after that many sends.
 */
async function deploySend(cluster, w) {
	const workflow = wf.webhookSendWorkflow({ path: w.path ?? 'bench-queue', campaignKey: CAMPAIGN });
	const send = workflow.nodes.find((n) => n.type.endsWith('.campaignAlimtalk'));
	if (w.dedup)
		send.parameters.options = {
			...send.parameters.options,
			deduplicationKey: '={{ $json.body.eventId }}',
			deduplicationHistorySize: w.dedup.history,
		};
	return { workflowId: await cluster.deploy(workflow), nodeId: send.id };
}

async function prefill(cluster, { workflowId, nodeId }, count, run) {
	const md5 = (text) => createHash('md5').update(text).digest('base64');
	const where = '"workflowId" = $1 AND context = $2';
	const row = [workflowId, `n:${nodeId}`];
	await cluster.db.query('DELETE FROM processed_data WHERE "workflowId" = $1', [workflowId]);
	const data = Array.from({ length: count }, (_, i) => md5(`prefill-${run}-${i}`));
	await cluster.db.query(
		'INSERT INTO processed_data ("workflowId", context, value) VALUES ($1, $2, $3)',
		[...row, JSON.stringify({ mode: 'entries', data })],
	);
	// One store call as n8n makes it (read the record, add a value, write it back whole), timed
	// 20 times on this database: the size of the windows docs/deduplication.md names.
	const callMs = [];
	for (let i = 0; i < 20; i++) {
		const started = process.hrtime.bigint();
		const [found] = await cluster.db.query(`SELECT value FROM processed_data WHERE ${where}`, row);
		const value = JSON.parse(found.value);
		value.data.push(md5(`probe-${run}-${i}`));
		await cluster.db.query(`UPDATE processed_data SET value = $3 WHERE ${where}`, [
			...row,
			JSON.stringify(value),
		]);
		callMs.push(Number(process.hrtime.bigint() - started) / 1e6);
	}
	callMs.sort((a, b) => a - b);
	// The same on a record of a few entries, as the lock is (a context no node uses, removed after).
	const lockRow = [workflowId, 'n:bench-lock-probe'];
	const lockMs = [];
	await cluster.db.query(
		'INSERT INTO processed_data ("workflowId", context, value) VALUES ($1, $2, $3)',
		[...lockRow, JSON.stringify({ mode: 'entries', data: [md5('a'), md5('a')] })],
	);
	for (let i = 0; i < 20; i++) {
		const started = process.hrtime.bigint();
		const [found] = await cluster.db.query(
			`SELECT value FROM processed_data WHERE ${where}`,
			lockRow,
		);
		const value = JSON.parse(found.value);
		value.data.push(md5(`beat-${i}`));
		await cluster.db.query(`UPDATE processed_data SET value = $3 WHERE ${where}`, [
			...lockRow,
			JSON.stringify(value),
		]);
		lockMs.push(Number(process.hrtime.bigint() - started) / 1e6);
	}
	await cluster.db.query(`DELETE FROM processed_data WHERE ${where}`, lockRow);
	lockMs.sort((a, b) => a - b);
	return { p50: callMs[10], max: callMs[19], lockP50: lockMs[10], lockMax: lockMs[19] };
}

const STEPS = {
	async webhookSend(cluster, sb, w, run, ids) {
		if (!ids.has(w.id)) ids.set(w.id, await deploySend(cluster, w));
		const { workflowId } = ids.get(w.id);
		const storeCallMs = w.dedup
			? await prefill(cluster, ids.get(w.id), w.dedup.prefill, run)
			: undefined;
		const sinceId = Math.max(0, ...(await cluster.db.executions({ workflowId })).map((r) => r.id));
		const bodies = Array.from({ length: w.items }, (_, i) => wf.eventBody(i, `r${run}`));
		const started = Date.now();
		const fired = await cluster.fireWebhooks(w.path ?? 'bench-queue', bodies, {
			concurrency: IN_FLIGHT,
		});
		const rows = await cluster.db.waitForExecutions({
			workflowId,
			count: w.items,
			sinceId,
			pollMs: 100,
			timeoutMs: 15 * 60 * 1000,
		});
		const wallMs = Date.now() - started;
		const sent = sb.state.sent.filter((m) => m.campaignKey === CAMPAIGN);
		const problems = [];
		if (fired.statuses.some((s) => s !== 200))
			problems.push(`${fired.statuses.filter((s) => s !== 200).length} events not accepted`);
		const failed = rows.filter((r) => r.status !== 'success');
		if (failed.length > 0) {
			// What each said (its run data's error), so that a problem names its cause.
			const said = await Promise.all(
				failed.slice(0, 5).map(async (r) => {
					const data = await cluster.db.runData(r.id).catch(() => undefined);
					const error = data?.resultData?.error;
					return `${r.id} ${r.status}: ${String(error?.message ?? 'no error recorded').slice(0, 160)}${error?.description ? ` (${String(error.description).slice(0, 160)})` : ''}`;
				}),
			);
			problems.push(`${failed.length} executions not successful (${said.join('; ')})`);
		}
		if (sent.length !== w.items || new Set(sent.map((m) => m.properties.eventId)).size !== w.items)
			problems.push(`${sent.length} messages for ${w.items} events`);
		return {
			wallMs,
			fireMs: fired.ms,
			executions: rows.length,
			requests: sent.length,
			...(storeCallMs ? { storeCallMs } : {}),
			problems,
		};
	},

	async sync(cluster, sb, w, run, ids) {
		for (const [key, format] of Object.entries(wf.SYNC_KEYS)) sb.registerKey(key, format);
		if (!ids.has(w.id))
			ids.set(w.id, await cluster.createWorkflow(wf.syncWorkflow({ rows: w.items })));
		const workflowId = ids.get(w.id);
		const started = Date.now();
		const executionId = await cluster.runManually(workflowId, 'Run');
		const rows = await cluster.db.waitForExecutions({
			workflowId,
			count: run,
			pollMs: 100,
			timeoutMs: 15 * 60 * 1000,
		});
		const wallMs = Date.now() - started;
		const row = rows.find((r) => r.id === executionId);
		const writes = sb.requests.filter((r) => r.method === 'POST' && r.path === '/v2/custom').length;
		const members = [...sb.state.custom.keys()].filter((k) => k.startsWith('sync-')).length;
		const problems = [];
		if (row?.status !== 'success') problems.push(`execution ${executionId} ${row?.status}`);
		if (writes !== w.requests || members !== w.items)
			problems.push(`${writes} requests, ${members} members stored`);
		const executionMs = row
			? new Date(row.stoppedAt).getTime() - new Date(row.startedAt).getTime()
			: NaN;
		return {
			wallMs,
			executionMs,
			requests: writes,
			worker: cluster.workerOf(executionId) ?? 'main',
			problems,
		};
	},
};

function clusterOptions(setting, sb) {
	const regular = setting.mode === 'regular';
	return {
		workers: setting.workers,
		webhook: !regular,
		credentials: [
			{
				...rt.SANDBOX_CREDENTIAL,
				data: { baseUrl: sb.baseUrl, apiKey: sb.apiKey, memberApiVersion: 'any' },
			},
		],
		env: regular ? { EXECUTIONS_MODE: 'regular' } : {},
		mainEnv: { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' },
	};
}

/**
 * Before an entry's first measured run on a cluster: WARM_UP events through its workflow, not
 * measured (the first executions on a fresh cluster pay for n8n's caches and compilation, which
 * would count against whichever entry runs first).
 */
const WARM_UP = 100;

async function warmUp(cluster, sb, w, ids) {
	if (w.steps !== 'webhookSend') return;
	if (!ids.has(w.id)) ids.set(w.id, await deploySend(cluster, w));
	const { workflowId } = ids.get(w.id);
	sb.configure({ latencyMs: w.latency });
	sb.addCampaign(CAMPAIGN);
	const bodies = Array.from({ length: WARM_UP }, (_, i) => wf.eventBody(i, 'warm-up'));
	await cluster.fireWebhooks(w.path ?? 'bench-queue', bodies, { concurrency: IN_FLIGHT });
	await cluster.db.waitForExecutions({
		workflowId,
		count: WARM_UP,
		pollMs: 100,
		timeoutMs: 5 * 60 * 1000,
	});
}

/** One measured run of `w` on `cluster`, logged. */
async function measuredRun(cluster, sb, w, run, ids, log, tree) {
	sb.configure({ latencyMs: w.latency });
	sb.reset();
	sb.addCampaign(CAMPAIGN);
	const figures = await STEPS[w.steps](cluster, sb, w, run, ids);
	const calls = figures.storeCallMs;
	const store = calls
		? `, a store call ${fmt(calls.p50, 1)} ms (max ${fmt(calls.max, 1)}), on the lock's record ${fmt(calls.lockP50, 1)} ms (max ${fmt(calls.lockMax, 1)})`
		: '';
	log(
		`queue run ${run}/${w.runs} ${w.id}${tree === 'this' ? '' : ` (${tree})`}: ${fmt(figures.wallMs)} ms, ${figures.requests} requests${store}${figures.problems.length ? ` PROBLEM: ${figures.problems.join('; ')}` : ''}`,
	);
	return figures;
}

/**
 * Runs the queue entries, `w.runs` runs each, for every tree of `trees` (this one, and with
 * --baseline the other checkout, its package packed from its own dist/). Each run starts a fresh
 * cluster per tree, trees in turns (which goes first swaps every run), and warms each entry up
 * before measuring it. Resolves with, per tree name, one result per entry (its fastest run: the
 * machine is shared).
 */
export async function runQueueWorkloads({ sb, workloads, log, trees = [{ name: 'this' }] }) {
	const groups = new Map();
	for (const w of workloads) {
		const key = JSON.stringify(w.queue);
		groups.set(key, [...(groups.get(key) ?? []), w]);
	}
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-queue-pack-'));
	const raw = new Map(trees.map((tree) => [tree.name, new Map()]));
	try {
		const tarballs = new Map();
		for (const tree of trees)
			tarballs.set(tree.name, await rt.packPackage(path.join(packDir, tree.name), tree.root));
		for (const [key, list] of groups) {
			const runs = Math.max(...list.map((w) => w.runs));
			for (let run = 1; run <= runs; run++) {
				for (const tree of run % 2 === 1 ? trees : [...trees].reverse()) {
					log(`queue mode ${key}, run ${run}, ${tree.name}: starting PostgreSQL, Redis and n8n`);
					const options = {
						...clusterOptions(JSON.parse(key), sb),
						package: tarballs.get(tree.name),
					};
					const cluster = await startCluster(options);
					running = cluster;
					log(`  ready in ${fmt(cluster.startMs / 1000, 1)} s`);
					const ids = new Map();
					try {
						for (const w of list.filter((entry) => run <= entry.runs)) {
							await warmUp(cluster, sb, w, ids);
							const figures = await measuredRun(cluster, sb, w, run, ids, log, tree.name);
							const byId = raw.get(tree.name);
							byId.set(w.id, [...(byId.get(w.id) ?? []), figures]);
						}
					} finally {
						running = undefined;
						await cluster.stop();
					}
				}
			}
		}
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
	const summary = (byId) =>
		workloads.map((w) => {
			const runsOf = byId.get(w.id) ?? [];
			const fastest = [...runsOf].sort((a, b) => a.wallMs - b.wallMs)[0];
			return {
				id: w.id,
				label: w.label,
				items: w.items,
				latency: w.latency,
				...fastest,
				raw: runsOf,
				problems: runsOf.flatMap((r) => r.problems),
			};
		});
	return Object.fromEntries(trees.map((tree) => [tree.name, summary(raw.get(tree.name))]));
}
