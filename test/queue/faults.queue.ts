/**
 * A worker killed (SIGKILL, as an out-of-memory kill or a lost container would) in the middle of
 * a long Alimtalk send run. Measures how n8n marks the execution, what reached the service, and
 * what running the same input again sends; asserts what the README's "Running in queue mode"
 * section says about a crashed worker.
 */
import * as wf from '../../scripts/queue/workflows';
import { delay, fs, path, ROOT } from '../support/node';
import { record, startQueueCluster, type QueueCluster } from './support';

const MESSAGES = 400;
const CAMPAIGN = 'QUEUE-CRASH';

let c: QueueCluster;

beforeAll(async () => {
	c = await startQueueCluster({
		workers: 2,
		sandboxLatencyMs: 40,
		mainEnv: { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' },
	});
	c.sandbox.addCampaign(CAMPAIGN);
});

afterAll(async () => {
	await c?.stop();
});

const sentPhones = (): string[] =>
	c.sandbox.state.sent.filter((m) => m.campaignKey === CAMPAIGN).map((m) => m.phoneNumber);

async function until(check: () => boolean, what: string, timeoutMs = 120000): Promise<void> {
	const started = Date.now();
	while (!check()) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await delay(50);
	}
}

test('a worker killed mid-send: the execution fails, what was sent stays sent, a re-run sends everything again', async () => {
	const id = await c.createWorkflow(
		wf.sendRunWorkflow({ count: MESSAGES, campaignKey: CAMPAIGN, concurrency: 2 }),
	);
	const executionId = await c.runManually(id, 'Run');

	// Kill the worker that runs it once about a quarter of the messages went out.
	await until(() => sentPhones().length >= MESSAGES / 4, 'the first messages');
	await until(() => c.workerOf(executionId) !== undefined, 'the worker log line');
	const victim = c.workers.find((w) => w.name === c.workerOf(executionId));
	if (!victim) throw new Error('no worker ran the execution');
	const killedAt = Date.now();
	await victim.kill('SIGKILL');
	await delay(1000); // requests already on the wire land
	const sentByCrashedRun = sentPhones().length;
	expect(sentByCrashedRun).toBeGreaterThan(0);
	expect(sentByCrashedRun).toBeLessThan(MESSAGES);

	// Meanwhile n8n still shows the execution as running.
	const [meanwhile] = await c.db.executions({ workflowId: id });
	expect(meanwhile).toMatchObject({ id: executionId, status: 'running' });

	// n8n does not hand the job to the other worker: it marks the execution failed.
	const [crashed] = await c.db.waitForExecutions({
		workflowId: id,
		count: 1,
		timeoutMs: 5 * 60 * 1000,
	});
	const markedAfterMs = Date.now() - killedAt;
	expect(crashed).toMatchObject({ id: executionId, status: 'error' });
	expect(sentPhones()).toHaveLength(sentByCrashedRun);
	const survivor = c.workers.find((w) => w !== victim);
	expect(survivor?.log()).not.toMatch(new RegExp(`Worker started execution ${executionId} \\(`));
	// Its run data does not say which messages went out.
	const data = await c.db.runData(executionId);
	const sendRuns = data?.resultData?.runData?.['Campaign Alimtalk'] ?? [];
	expect(sendRuns).toEqual([]);
	const errorMessage = String(data?.resultData?.error?.message ?? '');

	// Running the same input again sends every message, the ones already delivered included.
	const rerunId = await c.runManually(id, 'Run');
	const rows = await c.db.waitForExecutions({ workflowId: id, count: 2, timeoutMs: 5 * 60 * 1000 });
	expect(rows.find((r) => r.id === rerunId)).toMatchObject({ status: 'success' });
	const phones = sentPhones();
	expect(phones).toHaveLength(sentByCrashedRun + MESSAGES);
	const counts = new Map<string, number>();
	for (const p of phones) counts.set(p, (counts.get(p) ?? 0) + 1);
	expect(new Set(phones).size).toBe(MESSAGES);
	const twice = [...counts.values()].filter((n) => n === 2).length;
	expect(twice).toBe(sentByCrashedRun);

	// The README's "Running in queue mode" says exactly this: tie it to what was measured.
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
	expect(readme).toContain('ends as **error** ("' + errorMessage.slice(0, 60));
	expect(readme).toContain('with **no run data**');
	expect(readme).toMatch(/does \*\*not\*\* move the execution to another worker/);

	record('workerKill', {
		messages: MESSAGES,
		sentBeforeKill: sentByCrashedRun,
		status: crashed.status,
		errorMessage,
		markedFailedAfterMs: markedAfterMs,
		rerunSent: MESSAGES,
		deliveredTwice: twice,
	});
});

test('stopping the cluster leaves no process, port or folder behind', async () => {
	await c.stop();
	expect(await c.leftovers()).toEqual({ pids: [], ports: [] });
	expect(fs.existsSync(c.dir)).toBe(false);
});
