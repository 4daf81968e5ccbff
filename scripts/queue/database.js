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
	const client = new Client({
		host: postgres.host,
		port: postgres.port,
		user: postgres.user,
		password: postgres.password,
		database: postgres.database,
	});
	await client.connect();
	let closed = false;

	const query = async (sql, params = []) => (await client.query(sql, params)).rows;

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
			await client.end().catch(() => undefined);
		},
	};
}

module.exports = { openDatabase, FINAL_STATUSES };
