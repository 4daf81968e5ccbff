/**
 * Retrying executions through main's REST API (`POST /rest/executions/:id/retry`), as a user does
 * from the executions list, by n8n 2.41.1's rules (`ExecutionService.retry`,
 * packages/cli/src/executions/execution.service.ts):
 * - n8n refuses an execution still `new` ("Execution is queued to run (not yet started) so it
 *   cannot be retried"), one whose stored data has no execution stack ("The execution was aborted
 *   before starting, so it cannot be retried"), one that finished ("The execution succeeded, so it
 *   cannot be retried.", HTTP 409) and one it does not find (HTTP 404);
 * - it does not refuse one still `running`, but n8n has not given up on it yet: a killed worker's
 *   execution stays `running` until the queue's stalled-job check fails its job (the job's lock
 *   duration plus the check's interval after the kill), then the process that queued it reads it
 *   again for up to 30 s before it marks it `error` (`WorkflowRunner.processError`). A user retries
 *   the failed execution n8n then shows, so `retryExecutions` first waits, bounded, until n8n has
 *   marked each execution finished;
 * - the call answers once main has seen the retry's own execution end. It can miss that end: main
 *   starts waiting on the retry's queue job only after it has stored the start, and a retry with
 *   nothing left to run (a killed worker's execution keeps no run data) can end on a worker, its
 *   job removed from the queue at once (n8n keeps no finished job by default), before that; main
 *   then waits for good and the call never answers (seen in the worker-kill round of
 *   test/queue/rounds/dedup.ts: main logged the retry's job finished, the call got no answer in
 *   120 s, the retry stood in error). So a call is given up once the retry it started has ended
 *   and main stayed silent for ANSWER_GRACE_MS: the retry stands, as it would for a user, and the
 *   silence is reported.
 */
import { delay } from '../../support/node';
import type { QueueCluster } from './cluster';

/** Statuses after which n8n no longer touches an execution (as in scripts/queue/database.js). */
const FINISHED = ['success', 'error', 'crashed', 'canceled'];

/** n8n's answers no later call changes: the execution is gone, succeeded or never started. */
const NEVER_RETRIED = [
	/does not exist/,
	/succeeded, so it cannot be retried/,
	/aborted before starting, so it cannot be retried/,
];

/** What became of one execution that was to be retried. */
export interface RetryOutcome {
	/** The execution asked to be retried. */
	id: number;
	/** Its status as n8n reported it before the last retry call (or when the wait ran out). */
	status: string;
	/** The execution the retry started (n8n's answer, or the execution whose `retryOf` names it). */
	retry?: { id: number; status: string };
	/** Why n8n will never let it be retried (n8n's own words), when so. */
	refused?: string;
	/** Every retry call that failed and every wait that ran out, whole, with the id and status. */
	errors: string[];
}

export interface RetryOptions {
	/** How long all the retries together may take, waits included (default 5 minutes). */
	deadlineMs?: number;
	/** The longest one retry call waits for n8n's answer (default 2 minutes). */
	callTimeoutMs?: number;
	/** Retry calls per execution at most, while a failed one started no retry (default 3). */
	attempts?: number;
}

/** An error's whole text: main's whole answer when it gave one (RestError), else the message. */
function wholeMessage(error: unknown): string {
	const e = error as Error & { status?: number; body?: string };
	if (typeof e?.body === 'string') return `HTTP ${e.status} ${e.body}`;
	return e instanceof Error ? e.message : String(error);
}

/** n8n's own message in an error answer (`{ message }`), else the error's whole text. */
function n8nMessage(error: unknown): string {
	const body = (error as { body?: unknown })?.body;
	try {
		const message = (JSON.parse(String(body)) as { message?: unknown }).message;
		if (typeof message === 'string') return message;
	} catch {
		// not JSON: the whole text below
	}
	return wholeMessage(error);
}

/** The execution's status as main's API reports it; the stored one when the API does not answer. */
async function statusOf(c: QueueCluster, id: number): Promise<string> {
	try {
		return String((await c.rest('GET', `/executions/${id}`)).status);
	} catch (error) {
		const rows = await c.db.query<{ status: string }>(
			'SELECT status FROM execution_entity WHERE id = $1',
			[id],
		);
		const stored = rows[0]?.status ?? 'not stored';
		return `${stored} (stored; GET /rest/executions/${id} failed: ${wholeMessage(error)})`;
	}
}

/** The retry n8n started for execution `id`, if any (its newest). */
async function startedRetry(c: QueueCluster, id: number) {
	const rows = await c.db.query<{ id: number; status: string }>(
		'SELECT id::int AS id, status FROM execution_entity WHERE "retryOf" = $1 ORDER BY id::int',
		[String(id)],
	);
	const last = rows[rows.length - 1];
	return last && { id: Number(last.id), status: last.status };
}

/** How long main may stay silent once the retry a call started has ended (see the top). */
const ANSWER_GRACE_MS = 15000;

type CallResult =
	| { answer: Record<string, unknown> }
	| { error: unknown }
	| { unanswered: { id: number; status: string } };

/**
 * One retry call: main's answer or error, or, when the retry it started has ended and main stayed
 * silent ANSWER_GRACE_MS longer, that retry (`unanswered`). At most `timeoutMs` (the call's own
 * bound; the request left open then ends with it).
 */
