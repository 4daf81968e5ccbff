/**
 * Faults in queue mode, on the shared cluster (test/queue/support/shared.ts; two live workers of
 * 10 executions each, worker-3 taking the place of the worker the Deduplication Key's kill round
 * killed):
 * - `faultRounds`: PostgreSQL restarted (`pg_ctl restart -m fast`), Redis restarted (shut down
 *   without saving, started again after 3 s), PostgreSQL down for 20 s: each 8 s into 200 webhook
 *   events fired 20 at a time to a send keyed on the event id and, at the same time, to the same
 *   send without a key; then all 200 delivered again to both once the system answers. With the
 *   key: none sent twice, none that never reached the service answered as sent or duplicate,
 *   every event sent once or answered as not sent. Without a key: measured (test/support
 *   `record`, section `faults`), not asserted.
 * - `workerKillRound`: a worker killed (SIGKILL, as an out-of-memory kill or a lost container
 *   would) in the middle of a long Alimtalk send run: how n8n marks the execution, what reached
 *   the service, and what running the same input again sends (what the README's "Running in
 *   queue mode" says about a crashed worker). It leaves one worker.
 * The cluster runs with n8n 3.0's settings (scripts/queue/cluster.js): unverified packages off,
 * manual executions on the workers.
 */
import * as wf from '../../../scripts/queue/workflows';
import { delay, fs, path, ROOT } from '../../support/node';
import {
	deployRound,
	events,
	expectKeyKept,
	FAULT_AFTER_MS,
	FAULT_EVENTS,
	FAULT_IN_FLIGHT,
	FAULT_LATENCY_MS,
	answerFigures,
	httpFigures,
	injectFault,
	keyedVerdict,
	record,
	sendFigures,
	sentPerEvent,
	settle,
	webhookReady,
	withRunData,
	type Fault,
	type RoundWorkflow,
} from '../support';
import { c } from '../support/shared';

const MESSAGES = 400;
const CAMPAIGN = 'QUEUE-CRASH';

/** The highest execution id so far (0 when none). */
async function lastExecutionId(): Promise<number> {
	const [row] = await c.db.query<{ id: number | null }>(
		'SELECT max(id::int) AS id FROM execution_entity',
	);
	return row?.id ?? 0;
}

type Workflows = [RoundWorkflow, RoundWorkflow];
type Bodies = ReturnType<typeof events>;

/** Both workflows get every event, 20 in flight each; resolves with their HTTP answers. */
function fireBoth(both: Workflows, bodies: Bodies) {
	return Promise.all(
		both.map((w) =>
			c.fireWebhooks(w.path, bodies, { concurrency: FAULT_IN_FLIGHT, timeoutMs: 60000 }),
		),
	);
}

/**
 * The first delivery, with the fault injected 8 s in once the sends are under way (on a busy
 * machine the first ones start later); waits until the system answers and the executions settle.
 */
async function deliverUnderFault(fault: Fault, both: Workflows, bodies: Bodies, before: number) {
	const eventIds = bodies.map((b) => b.eventId);
	c.sandbox.configure({ latencyMs: FAULT_LATENCY_MS });
	const started = Date.now();
	const first = fireBoth(both, bodies);
	const sentSoFar = () => both.map((w) => sendFigures(c, w.campaign, eventIds).messages);
	await delay(FAULT_AFTER_MS);
	while (sentSoFar()[0] + sentSoFar()[1] === 0 && Date.now() - started < 120000) await delay(200);
	const atFault = sentSoFar();
	const faultAtMs = Date.now() - started;
	const service = fault === 'redis-restart' ? c.redis : c.postgres;
	const pidBefore = service.pid;
	await injectFault(c, fault);
	const restarted = service.pid !== pidBefore;
	const answers = await first;
	for (const w of both) await webhookReady(c.webhookUrl(w.path));
	const rows = await settle(c, [both[0].id, both[1].id], { sinceId: before });
	const unfinished = rows.filter(
		(r) => !['success', 'error', 'crashed', 'canceled'].includes(r.status),
	).length;
	const sent = both.map((w) => sendFigures(c, w.campaign, eventIds));
	return { answers, atFault, faultAtMs, restarted, unfinished, sent };
}

