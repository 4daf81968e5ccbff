/**
 * The Deduplication Key rounds in a single n8n process (regular mode, its default SQLite
 * database), webhook events 20 in flight, as in queue mode (dedup.queue.ts): redelivery,
 * concurrent copies, and n8n SIGKILLed mid-run, started again, its failed executions retried.
 * The figures go to test-artifacts/dedup-single.json.
 */
import * as rt from '../../scripts/runtime';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { delay, fs, path, proc, ROOT } from '../support/node';
import { fire } from './cluster';
import { dedupWorkflow, events, IN_FLIGHT, pairs, ROUND_EVENTS, tally, webhookReady } from './dedup-support';

const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'dedup-single');
const figures: Record<string, unknown> = {};
let sb: Sandbox;
let n8n: rt.StartedN8n | undefined;
let userFolder: string;

const ROUNDS = [
	{ name: 'SINGLE-REDELIVERY', id: 'cmDedupSingleA', webhookId: '5f0c2d4e-0000-4000-8000-0000000dd0a1' },
	{ name: 'SINGLE-COPIES', id: 'cmDedupSingleB', webhookId: '5f0c2d4e-0000-4000-8000-0000000dd0a2' },
	{ name: 'SINGLE-KILL', id: 'cmDedupSingleC', webhookId: '5f0c2d4e-0000-4000-8000-0000000dd0a3' },
];
let paths: rt.RuntimePaths;

async function start(): Promise<void> {
	// At most 20 executions at once, as the queue-mode rounds' two workers of 10 (n8n's own
	// setting; without it every event received runs at once).
	n8n = await rt.startN8n(paths, userFolder, {
		logFile: path.join(ARTIFACTS, `n8n-${Date.now()}.log`),
		env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(IN_FLIGHT) },
	});
	for (const round of ROUNDS) await webhookReady(`${n8n.url}/webhook/${round.name.toLowerCase()}`);
}

/** SIGKILL to n8n and to the processes it started (its task runner), as when a machine dies. */
function killN8n(pid: number): void {
	const children = fs
		.readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.filter((entry) => {
			try {
				return fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
			} catch {
				return false;
			}
		});
	for (const target of [pid, ...children.map(Number)]) {
		try {
			proc.kill(target, 'SIGKILL');
		} catch {
			// already gone
		}
	}
}

beforeAll(async () => {
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	paths = await rt.ensureRuntime();
	sb = await startSandbox({ latencyMs: 20 });
	userFolder = rt.createUserFolder(ARTIFACTS, 'n8n-user-');
	await rt.installPackage(userFolder, await rt.packPackage(path.join(ARTIFACTS, 'pack')));
	await rt.importCredentials(paths, userFolder, [
		{ ...rt.SANDBOX_CREDENTIAL, data: { baseUrl: sb.baseUrl, apiKey: sb.apiKey, memberApiVersion: 'any' } },
	]);
	const files = ROUNDS.map((round) => {
		sb.addCampaign(round.name);
		const file = path.join(ARTIFACTS, `${round.id}.json`);
		fs.writeFileSync(file, JSON.stringify({ ...dedupWorkflow(round.name.toLowerCase(), round.name, round.webhookId), id: round.id, active: false }));
		return file;
	});
	await rt.importWorkflows(paths, userFolder, files);
	// Published before n8n starts: n8n registers production webhooks when it starts.
	for (const round of ROUNDS) await rt.n8nCli(paths, userFolder, ['publish:workflow', `--id=${round.id}`]);
	await start();
}, 30 * 60 * 1000);

afterAll(async () => {
	await n8n?.stop();
	await sb?.close();
	fs.writeFileSync(path.join(ROOT, 'test-artifacts', 'dedup-single.json'), `${JSON.stringify(figures, null, 2)}\n`);
	if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
});

/** POSTs the bodies, then waits until the sandbox has seen no new message for a while. */
async function deliver(round: (typeof ROUNDS)[number], bodies: unknown[]) {
	const fired = await fire(`${n8n?.url}/webhook/${round.name.toLowerCase()}`, bodies, { concurrency: IN_FLIGHT });
	expect(fired.errors).toEqual([]);
	expect(fired.statuses.filter((s) => s !== 200)).toEqual([]);
	// The webhook answers on receipt: the executions finish after it.
	let last = -1;
	while (last !== sb.requests.length || sb.inFlight > 0) {
		last = sb.requests.length;
		await delay(2000);
	}
}

