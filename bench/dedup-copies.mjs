/**
 * The fault-free cost of the Deduplication Key in real queue mode (docs/performance.md, docs/deduplication.md window 5): two keyed
 * send nodes in one workflow (scope This Node; test/queue/support/two-nodes.ts), every event
 * delivered twice at once, 20 in flight, two workers of 10, PostgreSQL and Redis (the project's
 * cluster, scripts/queue/), no fault. Counts what a clean run never answers: store failures,
 * kept claims, messages never sent, every copy answered anything but `sent` or `duplicate`
 * (test/queue/support/dedup-counts.ts), and writes them to the JSON file.
 *
 *   node bench/dedup-copies.mjs --events 1000 [--package old.tgz] [--trace dir] [--out file.json]
 *
 * --package: the tarball the cluster installs (default: this tree's dist/, packed); --trace: the
 * store-call tracer and PostgreSQL's statement log into that folder (scripts/queue/dedup-trace.js;
 * read them with scripts/queue/dedup-trace-report.js). Takes about 4 minutes for 1,000 events.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const hook = require('./ts-hook.cjs');
const args = process.argv.slice(2);
const option = (name, fallback) => {
	const at = args.indexOf(`--${name}`);
	return at >= 0 ? args[at + 1] : fallback;
};
const EVENTS = Number(option('events', 1000));
const LATENCY = Number(option('latency', 300));
const OUT = path.resolve(
	option('out', path.join(hook.ROOT, 'test-artifacts', 'dedup-copies.json')),
);
const trace = option('trace');
if (trace) process.env.DEDUP_TRACE_DIR = path.resolve(trace);

const support = require('../test/queue/support/cluster.ts');
const two = require('../test/queue/support/two-nodes.ts');
const dedup = require('../test/queue/support/dedup.ts');
const { countTwoNodes } = require('../test/queue/support/dedup-counts.ts');

const log = (message) =>
	process.stderr.write(`[dedup-copies ${new Date().toISOString()}] ${message}\n`);
const load = () =>
	os
		.loadavg()
		.map((n) => n.toFixed(2))
		.join(' ');

const packageFile = option('package');
const campaigns = ['ORDER-M', 'SHIP-M'];
log(`starting the cluster (load ${load()})`);
const c = await support.startQueueCluster({
	workers: 2,
	concurrency: 10,
	...(packageFile ? { package: path.resolve(packageFile) } : {}),
});
try {
	for (const campaign of campaigns) c.sandbox.addCampaign(campaign);
	const id = await c.createWorkflow(
		two.twoNodeWorkflow(
			'dedup-copies',
			'5f0c2d4e-0000-4000-8000-0000000dd0c1',
			campaigns,
			'distinct',
		),
	);
	await c.activate(id);
	await dedup.webhookReady(c.webhookUrl('dedup-copies'));
	c.sandbox.configure({ latencyMs: LATENCY });
	const bodies = dedup.events('copies', EVENTS);
	const loadBefore = load();
	log(`${EVENTS} events, each twice at once, ${dedup.IN_FLIGHT} in flight (load ${loadBefore})`);
	const started = Date.now();
	const answers = await two.postAll(
		c.webhookUrl('dedup-copies'),
		dedup.pairs(bodies),
		dedup.IN_FLIGHT,
	);
	const wallMs = Date.now() - started;
	const rows = await c.db.waitForExecutions({ workflowId: id, count: bodies.length * 2 });
	const executions = [];
	for (const row of rows) {
		const data = await c.db.runData(row.id);
		const hook = data?.resultData?.runData?.Webhook?.[0]?.data?.main?.[0]?.[0]?.json;
		executions.push({
			id: row.id,
			status: row.status,
			worker: c.workerOf(row.id),
			startedAt: row.startedAt,
			stoppedAt: row.stoppedAt,
			eventId: hook?.body?.eventId,
			error: data?.resultData?.error?.message,
			errorNode: data?.resultData?.lastNodeExecuted,
			answer:
				data?.resultData?.runData?.Answer?.[0]?.data?.main?.[0]?.[0]?.json ??
				data?.resultData?.runData?.['Order not sent']?.[0]?.data?.main?.[0]?.[0]?.json ??
				data?.resultData?.runData?.['Shipping not sent']?.[0]?.data?.main?.[0]?.[0]?.json,
		});
	}
	const counts = countTwoNodes(c.sandbox, campaigns, bodies, answers);
	const figures = {
		package: packageFile ? path.basename(packageFile) : 'this tree',
		events: EVENTS,
		deliveries: answers.length,
		executions: rows.length,
		unsuccessfulExecutions: rows.filter((r) => r.status !== 'success').length,
		latencyMs: LATENCY,
		wallMs,
		load: { before: loadBefore, after: load(), cores: os.cpus().length },
		...counts,
		// Each copy whose answer was not sent or duplicate: its execution, worker and times.
		unusual: executions.filter((e) => counts.unusual.some((u) => u.eventId === e.eventId)),
	};
	fs.mkdirSync(path.dirname(OUT), { recursive: true });
	fs.writeFileSync(OUT, `${JSON.stringify(figures, null, 2)}\n`);
	log(`done in ${(wallMs / 1000).toFixed(1)} s: ${JSON.stringify(counts.summary)} -> ${OUT}`);
} finally {
	await c.stop();
}
