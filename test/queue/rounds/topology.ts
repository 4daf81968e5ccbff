/**
 * The package in n8n's queue mode (the shared cluster: test/queue/support/shared.ts). Every
 * example workflow is imported through main and run by the workers; then a burst of webhook
 * events, and a large custom data sync on a worker; then a check that workers, not main, ran
 * every execution so far and both took part.
 */
import * as wf from '../../../scripts/queue/workflows';
import {
	AGENT_EXAMPLE,
	AGENT_EXAMPLE_ANSWERS,
	parseToolAnswers,
} from '../../support/agent-example';
import { fs, path, ROOT } from '../../support/node';
import { record, unsuccessful, type Json } from '../support';
import { c, model } from '../support/shared';

const EVENTS = 2000;
const IN_FLIGHT = 20;
const SYNC_ROWS = 50000;

/** Execution id -> the worker that ran it, over these rounds. */
const ranOn = new Map<number, string | undefined>();

/** The run data reader of one finished execution. */
async function readRun(id: number) {
	const data = (await c.db.runData(id)) as Json;
	const runData = (data?.resultData?.runData ?? {}) as Json;
	return {
		error: data?.resultData?.error as Json | undefined,
		out(node: string, output = 0): Json[] {
			const task = runData[node]?.[0];
			if (!task)
				throw new Error(`node "${node}" did not run; ran: ${Object.keys(runData).join(', ')}`);
			return ((task.data?.main?.[output] ?? []) as Json[]).map((item) => item.json as Json);
		},
	};
}

/** Imports an example through main, runs it from its manual trigger, waits for the worker to finish it. */
async function runExample(file: string) {
	const workflow = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8')) as Json;
	const id = await c.createWorkflow(workflow);
	const trigger = (workflow.nodes as Json[]).find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const executionId = await c.runManually(id, trigger?.name);
	const [row] = (await c.db.waitForExecutions({ workflowId: id, count: 1 })).filter(
		(r) => r.id === executionId,
	);
	const run = await readRun(executionId);
	expect(run.error).toBeUndefined();
	expect(row).toMatchObject({ status: 'success', mode: 'manual' });
	ranOn.set(executionId, c.workerOf(executionId));
	expect(ranOn.get(executionId)).toMatch(/^worker-\d$/);
	return run;
}

