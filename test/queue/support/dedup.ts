/**
 * What the Deduplication Key rounds share, in queue mode and in a single n8n process: the
 * webhook send workflow with a key, the events, the count of messages per event, and what the
 * kill rounds promise (every event sent once, or its redelivery answered "delivery unknown").
 */
import * as rt from '../../../scripts/runtime';
import * as wf from '../../../scripts/queue/workflows';
import { delay, fs, path } from '../../support/node';
import type { Sandbox } from '../../../sandbox/server';
import type { Json } from './cluster';

export const ROUND_EVENTS = 300;
export const IN_FLIGHT = 20;

/** The names of the nodes of wf.webhookSendWorkflow (scripts/queue/workflows.js). */
const WEBHOOK_NODE = 'Webhook';
const SEND_NODE = 'Campaign Alimtalk';

/**
 * Webhook -> Campaign Alimtalk send with the event id as its Deduplication Key; `options` go
 * into the send node's options too (e.g. a short `timeoutMs`, which is also the longest an
 * item waits for another execution's send of its key).
 */
export function dedupWorkflow(
	path: string,
	campaignKey: string,
	webhookId: string,
	options: Json = {},
): Json {
	const workflow = wf.webhookSendWorkflow({ path, campaignKey, webhookId }) as Json;
	const send = (workflow.nodes as Json[]).find((n) => n.name === SEND_NODE) as Json;
	send.parameters.options = {
		...send.parameters.options,
		deduplicationKey: '={{ $json.body.eventId }}',
		...options,
	};
	workflow.name = `dedup: ${path}`;
	return workflow;
}

export const events = (prefix: string, count = ROUND_EVENTS) =>
	Array.from({ length: count }, (_, i) => wf.eventBody(i, prefix));

/** Per event id, how many messages of `campaignKey` the sandbox received. */
export function sentPerEvent(sandbox: Sandbox, campaignKey: string): Map<string, number> {
	const perEvent = new Map<string, number>();
	for (const m of sandbox.state.sent) {
		if (m.campaignKey !== campaignKey) continue;
		const id = String(m.properties.eventId);
		perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
	}
	return perEvent;
}

/** How many messages of `campaignKey` went out: in all, events without one, events with more. */
export function tally(sandbox: Sandbox, campaignKey: string, bodies: Array<{ eventId: string }>) {
	const perEvent = sentPerEvent(sandbox, campaignKey);
	const missing = bodies.filter((b) => !perEvent.has(b.eventId)).map((b) => b.eventId);
	const doubled = [...perEvent].filter(([, n]) => n > 1).map(([id]) => id);
	const sent = [...perEvent.values()].reduce((a, b) => a + b, 0);
	return { sent, missing, doubled };
}

/** The figures of a round as the figures file records them. */
export function roundFigures(events: number, deliveries: number, result: ReturnType<typeof tally>) {
	const { sent, missing, doubled } = result;
	return { events, deliveries, sent, missing: missing.length, doubled: doubled.length };
}

/** Bodies in pairs: each event twice, one right after the other (both in flight together). */
export const pairs = <T>(bodies: T[]): T[] => bodies.flatMap((b) => [b, b]);

/**
 * Waits until the process at `url` serves the (POST) webhook: n8n registers a webhook some time
 * after the workflow is activated, and answers 404 until then. A GET probe starts no execution;
 * once the path is registered n8n answers it "Did you mean to make a POST request?".
 */
export async function webhookReady(url: string, timeoutMs = 120000): Promise<void> {
	const until = Date.now() + timeoutMs;
	let streak = 0;
	while (streak < 3) {
		const res = await rt.httpRequest('GET', url, { timeoutMs: 5000 }).catch(() => undefined);
		streak = res && /POST request/.test(res.body) ? streak + 1 : 0;
		if (Date.now() > until)
			throw new Error(`the webhook ${url} was not registered after ${timeoutMs} ms`);
		await delay(500);
	}
}

/** One execution of a kill round's workflow: its id, status and stored run data (undefined when none). */
export interface ExecutionRecord {
	id: number;
	status: string;
	data: Json | undefined;
}

/** One item the Send node put out: on which output, for which event, in which execution. */
export interface SendAnswer {
	executionId: number;
	eventId: string;
	output: 'success' | 'failed';
	item: Json;
}

/**
 * What the Send node of each execution answered, item by item (one event per execution: the
 * Webhook's item names it). A crashed execution's items are n8n's own stand-ins, left out.
 */
