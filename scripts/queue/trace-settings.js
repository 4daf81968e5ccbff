/**
 * The settings of a traced cluster (DEDUP_TRACE_DIR; scripts/queue/dedup-trace.js): the n8n
 * processes' preload, and PostgreSQL's statement log, kept for the store as the cluster stops.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { log } = require('../runtime/index.js');
const { keepStoreStatements } = require('./statement-log.js');

/**
 * With DEDUP_TRACE_DIR set, every n8n process loads the store-call tracer (dedup-trace.js: one
 * JSON line per deduplication store call, in that folder) and PostgreSQL logs every statement
 * (services.js); scripts/queue/dedup-trace-report.js reads both.
 */
function traceEnv() {
	const dir = process.env.DEDUP_TRACE_DIR;
	if (!dir) return {};
	return {
		DEDUP_TRACE_DIR: path.resolve(dir),
		NODE_OPTIONS: `--require "${path.join(__dirname, 'dedup-trace.js')}"`,
	};
}

/**
 * With DEDUP_TRACE_DIR set (scripts/queue/dedup-trace.js), every statement is logged with its
 * duration, its end time to the millisecond (%m) and its server process (%p, which the tracer
 * records per statement); bound values are cut at 160 characters.
 */
function statementLog() {
	if (!process.env.DEDUP_TRACE_DIR) return [];
	const settings = [
		'log_min_duration_statement=0',
		'log_line_prefix=%m [%p] ',
		'log_parameter_max_length=160',
		'log_error_verbosity=terse',
	];
	return settings.flatMap((setting) => ['-c', setting]);
}

/** The statement log's store statements (statement-log.js), into DEDUP_TRACE_DIR before the folder goes. */
async function keepStatementLog(file) {
	const dir = process.env.DEDUP_TRACE_DIR;
	if (!dir || !fs.existsSync(file)) return;
	fs.mkdirSync(dir, { recursive: true });
	const dest = path.join(dir, `postgres-${path.basename(path.dirname(file))}.log`);
	await keepStoreStatements(file, dest).catch((error) => log(`statement log: ${error.message}`));
}

module.exports = { traceEnv, statementLog, keepStatementLog };
