/**
 * The send's Deduplication Key in n8n's queue mode (the shared cluster:
 * test/queue/support/shared.ts, two workers of 10 executions each), webhook events 20 in flight:
 * - redelivery: 300 distinct events, then the same 300 again: exactly 300 messages;
 * - concurrent copies: 300 events each delivered twice at the same moment: none sent twice, none
 *   missing (in this, the redelivery and the send-limit rounds, an execution that fails saying
 *   nothing was sent has its event delivered again, as the error tells an operator to; how many
 *   did is in the figures, `failedFirst`: docs/deduplication.md, window 8);
 * - a send limit of 2 per hour, 40 events at once over both workers: exactly 2 messages;
 * - two keyed send nodes in one workflow (scope This Node), 40 events each delivered twice at
 *   once over both workers, the service answering after 300 ms: every message of each node sent
 *   exactly once, and each event's two answers one `sent` and one `duplicate` per node (an answer
 *   that says nothing was sent is delivered again, as in the rounds above: `failedFirst`);
 * - last (`dedupKillRound`), worker-1 SIGKILLed mid-run, its failed executions retried, then all
 *   events delivered again: each sent exactly once or its redelivery answered on Failed with
 *   deliveryUnknown, none answered as sent without having been sent, none sent twice.
 * The figures go to test-artifacts/dedup-queue.json.
 */
import { delay, fs, path, ROOT } from '../../support/node';
import {
	dedupWorkflow,
	events,
	expectPromiseKept,
	IN_FLIGHT,
	killRoundVerdict,
	pairs,
	deliverNotSentAgain,
	postAll,
	retryExecutions,
	retryReport,
	ROUND_EVENTS,
	roundFigures,
	unsuccessful,
	tally,
	twoNodeVerdict,
	expectTwoNodesKept,
	twoNodeWorkflow,
	countExecutions,
	countTwoNodes,
	reportCounts,
	summaryOf,
	withRetries,
	expectClean,
	lateRounds,
	recordsOf,
	type Counts,
	webhookReady,
	type Json,
} from '../support';
import { c } from '../support/shared';

const figures: Record<string, unknown> = {};

function writeFigures(): void {
	fs.mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
	fs.writeFileSync(
		path.join(ROOT, 'test-artifacts', 'dedup-queue.json'),
		`${JSON.stringify(figures, null, 2)}\n`,
	);
}

async function deployed(name: string, n: number, options: Json = {}): Promise<string> {
	c.sandbox.addCampaign(name);
	const id = await c.createWorkflow(
		dedupWorkflow(name.toLowerCase(), name, `5f0c2d4e-0000-4000-8000-0000000dd00${n}`, options),
	);
	await c.activate(id);
	await webhookReady(c.webhookUrl(name.toLowerCase()));
	return id;
}

async function deliver(name: string, id: string, bodies: unknown[], already: number) {
	const fired = await c.fireWebhooks(name.toLowerCase(), bodies, { concurrency: IN_FLIGHT });
	expect(fired.errors).toEqual([]);
	expect(fired.statuses.filter((s) => s !== 200)).toEqual([]);
	return await c.db.waitForExecutions({
		workflowId: id,
		count: already + bodies.length,
		timeoutMs: 10 * 60 * 1000,
	});
}

/** The store failure a send reports before sending anything. */
const NOTHING_SENT = /^Nothing was sent\. /;

/**
 * Delivers `bodies`, then, as an operator does, delivers again once the events whose executions
 * failed saying "Nothing was sent" (under this contention a lock round can find the lock's row
 * rewritten by another process's late whole-row write: docs/deduplication.md, window 5). Any
 * other failure fails the test. Such a round's claims stay (nothing is written after the lock,
 * window 4): its events' redeliveries are answered as an earlier send not confirmed and are not
 * sent, which `keptBy` lets the rounds' checks allow. Returns every execution, how many events
 * needed the second delivery, and those events.
 */
async function deliverAsTold(
	name: string,
	id: string,
	bodies: Array<{ eventId: string }>,
	already = 0,
) {
	const rows = (await deliver(name, id, bodies, already)).slice(already);
	const failed = await unsuccessful(c, rows);
	expect(failed.filter((f) => !NOTHING_SENT.test(String(f.error?.description)))).toEqual([]);
	const again = [...new Set(failed.map((f) => f.eventId))];
	const redelivered = bodies
		.filter((b) => again.includes(b.eventId))
		.filter((b, n, all) => all.findIndex((o) => o.eventId === b.eventId) === n);
	expect(redelivered.length).toBe(again.length); // every failed execution names its event
	if (redelivered.length === 0) return { rows, failedFirst: 0, failedEvents: [] as string[] };
	const all = (await deliver(name, id, redelivered, already + rows.length)).slice(already);
	expect(await unsuccessful(c, all.slice(rows.length))).toEqual([]);
	return { rows: all, failedFirst: failed.length, failedEvents: again.map(String) };
}

