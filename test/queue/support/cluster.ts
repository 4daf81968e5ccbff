/**
 * The queue-mode test harness: the API sandbox in this process, and n8n in queue mode around it
 * (scripts/queue/cluster.js: PostgreSQL, Redis, main, webhook, workers), with the credential
 * "Campaign Sandbox" pointing at the sandbox.
 *
 *   const c = await startQueueCluster({ workers: 2, sandboxLatencyMs: 20 });
 *   const id = await c.deploy(workflowJson);           // created and published through main's REST API
 *   const sent = await c.fireWebhooks('my-path', bodies, { concurrency: 20 });
 *   const rows = await c.db.waitForExecutions({ workflowId: id, count: bodies.length });
 *   c.workerOf(rows[0].id);                            // 'worker-1' | 'worker-2' | undefined
 *   await c.workers[0].kill('SIGKILL');
 *   await c.stop();                                    // then: await c.leftovers() is empty
 */
import * as queue from '../../../scripts/queue/cluster';
import type { Cluster, ClusterOptions } from '../../../scripts/queue/cluster';
import * as rt from '../../../scripts/runtime';
import { seedDemoData } from '../../../sandbox/demo';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../sandbox/server';
import { groupIsGone, portIsFree } from '../../../scripts/queue/process-groups';
import { fs, proc } from '../../support/node';

export type { FireResult, Json } from '../../../scripts/queue/cluster';
/** The bounded webhook client (POSTs bodies, at most `concurrency` at once). */
export const fire = queue.fire;

export interface QueueClusterOptions extends ClusterOptions {
	/** Added to every sandbox response (a realistic service latency). */
	sandboxLatencyMs?: number;
	sandboxOptions?: SandboxOptions;
	/** Seed the sandbox's demo data (campaigns DEMO-*, demo members); default true. */
	demoData?: boolean;
	/** Credentials imported besides "Campaign Sandbox" (e.g. the AI example's model). */
	extraCredentials?: ClusterOptions['credentials'];
}

export interface Leftovers {
	pids: number[];
	ports: number[];
}

/** What is left of these process groups and ports (both empty when everything stopped). */
export async function leftoversOf(pids: number[], ports: number[]): Promise<Leftovers> {
	const open: number[] = [];
	for (const port of ports) if (!(await portIsFree(port))) open.push(port);
	return { pids: pids.filter((pid) => !groupIsGone(pid)), ports: open };
}

export interface QueueCluster extends Cluster {
	sandbox: Sandbox;
	/** After stop(): the process groups still alive and the ports still answering (both empty when clean; stop() itself fails when the cluster's folder is left). */
	leftovers(): Promise<Leftovers>;
}

export async function startQueueCluster(options: QueueClusterOptions = {}): Promise<QueueCluster> {
	const {
		sandboxLatencyMs = 0,
		sandboxOptions = {},
		demoData = true,
		extraCredentials = [],
		...clusterOptions
	} = options;
	const sandbox = await startSandbox({ latencyMs: sandboxLatencyMs, ...sandboxOptions });
	if (demoData) seedDemoData(sandbox);
	let cluster: Cluster | undefined;
	try {
		cluster = await queue.startCluster({
			credentials: [
				{
					...rt.SANDBOX_CREDENTIAL,
					data: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, memberApiVersion: 'any' },
				},
				...extraCredentials,
			],
			...clusterOptions,
		});
	} finally {
		if (!cluster) await sandbox.close();
	}
	const sandboxPort = Number(new URL(sandbox.baseUrl).port);
	const started = cluster;
	let resources = started.resources();

	const handle: QueueCluster = Object.assign(started, {
		sandbox,
		leftovers: (): Promise<Leftovers> =>
			leftoversOf(resources.pids, [...resources.ports, sandboxPort]),
	});
	const stopCluster = started.stop;
	handle.stop = async (): Promise<void> => {
		resources = started.resources();
		try {
			await stopCluster();
		} finally {
			await sandbox.close();
		}
		if (fs.existsSync(started.dir))
			throw new Error(`the cluster folder ${started.dir} is still there after stop()`);
	};
	return handle;
}

/** SIGKILL to a process and to the processes it started (n8n's task runner), as when a machine dies. */
export function killTree(pid: number): void {
	const children = fs
		.readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.filter((entry) => {
			try {
				return (
					fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] ===
					String(pid)
				);
			} catch {
				return false;
			}
		});
	for (const target of [pid, ...children.map(Number)]) {
		try {
			proc.kill(target, 'SIGKILL');
		} catch {
			// already gone
		}
	}
}
