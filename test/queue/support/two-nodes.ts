/**
 * The Deduplication Key rounds with two keyed send nodes in one workflow (test/queue/rounds/dedup.ts
 * and test/e2e/dedup-two-nodes.e2e.ts): the workflow, the webhook client that delivers each event
 * twice, and what the answers and the sandbox say.
 */
import * as rt from '../../../scripts/runtime';
import * as wf from '../../../scripts/queue/workflows';
import type { Sandbox } from '../../../sandbox/server';
import type { Json } from './cluster';
import { sentPerEvent, tally } from './dedup';
import { expectClean, type countTwoNodes } from './dedup-counts';

/**
 * Two keyed send nodes in one workflow (both scope This Node, the default): Webhook (answered
 * after the last node) -> "Order notice" (campaign `campaigns[0]`) -> "Shipping notice"
 * (`campaigns[1]`) -> "Answer", which answers `{ eventId, order, shipping }`: the item each send
 * node put out for the event. A send's Failed output answers the same way ("Order not sent":
 * `shipping` null, the shipping notice not reached; "Shipping not sent"), so an answer always
 * says what each node did, with its code. Keys `distinct`: `order-<eventId>` and
 * `ship-<eventId>`; `same`: the event id in both (each node has its own keys either way).
 */
export const TWO_NODES = ['Order notice', 'Shipping notice'] as const;

export function twoNodeWorkflow(
	path: string,
	webhookId: string,
	campaigns: [string, string],
	keys: 'distinct' | 'same',
): Json {
	const workflow = wf.webhookSendWorkflow({ path, campaignKey: campaigns[0], webhookId }) as Json;
	const [hook, template] = workflow.nodes as Json[];
	hook.parameters.responseMode = 'lastNode';
	const body = (field: string) => `$('Webhook').item.json.body.${field}`;
	const send = (n: number, prefix: string): Json => {
		const node = JSON.parse(JSON.stringify(template)) as Json;
		Object.assign(node, { name: TWO_NODES[n], id: `${node.id.slice(0, -1)}${n + 2}` });
		Object.assign(node.parameters, {
			campaignKey: campaigns[n],
			phoneNumber: `={{ ${body('phoneNumber')} }}`,
			options: { deduplicationKey: `=${keys === 'same' ? '' : prefix}{{ ${body('eventId')} }}` },
		});
		node.parameters.properties.property[0].value = `={{ ${body('eventId')} }}`;
		node.position = [(n + 1) * 240, 0];
		return node;
	};
	const answerJson = (order: string, shipping: string) =>
		`={ "eventId": {{ JSON.stringify(${body('eventId')}) }}, "order": {{ ${order} }}, "shipping": {{ ${shipping} }} }`;
	const orderItem = `JSON.stringify($('${TWO_NODES[0]}').item.json)`;
	const setNode = (n: number, name: string, jsonOutput: string): Json => ({
		id: `${template.id.slice(0, -1)}${9 - n}`,
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [720, n * 160],
		parameters: { mode: 'raw', jsonOutput, options: {} },
	});
	workflow.nodes = [
		hook,
		send(0, 'order-'),
		send(1, 'ship-'),
		setNode(0, 'Answer', answerJson(orderItem, 'JSON.stringify($json)')),
		setNode(1, 'Order not sent', answerJson('JSON.stringify($json)', 'null')),
		setNode(2, 'Shipping not sent', answerJson(orderItem, 'JSON.stringify($json)')),
	];
	const to = (...names: string[]) => ({
		main: names.map((node) => [{ node, type: 'main', index: 0 }]),
	});
	workflow.connections = {
		[String(hook.name)]: to(TWO_NODES[0]),
		[TWO_NODES[0]]: to(TWO_NODES[1], 'Order not sent'),
		[TWO_NODES[1]]: to('Answer', 'Shipping not sent'),
	};
	workflow.name = `dedup: two keyed nodes (${path})`;
	return workflow;
}