/**
 * The promise of a round: no event sent twice, every event sent once but those a failed round
 * kept (`failedEvents`: their first execution failed with nothing sent), which may be missing;
 * with no failed round, no answer but sent and duplicate (`expectClean`).
 */
function expectOnceOrKept(
	result: ReturnType<typeof tally>,
	counts: Counts,
	failedEvents: string[],
) {
	expect(result.doubled).toEqual([]);
	if (failedEvents.length === 0) expectClean(summaryOf(counts), counts.unusual);
	expect(result.missing.filter((eventId) => !failedEvents.includes(eventId))).toEqual([]);
}

/** The rounds before the kill, on both workers; figures written once they ran. */
export function dedupRounds(): void {
	describe('Deduplication Key in queue mode (two workers, 20 executions in flight)', () => {
		beforeAll(() => c.sandbox.configure({ latencyMs: 20 }));
		afterAll(writeFigures);

		test(`redelivery: ${ROUND_EVENTS} events, then the same again: exactly ${ROUND_EVENTS} messages`, async () => {
			const id = await deployed('DEDUP-REDELIVERY', 1);
			const bodies = events('redeliver');
			const first = await deliverAsTold('DEDUP-REDELIVERY', id, bodies);
			const second = await deliverAsTold('DEDUP-REDELIVERY', id, bodies, first.rows.length);
			const rows = [...first.rows, ...second.rows];
			const result = tally(c.sandbox, 'DEDUP-REDELIVERY', bodies);
			const failedFirst = first.failedFirst + second.failedFirst;
			const kept = result.missing.length;
			const counts = countExecutions(await recordsOf(c, rows), result);
			figures.redelivery = {
				...roundFigures(bodies.length, rows.length, result),
				failedFirst,
				kept,
				...reportCounts('redelivery', summaryOf(counts), counts.unusual),
			};
			expectOnceOrKept(result, counts, [...first.failedEvents, ...second.failedEvents]);
			expect(result.sent).toBe(ROUND_EVENTS - kept);
			const workers = new Set(rows.map((r) => c.workerOf(r.id)));
			expect([...workers].sort()).toEqual(['worker-1', 'worker-2']);
		});

		test(`concurrent copies: ${ROUND_EVENTS} events each delivered twice at once`, async () => {
			const id = await deployed('DEDUP-COPIES', 2);
			const bodies = events('copy');
			const copies = await deliverAsTold('DEDUP-COPIES', id, pairs(bodies));
			const result = tally(c.sandbox, 'DEDUP-COPIES', bodies);
			const counts = countExecutions(await recordsOf(c, copies.rows), result);
			figures.concurrentCopies = {
				...roundFigures(bodies.length, copies.rows.length, result),
				failedFirst: copies.failedFirst,
				kept: result.missing.length,
				...reportCounts('concurrent copies', summaryOf(counts), counts.unusual),
			};
			expectOnceOrKept(result, counts, copies.failedEvents);
		});

		test('send limit 2 per hour: 40 events at once across the two workers, exactly 2 messages', async () => {
			const id = await deployed('DEDUP-LIMIT', 6, { sendLimit: 2, sendLimitPeriod: 'hour' });
			const bodies = events('limit', 40);
			const { rows } = await deliverAsTold('DEDUP-LIMIT', id, bodies);
			const result = tally(c.sandbox, 'DEDUP-LIMIT', bodies);
			const workers = [...new Set(rows.map((r) => c.workerOf(r.id)))].sort();
			figures.sendLimit = { events: bodies.length, sent: result.sent, workers };
			expect(result.sent).toBe(2);
			expect(result.doubled).toEqual([]);
			expect(workers).toEqual(['worker-1', 'worker-2']);
		});

		test.each([
			{ keys: 'distinct' as const, n: 4 },
			{ keys: 'same' as const, n: 5 },
		])(
			`two keyed nodes in one workflow, keys $keys: 40 events each delivered twice at once, every message of each node sent once`,
			async ({ keys, n }) => {
				const campaigns: [string, string] = [`ORDER-Q${n}`, `SHIP-Q${n}`];
				for (const campaign of campaigns) c.sandbox.addCampaign(campaign);
				const path = `dedup-two-${keys}`;
				const id = await c.createWorkflow(
					twoNodeWorkflow(path, `5f0c2d4e-0000-4000-8000-0000000dd00${n}`, campaigns, keys),
				);
				await c.activate(id);
				await webhookReady(c.webhookUrl(path));
				c.sandbox.configure({ latencyMs: 300 });
				const bodies = events(`two-${keys}`, 40);
				try {
					const answers = await postAll(c.webhookUrl(path), pairs(bodies), IN_FLIGHT);
					const failedFirst = await deliverNotSentAgain(c.webhookUrl(path), answers, IN_FLIGHT);
					const late = await lateRounds(c, id);
					const lateEvents = late.map((f) => String(f.eventId));
					const verdict = twoNodeVerdict(c.sandbox, campaigns, bodies, answers, lateEvents);
					const counts = countTwoNodes(c.sandbox, campaigns, bodies, withRetries(answers));
					figures[`twoNodes-${keys}`] = {
						...verdict,
						failedFirst,
						lateRounds: late,
						...reportCounts(`two keyed nodes, keys ${keys}`, counts.summary, [
							...counts.unusual,
							...late,
						]),
					};
					expectTwoNodesKept(verdict, counts, 40, late.length);
					// A round failed "landed late" fails its execution: HTTP 500, its event counted above.
					const failed = answers.filter((a) => a.status !== 200);
					expect(failed.filter((a) => !lateEvents.includes(a.request.eventId))).toEqual([]);
				} finally {
					c.sandbox.configure({ latencyMs: 20 });
				}
			},
		);
	});
}

