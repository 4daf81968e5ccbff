/**
 * The queue-mode rounds that can share one cluster (test/queue/support/shared.ts: PostgreSQL,
 * Redis, main, webhook process, two workers of 10 executions each), in this order:
 * 1. rounds/topology.ts: the examples, 2,000 webhook events, a 50,000-row sync, and that the
 *    workers ran them all, both taking part;
 * 2. rounds/dedup.ts: the Deduplication Key's redelivery, concurrent copies, send limit and
 *    two-node rounds on both workers, then its worker-kill round (worker-1 killed);
 * 3. worker-3 started in worker-1's place (as an operator would);
 * 4. rounds/faults.ts: PostgreSQL and Redis restarted or down under load, then a worker killed in
 *    a long send run;
 * 5. rounds/missing-package.ts: a worker without the package beside the one left;
 * 6. stopping the cluster leaves no process, port or folder behind.
 * One cluster instead of four: each start and stop costs over a minute of CI.
 */
import { dedupKillRound, dedupRounds } from './rounds/dedup';
import { faultRounds, workerKillRound } from './rounds/faults';
import { missingPackageRound } from './rounds/missing-package';
import { topologyRounds } from './rounds/topology';
import { fs } from '../support/node';
import { c, useSharedCluster } from './support/shared';

useSharedCluster();

topologyRounds();
dedupRounds();
dedupKillRound();

test("a new worker is started in the killed one's place: worker-2 and worker-3 live", async () => {
	const worker = await c.addWorker();
	expect(worker.name).toBe('worker-3');
	expect(c.workers.filter((w) => w.alive()).map((w) => w.name)).toEqual(['worker-2', 'worker-3']);
});

faultRounds();
workerKillRound();
missingPackageRound();

test('stopping the cluster leaves no process, port or folder behind', async () => {
	await c.stop();
	expect(await c.leftovers()).toEqual({ pids: [], ports: [] });
	expect(fs.existsSync(c.dir)).toBe(false);
});