/** POSTs each body to `url`, at most `concurrency` at once; each answer's status and body, in order. */
export async function postAll<T>(url: string, bodies: T[], concurrency: number) {
	const answers: Array<{ request: T; status: number; body: string }> = [];
	let next = 0;
	const lane = async () => {
		for (let i = next++; i < bodies.length; i = next++)
			answers[i] = await rt
				.httpRequest('POST', url, { body: bodies[i], timeoutMs: 5 * 60 * 1000 })
				.then(({ status, body }) => ({ request: bodies[i], status, body }))
				.catch((error: Error) => ({ request: bodies[i], status: 0, body: error.message }));
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, lane));
	return answers;
}

type Answer = { status: number; body: string; retry?: { status: number; body: string } };

/**
 * What one webhook answer says about a send node's message: sent, duplicate, its code, not
 * reached, or the HTTP error. A node's answer that says nothing was sent for it (`retried`) is
 * read from the delivery made again, when there is one.
 */
function answerOf(answer: Answer, field: string, follow = true): string {
	let parsed: Json = {};
	try {
		parsed = JSON.parse(answer.body) as Json;
	} catch {
		// not JSON: reported with its status below
	}
	const item = (answer.status === 200 ? parsed[field] : undefined) as Json | null | undefined;
	let said = `HTTP ${answer.status} ${String(parsed.message ?? answer.body).slice(0, 80)}`;
	if (item?.status === 'sent') said = 'sent';
	else if (item?.duplicate === true) said = 'duplicate';
	else if (item?.deduplicationKeyKept === true) said = `code ${item.code} (key kept)`;
	else if (item) said = `code ${item.code}`;
	else if (answer.status === 200 && item === null) said = 'not reached';
	return follow && answer.retry && retried(said) ? answerOf(answer.retry, field) : said;
}

/**
 * Answers that say nothing was sent: a round that lost its lock row to another process's late
 * whole-row write (`deduplicationStoreFailed`: docs/deduplication.md, window 5), with its key
 * kept or not, or a node not reached after it.
 */
const retried = (said: string) =>
	said.startsWith('code deduplicationStoreFailed') || said === 'not reached';

/** An answer that says a message may have been sent (`deliveryUnknown`), never that it was. */
const MAYBE_SENT = [
	'code earlierSendInProgress (key kept)',
	'code earlierSendUnconfirmed (key kept)',
];

/**
 * What a redelivery of an event whose round failed with its claim kept is answered while that
 * claim stands (docs/deduplication.md, window 4): not sent, never sent twice.
 */
const KEPT_ANSWERS = [
	'code earlierSendInProgress',
	'code earlierSendUnconfirmed',
	'code deduplicationStoreFailed (key kept)',
	'not reached',
];

/**
 * Delivers again, as the error tells an operator to, every event whose answer says nothing was
 * sent for one of its nodes (`retried`); the new answer goes in `retry`. How many: the result.
 */
export async function deliverNotSentAgain<T extends { eventId: string }>(
	url: string,
	answers: Array<{ request: T } & Answer>,
	concurrency: number,
): Promise<number> {
	const fields = ['order', 'shipping'];
	const again = answers.filter((a) => fields.some((field) => retried(answerOf(a, field))));
	const retries = await postAll(
		url,
		again.map((a) => a.request),
		concurrency,
	);
	again.forEach((a, n) => (a.retry = retries[n]));
	return again.length;
}

/**
 * Per send node of twoNodeWorkflow, each event delivered twice: the messages the sandbox got (as
 * `tally`), what the webhook answers said, and the events not sent exactly once or not answered
 * one `sent` and one `duplicate` (`inconsistent`).
 */