/** Last of the Deduplication Key rounds: it leaves one worker. */
export function dedupKillRound(): void {
	describe('Deduplication Key in queue mode, a worker killed', () => {
		afterAll(writeFigures);

		test('a worker SIGKILLed mid-run, its failed executions retried, all delivered again: each sent once or answered "delivery unknown", none twice', async () => {
			c.sandbox.configure({ latencyMs: 300 });
			// A short request timeout: a redelivered event whose earlier send may still be under way
			// waits at most this long for its outcome.
			const id = await deployed('DEDUP-KILL', 3, { timeoutMs: 3000 });
			const bodies = events('kill', 200);
			const fired = c.fireWebhooks('dedup-kill', bodies, { concurrency: IN_FLIGHT });
			const victim = c.workers[0];
			while (c.sandbox.state.sent.filter((m) => m.campaignKey === 'DEDUP-KILL').length < 40)
				await delay(20);
			await victim.kill('SIGKILL');
			await fired;
			const rows = await c.db.waitForExecutions({
				workflowId: id,
				count: bodies.length,
				timeoutMs: 10 * 60 * 1000,
			});
			const failed = rows.filter((r) => r.status !== 'success');
			const before = tally(c.sandbox, 'DEDUP-KILL', bodies);
			expect(failed.length).toBeGreaterThan(0);

			// Retry each failed execution through main, as a user does from the executions list: once
			// n8n shows it failed (a killed worker's execution stays running until n8n's stalled-job
			// check gives it up: test/queue/support/retry.ts). Every retry call that failed is printed
			// whole; an execution n8n will never retry is reported with n8n's reason, not counted.
			c.sandbox.configure({ latencyMs: 20 });
			const outcomes = await retryExecutions(
				c,
				failed.map((r) => r.id),
			);
			const report = retryReport(outcomes);
			if (report.length > 0)
				// eslint-disable-next-line no-console
				console.warn(
					`Retries of the ${failed.length} failed executions of the worker-kill round (${outcomes.filter((o) => o.retry).length} retried):\n${report.join('\n')}`,
				);
			expect(outcomes.filter((o) => !o.retry && !o.refused)).toEqual([]);
			// Every retry n8n started, by its `retryOf` (a retry call that failed may have started one).
			const retryCount = (await c.db.executions({ workflowId: id })).filter(
				(r) => r.retryOf !== null,
			).length;
			const retries = (
				await c.db.waitForExecutions({
					workflowId: id,
					count: bodies.length + retryCount,
					timeoutMs: 5 * 60 * 1000,
				})
			).slice(bodies.length);
			const afterRetry = tally(c.sandbox, 'DEDUP-KILL', bodies);
			expect(afterRetry.doubled).toEqual([]);
			// A caller that saw no confirmation delivers the same events again (each one, to be sure).
			const redeliveredAfter = Math.max(
				...(await c.db.executions({ workflowId: id })).map((r) => r.id),
			);
			const all = await deliver('DEDUP-KILL', id, bodies, bodies.length + retries.length);
			const records = [];
			for (const r of all)
				records.push({ id: r.id, status: r.status, data: await c.db.runData(r.id) });
			const { problems, figures: outcome } = killRoundVerdict(
				c.sandbox,
				'DEDUP-KILL',
				bodies,
				records,
				redeliveredAfter,
			);
			figures.workerKill = {
				failedExecutions: failed.length,
				retryOutcomes: {
					retried: outcomes.filter((o) => o.retry).length,
					refused: outcomes.filter((o) => o.refused).map((o) => `${o.id}: ${o.refused}`),
					report,
				},
				retriedExecutions: await Promise.all(
					retries.map(
						async (r) =>
							`${r.id} ${r.status}: ${String((await c.db.runData(r.id))?.resultData?.error?.message ?? '').slice(0, 200)}`,
					),
				),
				sentBeforeRetry: before.sent,
				sentAfterRetry: afterRetry.sent,
				...outcome,
			};
			expectPromiseKept(
				problems,
				path.join(ROOT, 'test-artifacts', 'dedup-queue-kill-problems.json'),
			);
		});
	});
}
