/**
 * Driving a started queue-mode installation from outside, as a user and a caller would: main's
 * REST API with the owner's session (create, publish, run a workflow), its production webhooks
 * through the webhook process with a bounded client, and which worker ran an execution.
 */
'use strict';
const http = require('node:http');
const rt = require('../runtime/index.js');

/**
 * @typedef {object} FireResult
 * @property {number[]} statuses  HTTP status per body, in the order given; 0 when no answer came
 * @property {string[]} errors
 * @property {number} maxInFlight
 * @property {number} ms
 */

/**
 * POSTs each body to `url`, at most `concurrency` at once over keep-alive connections.
 * @param {string} url
 * @param {unknown[]} bodies
 * @param {{ concurrency?: number, timeoutMs?: number }} [options]
 * @returns {Promise<FireResult>}
 */
async function fire(url, bodies, { concurrency = 20, timeoutMs = 120000 } = {}) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const statuses = new Array(bodies.length).fill(0);
	const errors = [];
	let next = 0;
	let inFlight = 0;
	let maxInFlight = 0;
	const started = Date.now();
	const post = (body) =>
		new Promise((resolve) => {
			const payload = JSON.stringify(body);
			const headers = {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(payload),
			};
			const req = http.request(
				url,
				{ method: 'POST', agent, timeout: timeoutMs, headers },
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
	const lane = async () => {
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

/**
 * What `rest` throws when main answers with a status other than 200: the status and the whole
 * body (n8n's JSON error, `{ code, message, ... }`), besides a message that starts with both.
 * @typedef {Error & { status: number, body: string }} RestError
 */

/**
 * The helpers startCluster() adds to its handle.
 * @typedef {object} ClusterApi
 * @property {(method: string, path: string, body?: unknown, options?: { timeoutMs?: number }) => Promise<Json>} rest  main's REST API with the owner's session; the answer's `data`. A status other than 200 throws a RestError (the status and the whole body); `timeoutMs` (default 60 s) bounds the wait for an answer
 * @property {(workflow: Json) => Promise<string>} createWorkflow  through main (its `id` is kept when given); the id
 * @property {(id: string) => Promise<void>} activate  publishes through main and waits until its webhooks answer
 * @property {(workflow: Json) => Promise<string>} deploy  createWorkflow + activate; the id
 * @property {(id: string, triggerName: string) => Promise<number>} runManually  through main (workers run it when offloading is on); the execution id
 * @property {(path: string) => string} webhookUrl
 * @property {(path: string, bodies: unknown[], options?: { concurrency?: number, timeoutMs?: number }) => Promise<FireResult>} fireWebhooks
 * @property {(executionId: number) => string | undefined} workerOf  from the workers' logs ("Worker started execution N")
 * @typedef {Record<string, any>} Json  workflows and REST answers are untyped JSON
 * @param {{ main: import('./n8n-process').N8nProcess, webhook?: import('./n8n-process').N8nProcess, workers: import('./n8n-process').N8nProcess[], cookie: string }} parts
 * @returns {ClusterApi}
 */
function clusterApi({ main, webhook, workers, cookie }) {
	/** Execution id to the name of the worker that started it, as far as the logs were read. */
	const startedBy = new Map();
	const rest = async (method, path, body, { timeoutMs = 60000 } = {}) => {
		const res = await rt.httpRequest(method, `${main.url}/rest${path}`, {
			body,
			headers: { cookie },
			timeoutMs,
		});
		if (res.status !== 200) {
			/** @type {RestError} */
			const error = Object.assign(
				new Error(`${method} /rest${path}: HTTP ${res.status} ${res.body.slice(0, 500)}`),
				{ status: res.status, body: res.body },
			);
			throw error;
		}
		return JSON.parse(res.body).data;
	};
	const webhookUrl = (path) => `${(webhook ?? main).url}/webhook/${path}`;
	const api = {
		rest,
		webhookUrl,
		/** Creates a workflow through main (its `id` is kept when given); resolves with the id. */
		createWorkflow: async (workflow) => {
			const body = { ...workflow };
			delete body.active;
			delete body.versionId;
			return String((await rest('POST', '/workflows', body)).id);
		},
		/**
		 * Publishes a workflow through main. The webhook process learns of it a moment later: this
		 * waits until each production webhook is registered there (asked with GET, which these POST
		 * webhooks do not take, so nothing runs: "not registered for GET requests" means the path is known).
		 */
		activate: async (id) => {
			const { versionId, nodes } = await rest('GET', `/workflows/${id}`);
			await rest('POST', `/workflows/${id}/activate`, { versionId });
			const paths = nodes
				.filter((n) => n.type === 'n8n-nodes-base.webhook')
				.map((n) => String(n.parameters.path));
			for (const path of paths) {
				for (let tries = 0; ; tries++) {
					const res = await rt.httpRequest('GET', webhookUrl(path), { timeoutMs: 5000 });
					if (/not registered for GET/.test(res.body) || res.status === 200) break;
					if (tries > 120)
						throw new Error(
							`the webhook ${path} of workflow ${id} is not registered after activation: ${res.body}`,
						);
					await new Promise((r) => setTimeout(r, 500));
				}
			}
		},
		/** Creates a workflow through main and publishes it; resolves with its id. */
		deploy: async (workflow) => {
			const id = await api.createWorkflow(workflow);
			await api.activate(id);
			return id;
		},
		/** A manual run from `triggerName` through main (on the workers when offloading is on); the execution id. */
		runManually: async (id, triggerName) => {
			const result = await rest('POST', `/workflows/${id}/run`, {
				triggerToStartFrom: { name: triggerName },
			});
			if (!result.executionId)
				throw new Error(`manual run of ${id} started no execution: ${JSON.stringify(result)}`);
			return Number(result.executionId);
		},
		fireWebhooks: (path, bodies, options) => fire(webhookUrl(path), bodies, options),
		/**
		 * Which worker started the execution, from the workers' logs ("Worker started execution N
		 * (job M)"). The logs are read again only for an execution not seen yet (before: every
		 * worker's whole log read from disk for every execution asked about, thousands a round).
		 */
		workerOf: (executionId) => {
			if (!startedBy.has(Number(executionId)))
				for (const w of workers)
					for (const match of w.log().matchAll(/Worker started execution (\d+) \(job/g))
						startedBy.set(Number(match[1]), w.name);
			return startedBy.get(Number(executionId));
		},
	};
	return api;
}

module.exports = { fire, clusterApi };