/** The caller delivers every event again, the service answering at its usual pace. */
async function deliverAgain(both: Workflows, bodies: Bodies) {
	c.sandbox.configure({ latencyMs: 20 });
	const redeliveredAfter = await lastExecutionId();
	const answers = await fireBoth(both, bodies);
	const accepted = [...answers[0].statuses, ...answers[1].statuses].filter((s) => s === 200);
	await settle(c, [both[0].id, both[1].id], {
		sinceId: redeliveredAfter,
		expected: accepted.length,
		quietMs: 60000,
	});
	return { answers, redeliveredAfter };
}

/**
 * One fault round (see the top of this file); returns the keyed workflow's verdict and the figures
 * of both workflows (also recorded under `faults`).
 */
async function faultRound(fault: Fault, name: string, n: number) {
	const round = await deployRound(c, name, n);
	const both: Workflows = [round.keyed, round.keyless];
	const bodies = events(`fault-${n}`, FAULT_EVENTS);
	const eventIds = bodies.map((b) => b.eventId);
	const before = await lastExecutionId();
	const first = await deliverUnderFault(fault, both, bodies, before);
	const { answers: again, redeliveredAfter } = await deliverAgain(both, bodies);
	const runs = await Promise.all(
		both.map(async (w) =>
			withRunData(c, await c.db.executions({ workflowId: w.id, sinceId: before })),
		),
	);
	const verdict = keyedVerdict(
		sentPerEvent(c.sandbox, round.keyed.campaign),
		eventIds,
		runs[0],
		redeliveredAfter,
		new Set(eventIds.filter((_, i) => again[0].statuses[i] !== 200)),
	);
	const figuresOf = (i: 0 | 1) => ({
		http: { first: httpFigures(first.answers[i].statuses), again: httpFigures(again[i].statuses) },
		afterFirstDelivery: first.sent[i],
		afterRedelivery: sendFigures(c, both[i].campaign, eventIds),
		firstDelivery: answerFigures(runs[i].filter((r) => r.id <= redeliveredAfter)),
		redelivery: answerFigures(runs[i].filter((r) => r.id > redeliveredAfter)),
	});
	const figures = {
		faultAtMs: first.faultAtMs,
		sentWhenTheFaultLanded: { keyed: first.atFault[0], keyless: first.atFault[1] },
		leftUnfinishedAfterFirstDelivery: first.unfinished,
		keyed: { ...figuresOf(0), ...verdict.figures },
		keyless: figuresOf(1),
	};
	record('faults', { [fault]: figures });
	return { verdict, figures, atFault: first.atFault, restarted: first.restarted };
}

export function faultRounds(): void {
	describe('infrastructure faults while 200 webhook events run (keyed and keyless sends side by side)', () => {
		test.each([
			{ fault: 'postgres-restart' as const, name: 'PGRESTART', n: 1 },
			{ fault: 'redis-restart' as const, name: 'REDIS', n: 2 },
			{ fault: 'postgres-down-20s' as const, name: 'PGDOWN', n: 3 },
		])(
			'$fault: with the key, none sent twice, none never sent answered as sent, every event sent once or answered as not sent',
			async ({ fault, name, n }) => {
				const { verdict, atFault, restarted } = await faultRound(fault, name, n);
				// The fault landed while sends were under way: a new server process, and (Redis) n8n
				// saw its connection drop.
				expect(restarted).toBe(true);
				if (fault === 'redis-restart') {
					const lost = [c.main, c.webhook, ...c.workers]
						.filter((p) => /Lost Redis connection/.test(p?.log() ?? ''))
						.map((p) => p?.name);
					expect(lost.length).toBeGreaterThan(0);
				}
				const sentAtFault = atFault[0] + atFault[1];
				expect(sentAtFault).toBeGreaterThan(0);
				expect(sentAtFault).toBeLessThan(2 * FAULT_EVENTS);
				expectKeyKept(
					verdict.problems,
					path.join(ROOT, 'test-artifacts', 'queue', `fault-${fault}-problems.json`),
				);
			},
		);
	});
}

