/**
 * Reading a queue-mode installation's execution records straight from its PostgreSQL, with the
 * `pg` client that ships inside the n8n runtime (so the package needs no extra dependency).
 *
 *   const db = await openDatabase(paths, postgres);
 *   await db.executions({ workflowId });      // [{ id, status, mode, finished, startedAt, stoppedAt }]
 *   await db.runData(id);                     // the execution's IRunExecutionData
 *   await db.waitForExecutions({ workflowId, count });
 */
'use strict';
const path = require('node:path');
const { parseRunData } = require('../runtime/index.js');

/** How long a query keeps trying to reach a PostgreSQL that is restarting or down. */
const RECONNECT_MS = 120000;

/** Errors of a lost or refused connection (as opposed to a bad query). */
function isConnectionError(error) {
	return (
		['ECONNREFUSED', 'ECONNRESET', 'EPIPE', '57P01', '57P03'].includes(error.code) ||
		/Connection terminated|Client has encountered a connection error|not queryable|timeout expired/i.test(
			error.message,
		)
	);
}

/** Execution statuses after which n8n no longer touches the record. */
const FINAL_STATUSES = ['success', 'error', 'crashed', 'canceled'];

/**
 * @typedef {object} ExecutionRow
 * @property {number} id
 * @property {string} workflowId
 * @property {string} status
 * @property {string} mode
 * @property {boolean} finished
 * @property {Date | null} startedAt
 * @property {Date | null} stoppedAt
 * @property {string | null} retryOf
 *
 * @typedef {object} Database
 * @property {<T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>} query
 * @property {(filter?: { workflowId?: string, sinceId?: number }) => Promise<ExecutionRow[]>} executions
 * @property {(id: number | string) => Promise<any>} runData  the stored IRunExecutionData (untyped JSON), undefined when none
 * @property {(options: { workflowId: string, count: number, sinceId?: number, timeoutMs?: number, pollMs?: number }) => Promise<ExecutionRow[]>} waitForExecutions
 * @property {() => Promise<void>} close
 */

/**
 * @param {import('../runtime').RuntimePaths} paths
 * @param {import('./services').PostgresHandle} postgres
 * @returns {Promise<Database>}
 */
async function openDatabase(paths, postgres) {
	const { Client } = require(path.join(paths.dir, 'node_modules', 'pg'));
	let client;
	let closed = false;
	const connect = async () => {
		const fresh = new Client({
			host: postgres.host,
			port: postgres.port,
			user: postgres.user,
			password: postgres.password,
			database: postgres.database,
			connectionTimeoutMillis: 5000,
		});
		// A server restarted under it ends the session: noted here (an unhandled 'error' event
		// would end the test process), and the next query connects again.
		fresh.on('error', () => {
			if (client === fresh) client = undefined;
		});
		await fresh.connect();
		client = fresh;
	};
	await connect();

	/**
	 * One query; across a restart or an outage of PostgreSQL (the fault rounds cause them) it
	 * connects again and retries, for up to RECONNECT_MS.
	 */
	const attempt = async (sql, params) => {
		const until = Date.now() + RECONNECT_MS;
		for (;;) {
			try {
				if (!client) await connect();
				return (await client.query(sql, params)).rows;
			} catch (error) {
				if (closed || !isConnectionError(error) || Date.now() > until) throw error;
				const broken = client;
				client = undefined;
				await broken?.end().catch(() => undefined);
				await new Promise((r) => setTimeout(r, 500));
			}
		}
	};
	/** Queries run one after the other on the one client (pg 9 refuses a query while another runs). */
	let tail = Promise.resolve();
	const query = (sql, params = []) => {
		const result = tail.then(() => attempt(sql, params));
		tail = result.catch(() => undefined);
		return result;
	};

	/** Execution records, oldest first; `workflowId` and `sinceId` narrow them down. */
	const executions = async ({ workflowId, sinceId = 0 } = {}) =>
		query(
			`SELECT id::int AS id, "workflowId", status, mode, finished, "startedAt", "stoppedAt", "retryOf"
			   FROM execution_entity
			  WHERE ($1::text IS NULL OR "workflowId" = $1) AND id::int > $2
			  ORDER BY id::int`,
			[workflowId ?? null, sinceId],
		);

	/** The stored run data of one execution (n8n keeps it `flatted`-encoded), undefined when none. */
	const runData = async (id) => {
		const rows = await query(`SELECT data FROM execution_data WHERE "executionId" = $1`, [id]);
		if (rows.length === 0 || !rows[0].data) return undefined;
		return parseRunData(paths, rows[0].data);
	};

	/**
	 * Waits until at least `count` executions of the workflow (newer than `sinceId`) are final;
	 * resolves with all of them. Rejects after `timeoutMs` with what it saw.
	 */
	const waitForExecutions = async ({
		workflowId,
		count,
		sinceId = 0,
		timeoutMs = 300000,
		pollMs = 500,
	}) => {
		const started = Date.now();
		for (;;) {
			const rows = await executions({ workflowId, sinceId });
			const final = rows.filter((r) => FINAL_STATUSES.includes(r.status));
			if (final.length >= count) return rows;
			if (Date.now() - started > timeoutMs) {
				const byStatus = rows.reduce(
					(acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
					{},
				);
				throw new Error(
					`waited ${timeoutMs} ms for ${count} final executions of ${workflowId}; have ${JSON.stringify(byStatus)}`,
				);
			}
			await new Promise((r) => setTimeout(r, pollMs));
		}
	};

	return {
		query,
		executions,
		runData,
		waitForExecutions,
		close: async () => {
			if (closed) return;
			closed = true;
			await client?.end().catch(() => undefined);
		},
	};
}

module.exports = { openDatabase, FINAL_STATUSES };