describe('Deduplication Key in one n8n process (regular mode, 20 executions in flight)', () => {
	test(`redelivery: ${ROUND_EVENTS} events, then the same again: exactly ${ROUND_EVENTS} messages`, async () => {
		const round = ROUNDS[0];
		const bodies = events('single-redeliver');
		await deliver(round, bodies);
		await deliver(round, bodies);
		const result = tally(sb, round.name, bodies);
		figures.redelivery = { events: bodies.length, deliveries: bodies.length * 2, sent: result.sent, missing: result.missing.length, doubled: result.doubled.length };
		expect({ sent: result.sent, missing: result.missing, doubled: result.doubled }).toEqual({ sent: ROUND_EVENTS, missing: [], doubled: [] });
	});

	test(`concurrent copies: ${ROUND_EVENTS} events each delivered twice at once`, async () => {
		const round = ROUNDS[1];
		const bodies = events('single-copy');
		await deliver(round, pairs(bodies));
		const result = tally(sb, round.name, bodies);
		figures.concurrentCopies = { events: bodies.length, deliveries: bodies.length * 2, sent: result.sent, missing: result.missing.length, doubled: result.doubled.length };
		expect(result.missing).toEqual([]);
		expect(result.doubled).toEqual([]);
	});

	test('n8n SIGKILLed mid-run, started again, its failed executions retried: nothing sent twice', async () => {
		const round = ROUNDS[2];
		sb.configure({ latencyMs: 300 });
		const bodies = events('single-kill', 200);
		const fired = fire(`${n8n?.url}/webhook/${round.name.toLowerCase()}`, bodies, { concurrency: IN_FLIGHT, timeoutMs: 20000 });
		while (tally(sb, round.name, bodies).sent < 40) await delay(20);
		killN8n((n8n as unknown as { process: { pid: number } }).process.pid);
		const answered = (await fired).statuses.filter((s) => s === 200).length;
		const before = tally(sb, round.name, bodies);
		sb.configure({ latencyMs: 20 });
		await start();

		// Retry every execution that did not succeed, as a user does from the executions list.
		const login = await rt.setupOwner(n8n?.url ?? '');
		const rest = async (method: string, route: string, body?: unknown) => {
			const res = await rt.httpRequest(method, `${n8n?.url}/rest${route}`, { body, headers: { cookie: login.cookie }, timeoutMs: 60000 });
			return { status: res.status, data: res.status === 200 ? JSON.parse(res.body).data : res.body.slice(0, 300) };
		};
		const filter = encodeURIComponent(JSON.stringify({ workflowId: round.id, status: ['crashed', 'error', 'canceled', 'unknown'] }));
		const list = await rest('GET', `/executions?filter=${filter}&limit=100`);
		expect(list).toMatchObject({ status: 200 });
		const unfinished = ((list.data?.results ?? []) as Array<{ id: string; status: string }>).filter((e) => e.status !== 'success');
		const retries: string[] = [];
		for (const execution of unfinished) {
			const res = await rest('POST', `/executions/${execution.id}/retry`, { loadWorkflow: false });
			retries.push(`${execution.id} ${execution.status}: ${res.status === 200 ? 'retried' : `HTTP ${res.status} ${res.data}`}`);
		}
		await deliver(round, []);
		const afterRetry = tally(sb, round.name, bodies);
		expect(afterRetry.doubled).toEqual([]);
		// The caller got no answer for some events, or cannot tell: it delivers all of them again.
		await deliver(round, bodies);
		const after = tally(sb, round.name, bodies);
		figures.processKill = {
			events: bodies.length,
			answeredBeforeKill: answered,
			sentBeforeKill: before.sent,
			executionsListed: (list.data?.results ?? []).length,
			unfinishedExecutions: unfinished.map((e) => `${e.id} ${e.status}`),
			retries,
			sentAfterRetry: afterRetry.sent,
			sentAfterRedeliveringAll: after.sent,
			missing: after.missing,
			doubled: after.doubled.length,
		};
		expect(after.doubled).toEqual([]);
		// A missing event is one whose key was recorded by an execution that died before or while
		// its request went out: no more than were in flight.
		expect(after.missing.length).toBeLessThanOrEqual(IN_FLIGHT);
	});
});
