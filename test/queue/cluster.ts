/**
 * The queue-mode test harness: the API sandbox in this process, and n8n in queue mode around it
 * (scripts/queue/cluster.js: PostgreSQL, Redis, main, webhook, workers), with the credential
 * "Campaign Sandbox" pointing at the sandbox.
 *
 *   const c = await startQueueCluster({ workers: 2, sandboxLatencyMs: 20 });
 *   const id = await c.createWorkflow(workflowJson);   // through main's REST API
 *   await c.activate(id);
 *   const sent = await c.fireWebhooks('my-path', bodies, { concurrency: 20 });
 *   const rows = await c.db.waitForExecutions({ workflowId: id, count: bodies.length });
 *   c.workerOf(rows[0].id);                            // 'worker-1' | 'worker-2' | undefined
 *   await c.workers[0].kill('SIGKILL');
 *   await c.stop();                                    // then: await c.leftovers() is empty
 */
import * as queue from '../../scripts/queue/cluster';
import type { Cluster, ClusterOptions } from '../../scripts/queue/cluster';
import * as rt from '../../scripts/runtime';
import { seedDemoData } from '../../sandbox/demo';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { fs, http, net, proc } from '../support/node';

// Workflows and REST answers are untyped JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export interface QueueClusterOptions extends ClusterOptions {
	/** Added to every sandbox response (a realistic service latency). */
	sandboxLatencyMs?: number;
	sandboxOptions?: SandboxOptions;
	/** Seed the sandbox's demo data (campaigns DEMO-*, demo members); default true. */
	demoData?: boolean;
}

export interface FireResult {
	/** HTTP status per body, in the order given; 0 when no answer came. */
	statuses: number[];
	errors: string[];
	maxInFlight: number;
	ms: number;
}

export interface QueueCluster extends Cluster {
	sandbox: Sandbox;
	/** Main's REST API with the owner's session. */
	rest(method: string, path: string, body?: unknown): Promise<Json>;
	/** Creates a workflow through main (its `id` is kept when given); returns the id. */
	createWorkflow(workflow: Json): Promise<string>;
	/** Publishes (activates) a workflow through main; its production webhooks then answer. */
	activate(id: string): Promise<void>;
	/** A manual run from `triggerName` through main (workers run it when offloading is on); the execution id. */
	runManually(id: string, triggerName: string): Promise<number>;
	webhookUrl(path: string): string;
	/** POSTs each body to the webhook process, at most `concurrency` at once. */
	fireWebhooks(path: string, bodies: unknown[], options?: { concurrency?: number; timeoutMs?: number }): Promise<FireResult>;
	/** Which worker started the execution, from the workers' logs ("Worker started execution N"). */
	workerOf(executionId: number): string | undefined;
	/** After stop(): the process groups still alive and the ports still answering (both empty when clean). */
	leftovers(): Promise<{ pids: number[]; ports: number[] }>;
}

/** POSTs bodies with a bounded number of requests in flight over keep-alive connections. */
export async function fire(
	url: string,
	bodies: unknown[],
	{ concurrency = 20, timeoutMs = 120000 } = {},
): Promise<FireResult> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const statuses = new Array<number>(bodies.length).fill(0);
	const errors: string[] = [];
	let next = 0;
	let inFlight = 0;
	let maxInFlight = 0;
	const started = Date.now();
	const post = (body: unknown): Promise<number> =>
		new Promise((resolve) => {
			const payload = JSON.stringify(body);
			const req = http.request(
				url,
				{
					method: 'POST',
					agent,
					timeout: timeoutMs,
					headers: { 'content-type': 'application/json', 'content-length': String(new TextEncoder().encode(payload).length) },
				},
				(res) => {
					res.resume();
					res.on('end', () => resolve(res.statusCode ?? 0));
				},
			);
			req.on('timeout', () => req.destroy(new Error('timeout')));
			req.on('error', (error) => {
				errors.push(error.message);
				resolve(0);
			});
			req.end(payload);
		});
	const lane = async (): Promise<void> => {
		while (next < bodies.length) {
			const i = next++;
			inFlight++;
			maxInFlight = Math.max(maxInFlight, inFlight);
			statuses[i] = await post(bodies[i]);
			inFlight--;
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, lane));
	agent.destroy();
	return { statuses, errors, maxInFlight, ms: Date.now() - started };
}

function portAnswers(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

function groupAlive(pgid: number): boolean {
	try {
		proc.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code !== 'ESRCH';
	}
}

export async function startQueueCluster(options: QueueClusterOptions = {}): Promise<QueueCluster> {
	const { sandboxLatencyMs = 0, sandboxOptions = {}, demoData = true, ...clusterOptions } = options;
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
			],
			...clusterOptions,
		});
	} finally {
		if (!cluster) await sandbox.close();
	}
	const sandboxPort = Number(new URL(sandbox.baseUrl).port);
	const started = cluster;
	let resources = started.resources();

	const rest = async (method: string, path: string, body?: unknown): Promise<Json> => {
		const res = await rt.httpRequest(method, `${started.main.url}/rest${path}`, {
			body,
			headers: { cookie: started.cookie },
			timeoutMs: 60000,
		});
		if (res.status !== 200) throw new Error(`${method} /rest${path}: HTTP ${res.status} ${res.body.slice(0, 500)}`);
		return (JSON.parse(res.body) as Json).data as Json;
	};

	const handle: QueueCluster = Object.assign(started, {
		sandbox,
		rest,
		createWorkflow: async (workflow: Json): Promise<string> => {
			const body = { ...workflow };
			delete body.active;
			delete body.versionId;
			return String((await rest('POST', '/workflows', body)).id);
		},
		activate: async (id: string): Promise<void> => {
			const { versionId } = await rest('GET', `/workflows/${id}`);
			await rest('POST', `/workflows/${id}/activate`, { versionId });
		},
		runManually: async (id: string, triggerName: string): Promise<number> => {
			const result = await rest('POST', `/workflows/${id}/run`, { triggerToStartFrom: { name: triggerName } });
			if (!result.executionId) throw new Error(`manual run of ${id} started no execution: ${JSON.stringify(result)}`);
			return Number(result.executionId);
		},
		webhookUrl: (path: string): string => `${(started.webhook ?? started.main).url}/webhook/${path}`,
		fireWebhooks: (path: string, bodies: unknown[], fireOptions = {}): Promise<FireResult> =>
			fire(`${(started.webhook ?? started.main).url}/webhook/${path}`, bodies, fireOptions),
		workerOf: (executionId: number): string | undefined =>
			started.workers.find((w) => new RegExp(`Worker started execution ${executionId} \\(job`).test(w.log()))?.name,
		leftovers: async (): Promise<{ pids: number[]; ports: number[] }> => {
			const ports: number[] = [];
			for (const port of [...resources.ports, sandboxPort]) if (await portAnswers(port)) ports.push(port);
			return { pids: resources.pids.filter(groupAlive), ports };
		},
	});
	const stopCluster = started.stop;
	handle.stop = async (): Promise<void> => {
		resources = started.resources();
		try {
			await stopCluster();
		} finally {
			await sandbox.close();
		}
		if (fs.existsSync(started.dir)) throw new Error(`the cluster folder ${started.dir} is still there after stop()`);
	};
	return handle;
}
