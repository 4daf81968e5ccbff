/**
 * End-to-end: two keyed Campaign Alimtalk nodes in one workflow (both scope This Node, the
 * default) in one `n8n start`. Webhook -> "Order notice" -> "Shipping notice" -> the answer
 * (test/queue/support/two-nodes.ts, twoNodeWorkflow); 40 events, each delivered twice at the same
 * moment, at most 20 requests in flight, the service answering after 300 ms so that executions
 * overlap. Every message of each node reaches the service exactly once, and of each event's two
 * answers one says `sent` and the other `duplicate`, per node; with keys that differ per node
 * and with the same key expression in both; an event the first node refuses is answered with its
 * code (its Failed output answers too). Figures: test-artifacts/e2e/dedup-two-nodes/figures.json.
 *
 * Run with `npx jest -c jest.e2e.config.js test/e2e/dedup-two-nodes.e2e.ts` (builds the package).
 */
import * as rt from '../../scripts/runtime';
import { fs, path } from '../support/node';
import {
	events,
	IN_FLIGHT,
	pairs,
	deliverNotSentAgain,
	postAll,
	twoNodeVerdict,
	expectTwoNodesKept,
	twoNodeWorkflow,
	webhookReady,
	countTwoNodes,
	withRetries,
} from '../queue/support';
import { ARTIFACTS, importWorkflows, publishWorkflow, sb, setupN8n, startN8n } from './support';

setupN8n('dedup-two-nodes');

const EVENTS = 40;
const LATENCY_MS = 300;
const VARIANTS = [
	{ keys: 'distinct' as const, id: 'cmDedupTwoNodesA', campaigns: ['ORDER-A', 'SHIP-A'] },
	{ keys: 'same' as const, id: 'cmDedupTwoNodesB', campaigns: ['ORDER-B', 'SHIP-B'] },
].map((v, n) => ({
	...v,
	path: `two-nodes-${v.keys}`,
	webhookId: `5f0c2d4e-0000-4000-8000-0000000dd0c${n}`,
	campaigns: v.campaigns as [string, string],
}));
const figures: Record<string, unknown> = {};
let n8n: rt.StartedN8n;

beforeAll(
	async () => {
		await importWorkflows(
			VARIANTS.map((v) => ({
				...twoNodeWorkflow(v.path, v.webhookId, v.campaigns, v.keys),
				id: v.id,
				active: false,
			})),
		);
		n8n = await startN8n();
		const { cookie } = await rt.setupOwner(n8n.url, n8n.ownerPassword);
		for (const v of VARIANTS) {
			expect(await publishWorkflow(n8n.url, cookie, v.id)).toBe(200);
			await webhookReady(`${n8n.url}/webhook/${v.path}`);
		}
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await n8n?.stop();
	fs.writeFileSync(path.join(ARTIFACTS, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
});

describe('two keyed send nodes in one workflow, one n8n process', () => {
	test.each(VARIANTS)(
		`keys $keys: ${EVENTS} events each delivered twice at once, ${IN_FLIGHT} in flight: every message of each node sent once`,
		async (v) => {
			for (const campaign of v.campaigns) sb.addCampaign(campaign);
			sb.configure({ latencyMs: LATENCY_MS, faults: undefined });
			const bodies = events(`two-${v.keys}`, EVENTS);
			const url = `${n8n.url}/webhook/${v.path}`;
			const answers = await postAll(url, pairs(bodies), IN_FLIGHT);
			// An answer that says nothing was sent (docs/deduplication.md, window 5) is delivered again.
			const failedFirst = await deliverNotSentAgain(url, answers, IN_FLIGHT);
			fs.writeFileSync(
				path.join(ARTIFACTS, `${v.keys}-answers.json`),
				`${JSON.stringify(answers, null, 1)}\n`,
			);
			const verdict = twoNodeVerdict(sb, v.campaigns, bodies, answers);
			figures[v.keys] = {
				events: EVENTS,
				deliveries: answers.length,
				failedFirst,
				...Object.fromEntries(
					Object.entries(verdict).map(([node, r]) => [
						node,
						{ ...r, missing: r.missing.length, doubled: r.doubled.length },
					]),
				),
			};
			// One n8n process: no other process's write can land late on its lock (window 5).
			const counts = countTwoNodes(sb, v.campaigns, bodies, withRetries(answers));
			(figures[v.keys] as Record<string, unknown>).counts = counts.summary;
			expectTwoNodesKept(verdict, counts, EVENTS);
			expect(answers.filter((a) => a.status !== 200)).toEqual([]);
		},
	);

	test('an event the first node refuses is answered with its code, the second node not reached', async () => {
		const v = VARIANTS[0];
		const body = { ...events('two-refused', 1)[0], phoneNumber: 'not a phone' };
		const [answer] = await postAll(`${n8n.url}/webhook/${v.path}`, [body], 1);
		expect(answer.status).toBe(200);
		const said = JSON.parse(answer.body) as { order: { code?: unknown }; shipping: unknown };
		expect(said).toEqual({ eventId: body.eventId, order: expect.anything(), shipping: null });
		expect(typeof said.order.code).toBe('string');
	});
});
