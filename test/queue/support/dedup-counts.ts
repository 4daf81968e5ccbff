/**
 * What a fault-free Deduplication Key round never answers, counted (docs/performance.md): items
 * that say `deduplicationStoreFailed`, claims kept (`deduplicationKeyKept: true`), answers of
 * `deliveryUnknown`, messages never sent, messages sent twice, and every copy answered anything
 * but `sent` or `duplicate`. The queue rounds (test/queue/rounds/dedup.ts) print these on every
 * run and write them to test-artifacts/dedup-queue.json; bench/dedup-copies.mjs measures them on
 * 1,000 events.
 */
import type { Sandbox } from '../../../sandbox/server';
import type { Json, QueueCluster } from './cluster';
import { sendAnswers, tally, type ExecutionRecord } from './dedup';
import { unsuccessful } from './index';

/** One answer for one event and one send node: the item the node put out (null: not reached). */
export interface CopyAnswer {
	eventId: string;
	node: string;
	item: Json | null | undefined;
	/** How the answer came, when not as an item: an HTTP error, or the execution's error. */
	http?: string;
}

/** n8n's whole-node error of a store failure (store/store-errors.ts `storeError`). */
const STORE_FAILED = /n8n's deduplication store failed/;

/** `sent`, `duplicate`, or what else the answer says. */
export function saidOf(answer: CopyAnswer): string {
	const item = answer.item;
	if (answer.http) return answer.http;
	if (item === null) return 'not reached';
	if (!item) return 'no answer';
	if (item.status === 'sent') return 'sent';
	if (item.duplicate === true) return 'duplicate';
	return `code ${String(item.code)}${item.deduplicationKeyKept === true ? ' (key kept)' : ''}`;
}

/** The counts of one set of answers; `neverSent` and `doubled` from the messages the sandbox got. */
export function countAnswers(
	answers: CopyAnswer[],
	messages: { missing: string[]; doubled: string[] },
) {
	const said = answers.map((answer) => ({ answer, said: saidOf(answer) }));
	const unusual = said.filter(({ said: s }) => s !== 'sent' && s !== 'duplicate');
	const byAnswer: Record<string, number> = {};
	for (const { said: s } of said) byAnswer[s] = (byAnswer[s] ?? 0) + 1;
	const is = (test: (item: Json) => boolean) =>
		answers.filter((a) => a.item && test(a.item)).length;
	return {
		storeFailed:
			is((item) => item.code === 'deduplicationStoreFailed') +
			answers.filter((a) => STORE_FAILED.test(a.http ?? '')).length,
		kept: is((item) => item.deduplicationKeyKept === true),
		deliveryUnknown: is((item) => item.deliveryUnknown === true),
		neverSent: messages.missing.length,
		doubled: messages.doubled.length,
		otherAnswers: unusual.length,
		answers: byAnswer,
		unusual: unusual.map(({ answer, said: s }) => ({
			eventId: answer.eventId,
			node: answer.node,
			said: s,
			message: answer.item?.message ?? answer.item?.error,
		})),
	};
}

export type Counts = ReturnType<typeof countAnswers>;

/** The counts every run prints: what a clean run answers 0 to. */
export const ZERO = {
	storeFailed: 0,
	kept: 0,
	deliveryUnknown: 0,
	neverSent: 0,
	doubled: 0,
	otherAnswers: 0,
};

export function summaryOf(counts: Counts): typeof ZERO {
	const { storeFailed, kept, deliveryUnknown, neverSent, doubled, otherAnswers } = counts;
	return { storeFailed, kept, deliveryUnknown, neverSent, doubled, otherAnswers };
}

/**
 * The answers of the one-node send workflow (test/queue/support/dedup.ts `dedupWorkflow`): each
 * execution's Send items, and the error of each execution that failed (a store failure fails the
 * execution: nothing was sent).
 */
export function countExecutions(
	records: ExecutionRecord[],
	messages: { missing: string[]; doubled: string[] },
): Counts {
	const answers: CopyAnswer[] = sendAnswers(records).map((a) => ({
		eventId: a.eventId,
		node: 'Campaign Alimtalk',
		item: a.item,
	}));
	for (const record of records.filter((r) => r.status !== 'success')) {
		const result = record.data?.resultData as Json | undefined;
		const eventId = result?.runData?.Webhook?.[0]?.data?.main?.[0]?.[0]?.json?.body?.eventId;
		answers.push({
			eventId: String(eventId),
			node: 'Campaign Alimtalk',
			item: undefined,
			http: `execution ${record.id} ${record.status}: ${String(result?.error?.message ?? '')}`,
		});
	}
	return countAnswers(answers, messages);
}