const sentPhones = (): string[] =>
	c.sandbox.state.sent.filter((m) => m.campaignKey === CAMPAIGN).map((m) => m.phoneNumber);

async function until(check: () => boolean, what: string, timeoutMs = 120000): Promise<void> {
	const started = Date.now();
	while (!check()) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await delay(50);
	}
}

export function workerKillRound(): void {
	test('a worker killed mid-send: the execution fails, what was sent stays sent, a re-run sends everything again', async () => {
		c.sandbox.addCampaign(CAMPAIGN);
		c.sandbox.configure({ latencyMs: 40 });
		const id = await c.createWorkflow(
			wf.sendRunWorkflow({ count: MESSAGES, campaignKey: CAMPAIGN, concurrency: 2 }),
		);
		const executionId = await c.runManually(id, 'Run');

		// Kill the worker that runs it once about a quarter of the messages went out.
		await until(() => sentPhones().length >= MESSAGES / 4, 'the first messages');
		await until(() => c.workerOf(executionId) !== undefined, 'the worker log line');
		const victim = c.workers.find((w) => w.name === c.workerOf(executionId));
		if (!victim) throw new Error('no worker ran the execution');
		const killedAt = Date.now();
		await victim.kill('SIGKILL');
		await delay(1000); // requests already on the wire land
		const sentByCrashedRun = sentPhones().length;
		expect(sentByCrashedRun).toBeGreaterThan(0);
		expect(sentByCrashedRun).toBeLessThan(MESSAGES);

		// Meanwhile n8n still shows the execution as running.
		const [meanwhile] = await c.db.executions({ workflowId: id });
		expect(meanwhile).toMatchObject({ id: executionId, status: 'running' });

		// n8n does not hand the job to the other worker: it marks the execution failed.
		const [crashed] = await c.db.waitForExecutions({
			workflowId: id,
			count: 1,
			timeoutMs: 5 * 60 * 1000,
		});
		const markedAfterMs = Date.now() - killedAt;
		expect(crashed).toMatchObject({ id: executionId, status: 'error' });
		expect(sentPhones()).toHaveLength(sentByCrashedRun);
		const startedIt = c.workers
			.filter((w) => w !== victim && w.log().includes(`Worker started execution ${executionId} (`))
			.map((w) => w.name);
		expect(startedIt).toEqual([]);
		// Its run data does not say which messages went out.
		const data = await c.db.runData(executionId);
		const sendRuns = data?.resultData?.runData?.['Campaign Alimtalk'] ?? [];
		expect(sendRuns).toEqual([]);
		const errorMessage = String(data?.resultData?.error?.message ?? '');

		// Running the same input again sends every message, the ones already delivered included.
		const rerunId = await c.runManually(id, 'Run');
		const rows = await c.db.waitForExecutions({
			workflowId: id,
			count: 2,
			timeoutMs: 5 * 60 * 1000,
		});
		expect(rows.find((r) => r.id === rerunId)).toMatchObject({ status: 'success' });
		const phones = sentPhones();
		expect(phones).toHaveLength(sentByCrashedRun + MESSAGES);
		const counts = new Map<string, number>();
		for (const p of phones) counts.set(p, (counts.get(p) ?? 0) + 1);
		expect(new Set(phones).size).toBe(MESSAGES);
		const twice = [...counts.values()].filter((n) => n === 2).length;
		expect(twice).toBe(sentByCrashedRun);

		// docs/queue-mode.md (the README's "Running in queue mode" links it) says exactly this: tie it to what was measured.
		const readme = fs
			.readFileSync(path.join(ROOT, 'docs', 'queue-mode.md'), 'utf8')
			.replace(/\s+/g, ' ');
		expect(readme).toContain('ends as **error** ("' + errorMessage.slice(0, 60));
		expect(readme).toContain('with **no run data**');
		expect(readme).toMatch(/does \*\*not\*\* move the execution to another worker/);

		record('workerKill', {
			messages: MESSAGES,
			sentBeforeKill: sentByCrashedRun,
			status: crashed.status,
			errorMessage,
			markedFailedAfterMs: markedAfterMs,
			rerunSent: MESSAGES,
			deliveredTwice: twice,
		});
	});
}