export function twoNodeVerdict(
	sandbox: Sandbox,
	campaigns: [string, string],
	bodies: Array<{ eventId: string }>,
	answers: Array<{ request: { eventId: string } } & Answer>,
	lateEvents: string[] = [],
) {
	return Object.fromEntries(
		(['order', 'shipping'] as const).map((field, n) => {
			const perEvent = sentPerEvent(sandbox, campaigns[n]);
			const said: Record<string, number> = {};
			const inconsistent: string[] = [];
			/** Events not sent because a failed round kept their claim: answered so, never sent. */
			const kept: string[] = [];
			/**
			 * Events sent once whose other copy was answered "an earlier send not confirmed": the
			 * sending copy's confirmation was in a round that failed, so its claim stays (window 4).
			 */
			const unconfirmed: string[] = [];
			/**
			 * Events a copy of which failed its execution "landed late" (`lateRounds`, window 5):
			 * its webhook answered HTTP 500, saying nothing of either node. Sent at most once, and
			 * never answered `sent` unless sent; left out of the other counts.
			 */
			const late: string[] = [];
			for (const { eventId } of bodies) {
				const mine = answers
					.filter((a) => a.request.eventId === eventId)
					.map((a) => answerOf(a, field));
				const sent = perEvent.get(eventId) ?? 0;
				if (lateEvents.includes(eventId) && mine.some((a) => a.startsWith('HTTP 500'))) {
					if (sent > 1 || (sent === 0 && mine.includes('sent')))
						inconsistent.push(`${eventId}: ${sent} sent, answered ${mine.join(' + ')}`);
					late.push(eventId);
					continue;
				}
				for (const a of mine) said[a] = (said[a] ?? 0) + 1;
				const firsts = answers
					.filter((a) => a.request.eventId === eventId)
					.flatMap((a) => ['order', 'shipping'].map((f) => answerOf(a, f, false)));
				const keptFirst = firsts.includes('code deduplicationStoreFailed (key kept)');
				const [other, own] = mine.sort();
				if (sent === 0 && keptFirst && mine.every((a) => KEPT_ANSWERS.includes(a)))
					kept.push(eventId);
				else if (sent === 1 && mine.length === 2 && own === 'sent' && MAYBE_SENT.includes(other))
					unconfirmed.push(eventId);
				else if (sent !== 1 || mine.sort().join('+') !== 'duplicate+sent')
					inconsistent.push(`${eventId}: ${sent} sent, answered ${mine.join(' + ')}`);
			}
			const counts = tally(sandbox, campaigns[n], bodies);
			return [field, { ...counts, answers: said, inconsistent, kept, unconfirmed, late }];
		}),
	);
}

/**
 * The promise of the two-node rounds: per node every message sent exactly once and answered one
 * `sent` and one `duplicate`, except the events a failed round kept (never sent, answered so) and
 * those whose confirmation a failed round did not write (sent once, the other copy answered
 * "maybe sent", never "sent"). Never a message twice, never one answered sent that was not.
 * Without a store failure (none answered `deduplicationStoreFailed`, and `lateRounds`, the
 * executions that failed "landed late", 0) every copy is answered sent or duplicate
 * (dedup-counts.ts `expectClean`).
 */
export function expectTwoNodesKept(
	verdict: ReturnType<typeof twoNodeVerdict>,
	counts: ReturnType<typeof countTwoNodes>,
	events: number,
	lateRounds = 0,
) {
	if (counts.summary.storeFailed + lateRounds === 0) expectClean(counts.summary, counts.unusual);
	for (const field of ['order', 'shipping'] as const) {
		const r = verdict[field] as {
			sent: number;
			missing: string[];
			doubled: string[];
			inconsistent: string[];
			kept: string[];
			unconfirmed: string[];
			late: string[];
			answers: Record<string, number>;
		};
		expect({ doubled: r.doubled, inconsistent: r.inconsistent }).toEqual({
			doubled: [],
			inconsistent: [],
		});
		// A round that failed "landed late" fails the executions of that one round (2 to 7 of
		// 2,000 in real queue mode, 3 events): more than a quarter of the events is something else.
		expect(r.late.length).toBeLessThanOrEqual(events / 4);
		const judged = events - r.late.length;
		const missing = r.missing.filter((eventId) => !r.late.includes(eventId));
		expect(missing.sort()).toEqual([...r.kept].sort());
		expect(r.sent).toBe(events - r.kept.length - (r.missing.length - missing.length));
		expect(r.answers.sent ?? 0).toBe(judged - r.kept.length);
		expect(r.answers.duplicate ?? 0).toBe(judged - r.kept.length - r.unconfirmed.length);
	}
}