async function callRetry(c: QueueCluster, id: number, timeoutMs: number): Promise<CallResult> {
	let result: CallResult | undefined;
	const call = c
		.rest('POST', `/executions/${id}/retry`, { loadWorkflow: false }, { timeoutMs })
		.then(
			(answer): CallResult => ({ answer: answer as Record<string, unknown> }),
			(error: unknown): CallResult => ({ error }),
		);
	void call.then((r) => (result = r));
	const until = Date.now() + timeoutMs;
	let endedAt: number | undefined;
	for (;;) {
		if (result) return result;
		if (Date.now() >= until) return await call;
		const retry = await startedRetry(c, id);
		if (retry && FINISHED.includes(retry.status)) endedAt ??= Date.now();
		if (retry && endedAt !== undefined && Date.now() - endedAt >= ANSWER_GRACE_MS)
			return result ?? { unanswered: retry };
		await delay(1000);
	}
}

/**
 * Waits until n8n has marked execution `id` finished (or no longer has it: then n8n's retry says
 * so), or until `deadline`. The stored status is polled; `status` is n8n's own report.
 */
async function untilFinished(c: QueueCluster, id: number, deadline: number) {
	for (;;) {
		const rows = await c.db.query<{ status: string }>(
			'SELECT status FROM execution_entity WHERE id = $1',
			[id],
		);
		const stored = rows[0]?.status;
		const done = stored === undefined || FINISHED.includes(stored);
		if (done || Date.now() >= deadline) return { stored, done, status: await statusOf(c, id) };
		await delay(1000);
	}
}

async function retryOne(
	c: QueueCluster,
	id: number,
	deadline: number,
	{ callTimeoutMs, attempts, deadlineMs }: Required<RetryOptions>,
): Promise<RetryOutcome> {
	const errors: string[] = [];
	let status = 'not read';
	for (let attempt = 1; attempt <= attempts; attempt++) {
		const waited = await untilFinished(c, id, deadline);
		status = waited.status;
		if (!waited.done) {
			errors.push(
				`execution ${id} (status ${status}): n8n had not marked it finished ${Math.round(deadlineMs / 1000)} s after the retries began; a user retries an execution once n8n shows it failed${waited.stored === 'new' ? ' (and n8n refuses one still new: "Execution is queued to run (not yet started) so it cannot be retried")' : ''}`,
			);
			return { id, status, errors };
		}
		if (waited.stored === 'success')
			return {
				id,
				status,
				refused: 'it succeeded (n8n: "The execution succeeded, so it cannot be retried.")',
				errors,
			};
		const timeoutMs = Math.max(1000, Math.min(callTimeoutMs, deadline - Date.now()));
		const call = await callRetry(c, id, timeoutMs);
		if ('answer' in call)
			return {
				id,
				status,
				retry: { id: Number(call.answer.id), status: String(call.answer.status) },
				errors,
			};
		const where = `retry call ${attempt} of ${attempts}: POST /rest/executions/${id}/retry`;
		if ('unanswered' in call) {
			const { id: retryId, status: retryStatus } = call.unanswered;
			errors.push(
				`execution ${id} (status ${status}), ${where}: main had not answered ${ANSWER_GRACE_MS / 1000} s after the retry it started, execution ${retryId}, ended (status ${retryStatus})`,
			);
			return { id, status, retry: call.unanswered, errors };
		}
		const { error } = call;
		const now = await statusOf(c, id).catch((e: unknown) => `not read: ${wholeMessage(e)}`);
		errors.push(
			`execution ${id} (status ${status} before the call, ${now} after), ${where}: ${wholeMessage(error)}`,
		);
		// A call that failed after n8n started the retry (an answer lost, a timeout): the retry
		// stands, as it would for a user; it is not started a second time.
		const started = await startedRetry(c, id);
		if (started) return { id, status: now, retry: started, errors };
		const message = n8nMessage(error);
		if (NEVER_RETRIED.some((never) => never.test(message)))
			return { id, status: now, refused: message, errors };
		if (Date.now() >= deadline) break;
		await delay(2000); // a passing cause (a restart, a race in main) gets a moment
	}
	return { id, status, errors };
}

/**
 * Retries each of `ids` in turn, as a user does from the executions list: waits until n8n has
 * marked it finished (bounded by one deadline for all), then asks main to retry it; a call that
 * fails for a reason that may pass is made again (at most `attempts` calls) unless n8n started the
 * retry anyway. Never throws for an execution: each outcome says whether it was retried, refused
 * by n8n for good (with n8n's reason) or neither, with every failed call's whole error.
 */
export async function retryExecutions(
	c: QueueCluster,
	ids: number[],
	{ deadlineMs = 5 * 60 * 1000, callTimeoutMs = 2 * 60 * 1000, attempts = 3 }: RetryOptions = {},
): Promise<RetryOutcome[]> {
	const deadline = Date.now() + deadlineMs;
	const outcomes: RetryOutcome[] = [];
	for (const id of ids)
		outcomes.push(await retryOne(c, id, deadline, { deadlineMs, callTimeoutMs, attempts }));
	return outcomes;
}

/**
 * One entry per execution that was not simply retried: refused (with n8n's reason) or not retried,
 * or retried after a call that failed; each with its errors, whole.
 */
export function retryReport(outcomes: RetryOutcome[]): string[] {
	return outcomes
		.filter((o) => o.errors.length > 0 || !o.retry)
		.map((o) => {
			const verdict = o.retry
				? `retried as ${o.retry.id} (${o.retry.status})`
				: o.refused
					? `n8n will not retry it: ${o.refused}`
					: 'not retried';
			return [`execution ${o.id} (status ${o.status}): ${verdict}`, ...o.errors]
				.join('\n  ')
				.trimEnd();
		});
}
