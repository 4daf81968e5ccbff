/**
 * The one cluster of test/queue/cluster.queue.ts, shared by the rounds of test/queue/rounds/
 * (PostgreSQL, Redis, main, webhook process, two workers of 10 executions each; the AI example's
 * model server beside it). `useSharedCluster()` starts them before the first round; the rounds
 * read `c` and `model` (set once started). The last test of that file stops them.
 */
import { AGENT_EXAMPLE_PLAN, agentExampleCredential } from '../../support/agent-example';
import { startModelServer, type ModelServer } from '../../support/model-server';
import { fs } from '../../support/node';
import { startQueueCluster, type QueueCluster } from './cluster';

/**
 * n8n marks the execution of a killed worker failed when its queue job's lock runs out and the
 * next stalled-job check finds it: with n8n's defaults (a 60 s lock renewed every 10 s, a check
 * every 30 s) about 90 s after the kill. The rounds that kill a worker wait for that, so this
 * cluster shortens both (docs/queue-faults.md gives both figures); nothing else changes.
 */
const STALL_CHECK = {
	QUEUE_WORKER_LOCK_DURATION: '20000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

export let c: QueueCluster;
export let model: ModelServer;

export function useSharedCluster(): void {
	beforeAll(async () => {
		model = await startModelServer(AGENT_EXAMPLE_PLAN);
		c = await startQueueCluster({
			workers: 2,
			concurrency: 10,
			extraCredentials: [agentExampleCredential(model.baseUrl)],
			env: STALL_CHECK,
		});
	});
	afterAll(async () => {
		await model?.close();
		// Stopped by the last test (which checks what is left); here only when a round failed first
		// (stop() removes the cluster's folder).
		if (c && fs.existsSync(c.dir)) await c.stop();
	});
}