/**
 * The two-node workflow's first answers (test/queue/support/two-nodes.ts: each webhook answer
 * `{ eventId, order, shipping }`), counted per node and in all.
 */
export function countTwoNodes(
	sandbox: Sandbox,
	campaigns: [string, string],
	bodies: Array<{ eventId: string }>,
	answers: Array<{ request: { eventId: string }; status: number; body: string }>,
) {
	const perNode = (['order', 'shipping'] as const).map((field, n) => {
		const copies = answers.map((answer): CopyAnswer => {
			let parsed: Json | undefined;
			try {
				parsed = JSON.parse(answer.body) as Json;
			} catch {
				// reported as its HTTP answer
			}
			const ok = answer.status === 200 && parsed !== undefined;
			return {
				eventId: answer.request.eventId,
				node: field,
				item: ok ? (parsed?.[field] as Json | null) : undefined,
				...(ok ? {} : { http: `HTTP ${answer.status} ${answer.body.slice(0, 80)}` }),
			};
		});
		return countAnswers(copies, tally(sandbox, campaigns[n], bodies));
	});
	const summary = { ...ZERO };
	for (const counts of perNode)
		for (const key of Object.keys(summary) as Array<keyof typeof ZERO>) summary[key] += counts[key];
	return {
		summary,
		order: perNode[0],
		shipping: perNode[1],
		unusual: [...perNode[0].unusual, ...perNode[1].unusual],
	};
}

/**
 * The promise of a round with no store failure: nothing sent twice, nothing unsent, and no answer
 * but `sent` and `duplicate`: a claim kept with no fault fails the round.
 * Real queue mode's one fault-free store failure, a round failed "landed late" (window 5 of
 * docs/deduplication.md, `lateRounds`), is counted as a store failure by the callers: its claims
 * stay kept, and its event's other copy may be answered `earlierSendInProgress`. A lock row left
 * behind by such a write (a 30 s stall with copies answered so and no round failed) was allowed
 * here until the release that finds its row rewritten cleaned it (store/lock.ts `release`).
 */
export function expectClean(summary: typeof ZERO, unusual: Counts['unusual']): void {
	expect({
		storeFailed: summary.storeFailed,
		neverSent: summary.neverSent,
		doubled: summary.doubled,
		unusual,
	}).toEqual({ storeFailed: 0, neverSent: 0, doubled: 0, unusual: [] });
}

/** Prints a round's counts (every run, whatever they are) and returns them for the figures file. */
export function reportCounts(round: string, summary: typeof ZERO, unusual: unknown[]) {
	const line = Object.entries(summary)
		.map(([name, n]) => `${name} ${n}`)
		.join(', ');
	// eslint-disable-next-line no-console
	console.log(
		`Deduplication Key, ${round}: ${line}${unusual.length > 0 ? `\n${JSON.stringify(unusual.slice(0, 20), null, 1)}` : ''}`,
	);
	return { counts: summary, unusual: unusual.slice(0, 50) };
}

/** The first answers and, after them, the answers of the deliveries made again (two-nodes.ts `deliverNotSentAgain`). */
export function withRetries<R, A extends { request: R; status: number; body: string }>(
	answers: Array<A & { retry?: { status: number; body: string } }>,
): Array<{ request: R; status: number; body: string }> {
	return answers.flatMap((a) => (a.retry ? [a, { ...a.retry, request: a.request }] : [a]));
}

/** Each execution of `rows` with its stored run data. */
export async function recordsOf(
	c: QueueCluster,
	rows: Array<{ id: number; status: string }>,
): Promise<ExecutionRecord[]> {
	const records = [];
	for (const r of rows)
		records.push({ id: r.id, status: r.status, data: await c.db.runData(r.id) });
	return records;
}

/**
 * The executions of `workflowId` that failed because a round's lock row was rewritten by another
 * process's late write (docs/deduplication.md, window 5): the one store failure a fault-free run
 * can still meet (bench/dedup-copies.mjs traces it).
 */
export async function lateRounds(c: QueueCluster, workflowId: string) {
	const failed = await unsuccessful(c, await c.db.executions({ workflowId }));
	return failed.filter((f) => /landed late/.test(String(f.error?.message)));
}
