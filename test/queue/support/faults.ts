/**
 * The infrastructure fault rounds of test/queue/rounds/faults.ts: PostgreSQL or Redis restarted or
 * down while webhook events run, then every event delivered again once the system answers. Each
 * round sends the same 200 events to two workflows at once (20 in flight each): one whose send
 * has the event id as its Deduplication Key, one without a key. What each execution's Send node
 * answered is read back from its run data; `keyedVerdict` says whether the key's promise held.
 */
import * as wf from '../../../scripts/queue/workflows';
import { delay, fs, path } from '../../support/node';
import type { Json, QueueCluster } from './cluster';
import { dedupWorkflow, sentPerEvent, webhookReady, type ExecutionRecord } from './dedup';

export const FAULT_EVENTS = 200;
export const FAULT_IN_FLIGHT = 20;
/** When the fault lands, counted from the first event of the first delivery (at the earliest). */
export const FAULT_AFTER_MS = 8000;
/** The service's answer time during the first delivery: the sends of 400 events last long enough for the fault to land among them. */
export const FAULT_LATENCY_MS = 1000;

export type Fault = 'postgres-restart' | 'redis-restart' | 'postgres-down-20s';

/** Injects one fault; resolves once the service answers again. */
export async function injectFault(c: QueueCluster, fault: Fault): Promise<void> {
	if (fault === 'postgres-restart') await c.postgres.restart();
	else if (fault === 'redis-restart') await c.redis.restart({ downMs: 3000 });
	else await c.postgres.restart({ downMs: 20000 });
}

/** One workflow of a round: its campaign, webhook path and id. */
export interface RoundWorkflow {
	campaign: string;
	path: string;
	id: string;
	keyed: boolean;
}

/** The keyed and the keyless workflow of one round, deployed and their webhooks answering. */
export async function deployRound(c: QueueCluster, name: string, n: number) {
	const deployOne = async (keyed: boolean): Promise<RoundWorkflow> => {
		const campaign = `FAULT-${name}-${keyed ? 'KEY' : 'NOKEY'}`;
		const path = campaign.toLowerCase();
		c.sandbox.addCampaign(campaign);
		const webhookId = `5f0c2d4e-0000-4000-8000-0000000fa${keyed ? 'a' : 'b'}0${n}`;
		// Keyed: a short request timeout, also the longest a redelivered event waits for the outcome
		// of an earlier send of its key (as in the worker-kill round of test/queue/rounds/dedup.ts).
		const workflow = keyed
			? dedupWorkflow(path, campaign, webhookId, { timeoutMs: 3000 })
			: wf.webhookSendWorkflow({ path, campaignKey: campaign, webhookId });
		const id = await c.createWorkflow(workflow);
		await c.activate(id);
		await webhookReady(c.webhookUrl(path));
		return { campaign, path, id, keyed };
	};
	return { keyed: await deployOne(true), keyless: await deployOne(false) };
}

/** HTTP answers of one delivery: how many 200, how many other statuses, how many no answer. */
export function httpFigures(statuses: number[]) {
	const byStatus: Record<string, number> = {};
	for (const s of statuses)
		byStatus[s === 0 ? 'no answer' : String(s)] =
			(byStatus[s === 0 ? 'no answer' : String(s)] ?? 0) + 1;
	return byStatus;
}

/**
 * Waits until none of the workflows' executions newer than `sinceId` is unfinished, or until
 * nothing changed for `quietMs` (n8n may leave some unfinished for good: they are reported, not
 * waited for); at most `timeoutMs`. Resolves with every execution row.
 */
export async function settle(
	c: QueueCluster,
	workflowIds: string[],
	{ sinceId = 0, expected = 0, quietMs = 20000, timeoutMs = 4 * 60 * 1000 } = {},
) {
	const started = Date.now();
	let last = '';
	let lastChange = Date.now();
	for (;;) {
		const rows = (
			await Promise.all(workflowIds.map((workflowId) => c.db.executions({ workflowId, sinceId })))
		).flat();
		const open = rows.filter(
			(r) => !['success', 'error', 'crashed', 'canceled'].includes(r.status),
		);
		const state = rows.map((r) => `${r.id}:${r.status}`).join(',');
		if (state !== last) [last, lastChange] = [state, Date.now()];
		const done = rows.length >= expected && open.length === 0;
		if (done || Date.now() - lastChange > quietMs || Date.now() - started > timeoutMs) return rows;
		await delay(1000);
	}
}

/** Execution rows with their run data. */
export async function withRunData(
	c: QueueCluster,
	rows: Array<{ id: number; status: string }>,
): Promise<ExecutionRecord[]> {
	const records: ExecutionRecord[] = [];
	for (const r of rows)
		records.push({ id: r.id, status: r.status, data: await c.db.runData(r.id) });
	return records;
}

/**
 * What one execution answered for its event: `sent`, `duplicate`, `failed:<code>` (with
 * ` deliveryUnknown` when so marked), `error` (the execution ended in error, the Send node put
 * out nothing) or `unfinished` (new or running: n8n never finished it).
 */