export function topologyRounds(): void {
	describe('example workflows, imported through main and run by the workers', () => {
		test('every example is covered', () => {
			const files = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json'));
			expect(files.sort()).toEqual([
				AGENT_EXAMPLE.file,
				'crm-sync.json',
				'event-to-message.json',
				'full-read.json',
				'member-consent-sync.json',
			]);
		});

		test('CRM sync', async () => {
			const run = await runExample('crm-sync.json');
			expect(Object.fromEntries(c.sandbox.state.custom.get('crm-1001') ?? [])).toMatchObject({
				name: 'Han Jisoo',
				points: 1200,
			});
			expect(run.out('Review list').map((r) => [r.memberId, r.code])).toEqual([
				['crm-1003', 'F02'],
				['crm-1004', 'F01'],
			]);
		});

		test('member consent sync', async () => {
			const run = await runExample('member-consent-sync.json');
			expect(c.sandbox.state.membersV2.get('01055550101')).toMatchObject({
				memberId: 'crm-1001',
				isReceive: 'true',
			});
			expect(run.out('Saved').map((item) => item.memberId)).toEqual([
				'member-01',
				'crm-1001',
				'crm-1002',
			]);
		});

		test('event to message', async () => {
			const before = c.sandbox.state.sent.length;
			const run = await runExample('event-to-message.json');
			// Sent concurrently: the order they reach the service in is not fixed.
			expect(
				c.sandbox.state.sent
					.slice(before)
					.map((m) => m.phoneNumber)
					.sort(),
			).toEqual(['821055550101', '821055550102']);
			expect(run.out('Retry queue')).toEqual([
				expect.objectContaining({ phoneNumber: '010-5555', code: '7012' }),
			]);
		});

		test('AI agent with tools: the tool nodes run on a worker, the model hears every outcome', async () => {
			const before = c.sandbox.state.sent.length;
			// The consent example above saved member-01 as refusing; the agent example sends only to
			// members who accept messages (Only Members Who Accept Messages).
			c.sandbox.state.membersV2.set('01012345678', {
				memberId: 'member-01',
				phoneNumber: '010-1234-5678',
				isReceive: 'true',
			});
			await runExample(AGENT_EXAMPLE.file);
			const answers = parseToolAnswers(model.toolResults().map((r) => r.content));
			expect(answers).toEqual(
				AGENT_EXAMPLE_ANSWERS.map((answer) =>
					answer.map((fields) => expect.objectContaining(fields)),
				),
			);
			expect(c.sandbox.state.sent.slice(before).map((m) => m.phoneNumber)).toEqual([
				'821012345678',
			]);
		});

		test('full read', async () => {
			const run = await runExample('full-read.json');
			expect(run.out('Members').map((m) => m.memberId)).toEqual([...c.sandbox.state.custom.keys()]);
		});
	});

	describe('webhook events in queue mode', () => {
		test(`${EVENTS} distinct events, ${IN_FLIGHT} in flight: every message sent exactly once`, async () => {
			c.sandbox.addCampaign('QUEUE-LOAD');
			const id = await c.deploy(
				wf.webhookSendWorkflow({
					path: 'queue-load',
					campaignKey: 'QUEUE-LOAD',
				}),
			);
			const bodies = Array.from({ length: EVENTS }, (_, i) => wf.eventBody(i));
			const firedAt = Date.now();
			const fired = await c.fireWebhooks('queue-load', bodies, { concurrency: IN_FLIGHT });
			expect(fired.errors).toEqual([]);
			expect(fired.statuses.filter((s) => s !== 200)).toEqual([]);
			expect(fired.maxInFlight).toBe(IN_FLIGHT);

			const rows = await c.db.waitForExecutions({
				workflowId: id,
				count: EVENTS,
				timeoutMs: 10 * 60 * 1000,
			});
			const allDoneMs = Date.now() - firedAt;
			expect(rows).toHaveLength(EVENTS);
			expect(await unsuccessful(c, rows)).toEqual([]);
			for (const row of rows) ranOn.set(row.id, c.workerOf(row.id));

			const sent = c.sandbox.state.sent.filter((m) => m.campaignKey === 'QUEUE-LOAD');
			const perEvent = new Map<string, number>();
			for (const m of sent)
				perEvent.set(
					String(m.properties.eventId),
					(perEvent.get(String(m.properties.eventId)) ?? 0) + 1,
				);
			const missing = bodies.filter((b) => !perEvent.has(b.eventId));
			const doubled = [...perEvent].filter(([, n]) => n > 1);
			expect({ missing: missing.length, doubled: doubled.length, sent: sent.length }).toEqual({
				missing: 0,
				doubled: 0,
				sent: EVENTS,
			});
			// Each message went out with the phone number of its own event.
			for (const m of sent)
				expect(m.phoneNumber).toBe(wf.phoneOf(Number(String(m.properties.eventId).slice(4))));
			// The execution named in each message is one of this workflow's executions, run by a worker.
			const ids = new Set(rows.map((r) => String(r.id)));
			expect(sent.filter((m) => !ids.has(String(m.properties.execution)))).toEqual([]);
			expect(rows.filter((r) => !ranOn.get(r.id))).toEqual([]);
			record('webhookLoad', {
				events: EVENTS,
				inFlight: fired.maxInFlight,
				doubled: doubled.length,
				missing: missing.length,
				firedMs: fired.ms,
				allDoneMs,
				perWorker: Object.fromEntries(
					['worker-1', 'worker-2'].map((w) => [
						w,
						rows.filter((r) => ranOn.get(r.id) === w).length,
					]),
				),
			});
		});
	});

	describe('a large data sync on a worker', () => {
		test(`${SYNC_ROWS} rows: the expected state with the minimum number of requests`, async () => {
			for (const [key, format] of Object.entries(wf.SYNC_KEYS)) c.sandbox.registerKey(key, format);
			const before = c.sandbox.requests.length;
			const id = await c.createWorkflow(wf.syncWorkflow({ rows: SYNC_ROWS }));
			const startedAt = Date.now();
			const executionId = await c.runManually(id, 'Run');
			const [row] = await c.db.waitForExecutions({
				workflowId: id,
				count: 1,
				timeoutMs: 10 * 60 * 1000,
			});
			record('sync', {
				rows: SYNC_ROWS,
				ms: Date.now() - startedAt,
				worker: c.workerOf(executionId),
			});
			expect(row).toMatchObject({ id: executionId, status: 'success' });
			ranOn.set(executionId, c.workerOf(executionId));
			expect(ranOn.get(executionId)).toMatch(/^worker-\d$/);

			const writes = c.sandbox.requests
				.slice(before)
				.filter((r) => r.method === 'POST' && r.path === '/v2/custom');
			expect(writes).toHaveLength(Math.ceil(SYNC_ROWS / 1000));
			const synced = [...c.sandbox.state.custom.keys()].filter((k) => k.startsWith('sync-'));
			expect(synced).toHaveLength(SYNC_ROWS);
			for (const i of [0, 1, 12345, SYNC_ROWS - 1]) {
				const member = `sync-${String(i).padStart(6, '0')}`;
				expect(Object.fromEntries(c.sandbox.state.custom.get(member) ?? [])).toEqual({
					points: i % 5000,
					grade: ['gold', 'silver', 'bronze'][i % 3],
				});
			}
		});
	});

	describe('the topology as a whole', () => {
		test('workers, not main, ran every execution, and both workers took part', async () => {
			const all = await c.db.executions();
			expect(all.length).toBe(ranOn.size);
			const counts = new Map<string, number>();
			for (const worker of ranOn.values())
				counts.set(String(worker), (counts.get(String(worker)) ?? 0) + 1);
			expect([...counts.keys()].sort()).toEqual(['worker-1', 'worker-2']);
			expect(c.main.log()).not.toMatch(/Worker started execution/);
		});
	});
}