export function sendAnswers(executions: ExecutionRecord[]): SendAnswer[] {
	return executions.flatMap((execution) => {
		if (execution.status === 'crashed') return [];
		const runData = (execution.data?.resultData?.runData ?? {}) as Json;
		const eventId = runData[WEBHOOK_NODE]?.[0]?.data?.main?.[0]?.[0]?.json?.body?.eventId;
		const outputs = (runData[SEND_NODE]?.[0]?.data?.main ?? []) as Array<Array<{
			json: Json;
		}> | null>;
		return (['success', 'failed'] as const).flatMap((output, n) =>
			(outputs[n] ?? [])
				.filter((entry) => !entry.json.isArtificialRecoveredEventItem)
				.map((entry) => ({
					executionId: execution.id,
					eventId: String(eventId ?? entry.json.deduplicationKey),
					output,
					item: entry.json,
				})),
		);
	});
}

/**
 * The promise of the Deduplication Key after a crash: every event is sent exactly once, or its
 * redelivery (an execution with an id above `redeliveredAfter`) answers it on Failed with
 * `deliveryUnknown: true`; no event the service never received is answered on Success (by any
 * execution); none is sent twice. `problems` lists what breaks it (all empty when kept),
 * `figures` how the events came out.
 */
export function killRoundVerdict(
	sandbox: Sandbox,
	campaignKey: string,
	bodies: Array<{ eventId: string }>,
	executions: ExecutionRecord[],
	redeliveredAfter: number,
) {
	const perEvent = sentPerEvent(sandbox, campaignKey);
	const answers = sendAnswers(executions);
	const last = new Map<string, SendAnswer>();
	for (const answer of answers)
		if (answer.executionId > redeliveredAfter) last.set(answer.eventId, answer);
	const sentCount = (eventId: string) => perEvent.get(eventId) ?? 0;
	const isUnknown = (answer?: SendAnswer) =>
		answer?.output === 'failed' && answer.item.deliveryUnknown === true;
	const problems = {
		doubled: bodies
			.filter((b) => sentCount(b.eventId) > 1)
			.map((b) => `${b.eventId}: sent ${sentCount(b.eventId)} times`),
		answeredSuccessNeverSent: answers.filter(
			(a) => a.output === 'success' && sentCount(a.eventId) === 0,
		),
		redeliveryUnanswered: bodies.filter((b) => !last.has(b.eventId)).map((b) => b.eventId),
		neverSentNotDeliveryUnknown: bodies
			.filter(
				(b) => sentCount(b.eventId) === 0 && last.has(b.eventId) && !isUnknown(last.get(b.eventId)),
			)
			.map((b) => last.get(b.eventId)),
	};
	const redelivery = bodies
		.map((b) => last.get(b.eventId))
		.filter((a): a is SendAnswer => a !== undefined);
	const unknownCodes: Record<string, number> = {};
	for (const a of redelivery.filter((r) => isUnknown(r)))
		unknownCodes[a.item.code] = (unknownCodes[a.item.code] ?? 0) + 1;
	const figures = {
		events: bodies.length,
		sentOnce: bodies.filter((b) => sentCount(b.eventId) === 1).length,
		neverSent: bodies.filter((b) => sentCount(b.eventId) === 0).length,
		redelivery: {
			sent: redelivery.filter((a) => a.output === 'success' && a.item.status === 'sent').length,
			duplicate: redelivery.filter((a) => a.output === 'success' && a.item.duplicate === true)
				.length,
			deliveryUnknown: unknownCodes,
			deliveryUnknownNeverSent: redelivery.filter((a) => isUnknown(a) && sentCount(a.eventId) === 0)
				.length,
			otherFailed: redelivery
				.filter((a) => a.output === 'failed' && !isUnknown(a))
				.map((a) => `${a.eventId}: ${a.item.code}`),
		},
		answeredSuccessNeverSent: problems.answeredSuccessNeverSent.length,
		doubled: problems.doubled.length,
	};
	return { problems, figures };
}

/**
 * Writes a kill round's `problems` (killRoundVerdict) to `file`, to read after a failure, and
 * expects every list empty: the promise of the Deduplication Key kept.
 */
export function expectPromiseKept(
	problems: ReturnType<typeof killRoundVerdict>['problems'],
	file: string,
): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(problems, null, 2)}\n`);
	expect(problems).toEqual({
		doubled: [],
		answeredSuccessNeverSent: [],
		redeliveryUnanswered: [],
		neverSentNotDeliveryUnknown: [],
	});
}
