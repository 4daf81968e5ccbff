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

export let c: QueueCluster;
export let model: ModelServer;

export function useSharedCluster(): void {
	beforeAll(async () => {
		model = await startModelServer(AGENT_EXAMPLE_PLAN);
		c = await startQueueCluster({
			workers: 2,
			concurrency: 10,
			extraCredentials: [agentExampleCredential(model.baseUrl)],
		});
	});
	afterAll(async () => {
		await model?.close();
		// Stopped by the last test (which checks what is left); here only when a round failed first
		// (stop() removes the cluster's folder).
		if (c && fs.existsSync(c.dir)) await c.stop();
	});
}