export function answerOf(execution: ExecutionRecord): { eventId?: string; answer: string } {
	const runData = (execution.data?.resultData?.runData ?? {}) as Json;
	const eventId = runData.Webhook?.[0]?.data?.main?.[0]?.[0]?.json?.body?.eventId as
		| string
		| undefined;
	const outputs = (runData['Campaign Alimtalk']?.[0]?.data?.main ?? []) as Array<Json[] | null>;
	const ok = outputs[0]?.[0]?.json as Json | undefined;
	const failed = outputs[1]?.[0]?.json as Json | undefined;
	if (ok && !ok.isArtificialRecoveredEventItem)
		return { eventId, answer: ok.duplicate === true ? 'duplicate' : String(ok.status) };
	if (failed)
		return {
			eventId,
			answer: `failed:${failed.code}${failed.deliveryUnknown === true ? ' deliveryUnknown' : ''}`,
		};
	if (['error', 'crashed', 'canceled'].includes(execution.status))
		return { eventId, answer: 'error' };
	return { eventId, answer: 'unfinished' };
}

/** Counts of each answer and of executions by status, and the errors of executions in error. */
export function answerFigures(executions: ExecutionRecord[]) {
	const answers: Record<string, number> = {};
	const statuses: Record<string, number> = {};
	const errors: Record<string, number> = {};
	for (const e of executions) {
		const { answer } = answerOf(e);
		answers[answer] = (answers[answer] ?? 0) + 1;
		statuses[e.status] = (statuses[e.status] ?? 0) + 1;
		if (answer !== 'error') continue;
		const message = String(e.data?.resultData?.error?.message ?? 'no run data').slice(0, 160);
		errors[message] = (errors[message] ?? 0) + 1;
	}
	return { executions: executions.length, statuses, answers, errors };
}

/**
 * The Deduplication Key's promise after an infrastructure fault and a full redelivery (answers of
 * executions above `redeliveredAfter`): no event sent twice; no event the service never received
 * answered as sent or duplicate (by any execution); every event sent once, or its redelivery
 * answered as not sent (a Failed item or an execution in error), or its redelivery refused with a
 * status other than 200 (`refused`). `problems`: what breaks it (all empty when kept).
 */
export function keyedVerdict(
	sent: Map<string, number>,
	eventIds: string[],
	executions: ExecutionRecord[],
	redeliveredAfter: number,
	refused: Set<string>,
) {
	const count = (id: string) => sent.get(id) ?? 0;
	const last = new Map<string, string>();
	const claimedSent: string[] = [];
	for (const e of executions) {
		const { eventId, answer } = answerOf(e);
		if (eventId === undefined) continue;
		if ((answer === 'sent' || answer === 'duplicate') && count(eventId) === 0)
			claimedSent.push(`${eventId}: ${answer} (execution ${e.id})`);
		if (e.id > redeliveredAfter) last.set(eventId, answer);
	}
	const notSent = (id: string) => refused.has(id) || /^(failed:|error$)/.test(last.get(id) ?? '');
	const problems = {
		doubled: eventIds.filter((id) => count(id) > 1).map((id) => `${id}: sent ${count(id)} times`),
		neverSentAnsweredSent: claimedSent,
		neitherSentNorAnsweredNotSent: eventIds
			.filter((id) => count(id) === 0 && !notSent(id))
			.map((id) => `${id}: ${last.get(id) ?? 'no execution'}`),
	};
	const neverSent = eventIds.filter((id) => count(id) === 0);
	const figures = {
		events: eventIds.length,
		sentOnce: eventIds.filter((id) => count(id) === 1).length,
		sentTwiceOrMore: problems.doubled.length,
		neverSent: neverSent.length,
		neverSentAnswers: tallyOf(
			neverSent.map((id) => (refused.has(id) ? 'refused' : (last.get(id) ?? 'none'))),
		),
	};
	return { problems, figures };
}

/** Writes a round's `problems` (keyedVerdict) to `file`, to read after a failure, and expects none. */
export function expectKeyKept(problems: ReturnType<typeof keyedVerdict>['problems'], file: string) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(problems, null, 2)}\n`);
	expect(problems).toEqual({
		doubled: [],
		neverSentAnsweredSent: [],
		neitherSentNorAnsweredNotSent: [],
	});
}

/** Per event of `eventIds`, how many messages of `campaign` went out: in all, once, twice or more, never. */
export function sendFigures(c: QueueCluster, campaign: string, eventIds: string[]) {
	const sent = sentPerEvent(c.sandbox, campaign);
	const n = (id: string) => sent.get(id) ?? 0;
	return {
		messages: eventIds.reduce((a, id) => a + n(id), 0),
		sentOnce: eventIds.filter((id) => n(id) === 1).length,
		sentTwiceOrMore: eventIds.filter((id) => n(id) > 1).length,
		neverSent: eventIds.filter((id) => n(id) === 0).length,
	};
}

function tallyOf(values: string[]): Record<string, number> {
	const out: Record<string, number> = {};
	for (const v of values) out[v] = (out[v] ?? 0) + 1;
	return out;
}
