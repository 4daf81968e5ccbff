/**
 * What the Deduplication Key rounds share, in queue mode and in a single n8n process: the
 * webhook send workflow with a key, the events, and the count of messages per event.
 */
import * as rt from '../../scripts/runtime';
import * as wf from '../../scripts/queue/workflows';
import { delay } from '../support/node';
import type { Sandbox } from '../../sandbox/server';
import type { Json } from './cluster';

export const ROUND_EVENTS = 300;
export const IN_FLIGHT = 20;

/** Webhook -> Campaign Alimtalk send with the event id as its Deduplication Key. */
export function dedupWorkflow(path: string, campaignKey: string, webhookId: string): Json {
	const workflow = wf.webhookSendWorkflow({ path, campaignKey, webhookId }) as Json;
	const send = (workflow.nodes as Json[]).find((n) => n.type.endsWith('.campaignAlimtalk')) as Json;
	send.parameters.options = { ...send.parameters.options, deduplicationKey: '={{ $json.body.eventId }}' };
	workflow.name = `dedup: ${path}`;
	return workflow;
}

export const events = (prefix: string, count = ROUND_EVENTS) => Array.from({ length: count }, (_, i) => wf.eventBody(i, prefix));

/** Per event id, how many messages of `campaignKey` went out. */
export function tally(sandbox: Sandbox, campaignKey: string, bodies: Array<{ eventId: string }>) {
	const perEvent = new Map<string, number>();
	for (const m of sandbox.state.sent) {
		if (m.campaignKey !== campaignKey) continue;
		const id = String(m.properties.eventId);
		perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
	}
	const missing = bodies.filter((b) => !perEvent.has(b.eventId)).map((b) => b.eventId);
	const doubled = [...perEvent].filter(([, n]) => n > 1).map(([id]) => id);
	const sent = [...perEvent.values()].reduce((a, b) => a + b, 0);
	return { sent, missing, doubled };
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
		if (Date.now() > until) throw new Error(`the webhook ${url} was not registered after ${timeoutMs} ms`);
		await delay(500);
	}
}
