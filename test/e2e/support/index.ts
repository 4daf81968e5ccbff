/**
 * The end-to-end suites' support, one import for every file of test/e2e:
 * - n8n.ts: `setupN8n(suite)`, the packed package in a real n8n against the API sandbox, and the
 *   helpers that import into, start and execute in that n8n user folder,
 * - editor.ts: `n8n start` with headless Chromium signed in, and the editor's node panel,
 * - agent.ts: workflows with the package's nodes as AI Agent and MCP Server Trigger tools,
 * - mcp.ts: the official MCP client connected to an MCP Server Trigger, and a tool call's answer,
 * - `expectWebhookSend` below: the published event example's webhook of `npm start` and
 *   `npm run start:queue`, called with its secret.
 */
import { EVENT_EXAMPLE, finishedExecutions, postEvent, type Banner } from '../../support/demo';

export * from './n8n';
export * from './editor';
export * from './agent';
export * from './review';
export * from './guardrails';
export * from './mcp';
export * from './smtp';

/**
 * Posts `event` with the webhook secret to the banner's published event example: one execution
 * that succeeds and sends the message through the sandbox (the sandbox's own answer comes back on
 * the item: the request reached it). Returns that execution.
 */
export async function expectWebhookSend(
	banner: Banner,
	cookie: string,
	event: { phoneNumber: string; name: string; coupon: string },
) {
	expect(await postEvent(banner.webhook, event, banner.webhookSecret)).toBe(200);
	const [run, ...more] = await finishedExecutions(banner, cookie, EVENT_EXAMPLE, 1);
	expect({ status: run?.status, more: more.length }).toEqual({ status: 'success', more: 0 });
	const sent = run.output('Campaign Alimtalk');
	expect(sent).toEqual([
		expect.objectContaining({
			campaignKey: 'DEMO-WELCOME',
			phoneNumber: event.phoneNumber,
			status: 'sent',
		}),
	]);
	expect(Object.keys((sent[0].response ?? {}) as object).length).toBeGreaterThan(0);
	return run;
}
