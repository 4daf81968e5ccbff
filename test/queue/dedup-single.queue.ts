/**
 * The Deduplication Key rounds in a single n8n process (regular mode, its default SQLite
 * database): three times n8n with no limit on executions at once SIGKILLed while 200 events are
 * being sent, started again, and all 200 delivered again; then redelivery and concurrent copies
 * with webhook events 20 in flight, as in queue mode (test/queue/rounds/dedup.ts). The figures go
 * to test-artifacts/dedup-single.json.
 */
import * as rt from '../../scripts/runtime';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { delay, fs, path, ROOT } from '../support/node';
import {
	dedupWorkflow,
	events,
	expectPromiseKept,
	fire,
	IN_FLIGHT,
	killRoundVerdict,
	killTree,
	pairs,
	ROUND_EVENTS,
	roundFigures,
	tally,
	webhookReady,
	type ExecutionRecord,
	type Json,
} from './support';

const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'dedup-single');
const figures: Record<string, unknown> = {};
let sb: Sandbox;
let n8n: rt.StartedN8n | undefined;
let userFolder: string;
let cookie = '';

/**
 * The three kill runs, each killed at another moment: early (most events not yet claimed), while
 * every send is in flight, and late (the first answers recorded): `received` counts the sends the
 * sandbox has received, `taken` those it has taken (recorded as sent, after its latency).
 */
const KILL_RUNS = [
	{ run: 1, when: 'received' as const, at: 30 },
	{ run: 2, when: 'received' as const, at: 120 },
	{ run: 3, when: 'taken' as const, at: 60 },
];
const KILL_EVENTS = 200;
const KILL_LATENCY_MS = 1500;
/** The kill rounds' request timeout, also the longest a redelivered event waits for the send it repeats. */
const KILL_TIMEOUT_MS = 3000;

const ROUNDS = [
	{
		name: 'SINGLE-REDELIVERY',
		id: 'cmDedupSingleA',
		webhookId: '5f0c2d4e-0000-4000-8000-0000000dd0a1',
		options: {},
	},
	{
		name: 'SINGLE-COPIES',
		id: 'cmDedupSingleB',
		webhookId: '5f0c2d4e-0000-4000-8000-0000000dd0a2',
		options: {},
	},
	...KILL_RUNS.map(({ run }) => ({
		name: `SINGLE-KILL-${run}`,
		id: `cmDedupSingleK${run}`,
		webhookId: `5f0c2d4e-0000-4000-8000-0000000dd0b${run}`,
		options: { timeoutMs: KILL_TIMEOUT_MS },
	})),
];
let paths: rt.RuntimePaths;
/** The limit of executions at once n8n runs with now (undefined: none, n8n's default). */
let limit: number | undefined;

async function start(concurrencyLimit?: number, publish: string[] = []): Promise<void> {
	limit = concurrencyLimit;
	cookie = '';
	n8n = await rt.startN8n(paths, userFolder, {
		logFile: path.join(ARTIFACTS, `n8n-${Date.now()}.log`),
		env: limit ? { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(limit) } : {},
	});
	if (publish.length > 0) cookie = (await rt.setupOwner(n8n.url, n8n.ownerPassword)).cookie;
	for (const id of publish) expect(await rt.publishWorkflow(n8n.url, cookie, id)).toBe(200);
	for (const round of ROUNDS) await webhookReady(`${n8n.url}/webhook/${round.name.toLowerCase()}`);
}

/**
 * n8n running with `concurrencyLimit` executions at once (undefined: none), restarted when it runs
 * with another. The redelivery and copy rounds run with at most 20 at once, as the queue-mode
 * rounds' two workers of 10 (n8n's own setting).
 */
async function withLimit(concurrencyLimit: number | undefined): Promise<void> {
	if (limit === concurrencyLimit) return;
	await n8n?.stop();
	await start(concurrencyLimit);
}

/** GET on n8n's REST API with the owner's session: HTTP status, `data` of the answer, and the body. */
async function restGet(
	route: string,
): Promise<{ status: number; data: Json | undefined; body: string }> {
	if (!cookie) cookie = (await rt.setupOwner(n8n?.url ?? '', n8n?.ownerPassword ?? '')).cookie;
	const res = await rt.httpRequest('GET', `${n8n?.url}/rest${route}`, {
		headers: { cookie },
		timeoutMs: 60000,
	});
	return {
		status: res.status,
		data: res.status === 200 ? JSON.parse(res.body).data : undefined,
		body: res.body.slice(0, 300),
	};
}

/** The highest execution id among the latest ones (every earlier round has finished). */
async function lastExecutionId(): Promise<number> {
	const { data } = await restGet('/executions?limit=100');
	return Math.max(0, ...((data?.results ?? []) as Json[]).map((e) => Number(e.id)));
}

const FINAL = ['success', 'error', 'crashed', 'canceled'];
/** Executions read in a final state: they no longer change, and are not read again. */
const finished = new Map<number, ExecutionRecord & { workflowId: string }>();

/**
 * The executions of `workflowId` with ids above `afterId`, each read through the REST API (SQLite
 * numbers them from 1 up; the list pages by start time, which can skip some), up to five missing
 * ids in a row. With `finalCount`, reads again until that many of them are final.
 */
async function executionsAfter(
	workflowId: string,
	afterId: number,
	finalCount = 0,
): Promise<ExecutionRecord[]> {
	const seen = new Map<number, ExecutionRecord & { workflowId: string }>();
	const until = Date.now() + 10 * 60 * 1000;
	for (;;) {
		for (let id = afterId + 1, misses = 0; misses < 5; id++) {
			const known = finished.get(id);
			if (known) seen.set(id, known);
			if (FINAL.includes(seen.get(id)?.status ?? '')) continue;
			const res = await restGet(`/executions/${id}`);
			const record = res.data?.id
				? res.data
				: /unavailable/.test(res.body)
					? { workflowId, status: 'noData' }
					: undefined;
			misses = record ? 0 : misses + 1;
			if (!record) continue;
			const data =
				typeof record.data === 'string' ? rt.parseRunData(paths, record.data) : undefined;
			const read = {
				id,
				workflowId: String(record.workflowId),
				status: String(record.status),
				data,
			};
			seen.set(id, read);
			if (FINAL.includes(read.status)) finished.set(id, read);
		}
		const mine = [...seen.values()].filter((e) => e.workflowId === workflowId);
		const final = mine.filter((e) => FINAL.includes(e.status)).length;
		if (final >= finalCount) return mine;
		if (Date.now() > until)
			throw new Error(
				`${final} of ${finalCount} executions of ${workflowId} after ${afterId} are final after 10 minutes`,
			);
		await delay(2000);
	}
}

beforeAll(
	async () => {
		fs.rmSync(ARTIFACTS, { recursive: true, force: true });
		fs.mkdirSync(ARTIFACTS, { recursive: true });
		paths = await rt.ensureRuntime();
		sb = await startSandbox({ latencyMs: 20 });
		userFolder = rt.createUserFolder(ARTIFACTS, 'n8n-user-');
		await rt.installPackage(userFolder, await rt.packPackage(path.join(ARTIFACTS, 'pack')));
		await rt.importCredentials(paths, userFolder, [
			{
				...rt.SANDBOX_CREDENTIAL,
				data: { baseUrl: sb.baseUrl, apiKey: sb.apiKey, memberApiVersion: 'any' },
			},
		]);
		const files = ROUNDS.map((round) => {
			sb.addCampaign(round.name);
			const file = path.join(ARTIFACTS, `${round.id}.json`);
			const workflow = dedupWorkflow(
				round.name.toLowerCase(),
				round.name,
				round.webhookId,
				round.options,
			);
			fs.writeFileSync(file, JSON.stringify({ ...workflow, id: round.id, active: false }));
			return file;
		});
		await rt.importWorkflows(paths, userFolder, files);
		// The kill runs come first, with no limit on executions at once (n8n's default: every event
		// received runs at once); the last one's restart sets the limit of the rounds after it.
		// The workflows are published once, through the first n8n's REST API (one CLI boot each
		// took about 5 s); n8n registers them again at every start.
		await start(
			undefined,
			ROUNDS.map((round) => round.id),
		);
	},
	30 * 60 * 1000,
);

afterAll(async () => {
	await n8n?.stop();
	await sb?.close();
	fs.writeFileSync(
		path.join(ROOT, 'test-artifacts', 'dedup-single.json'),
		`${JSON.stringify(figures, null, 2)}\n`,
	);
	if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
});

/** POSTs the bodies, then waits until the sandbox has seen no new message for a while. */
async function deliver(round: (typeof ROUNDS)[number], bodies: unknown[]) {
	const fired = await fire(`${n8n?.url}/webhook/${round.name.toLowerCase()}`, bodies, {
		concurrency: IN_FLIGHT,
	});
	expect(fired.errors).toEqual([]);
	expect(fired.statuses.filter((s) => s !== 200)).toEqual([]);
	// The webhook answers on receipt: the executions finish after it.
	let last = -1;
	while (last !== sb.requests.length || sb.inFlight > 0) {
		last = sb.requests.length;
		await delay(2000);
	}
}

describe('Deduplication Key in one n8n process (regular mode)', () => {
	test.each(KILL_RUNS)(
		`n8n (no limit on executions at once) SIGKILLed while sending ${KILL_EVENTS} events (run $run: once $at sends $when), started again, all delivered again: each sent once or answered "delivery unknown", none twice`,
		async ({ run, when, at }) => {
			const round = ROUNDS[1 + run];
			await withLimit(undefined);
			sb.configure({ latencyMs: KILL_LATENCY_MS });
			const bodies = events(`single-kill-${run}`, KILL_EVENTS);
			const firstId = await lastExecutionId();
			const received = sb.requests.length;
			const progress = () =>
				when === 'received' ? sb.requests.length - received : tally(sb, round.name, bodies).sent;
			const fired = fire(`${n8n?.url}/webhook/${round.name.toLowerCase()}`, bodies, {
				concurrency: IN_FLIGHT,
				timeoutMs: 20000,
			});
			const until = Date.now() + 5 * 60 * 1000;
			while (progress() < at && Date.now() < until) await delay(10);
			killTree((n8n as unknown as { process: { pid: number } }).process.pid);
			const answered = (await fired).statuses.filter((s) => s === 200).length;
			// The sandbox still takes the sends that were under way (its latency comes first).
			await delay(2 * KILL_LATENCY_MS);
			const sentBeforeRestart = tally(sb, round.name, bodies).sent;
			// After the last kill, n8n starts with the limit of the rounds that follow (one start less).
			await start(run === KILL_RUNS.length ? IN_FLIGHT : undefined);
			const killed = await executionsAfter(round.id, firstId);
			const redeliveredAfter = Math.max(firstId, ...killed.map((e) => e.id));
			// The caller got no answer for some events, or cannot tell: it delivers all of them again,
			// the service answering at its usual pace (the killed sends are over).
			sb.configure({ latencyMs: 20 });
			await deliver(round, bodies);
			await executionsAfter(round.id, redeliveredAfter, bodies.length);
			const all = await executionsAfter(round.id, firstId);
			const { problems, figures: outcome } = killRoundVerdict(
				sb,
				round.name,
				bodies,
				all,
				redeliveredAfter,
			);
			const statuses: Record<string, number> = {};
			for (const e of all.filter((x) => x.id <= redeliveredAfter))
				statuses[e.status] = (statuses[e.status] ?? 0) + 1;
			figures[`processKill${run}`] = {
				killedOnce: `${at} sends ${when}`,
				answeredBeforeKill: answered,
				sentBeforeRestart,
				killedRunExecutions: statuses,
				...outcome,
			};
			expectPromiseKept(problems, path.join(ARTIFACTS, `kill-${run}-problems.json`));
		},
	);

	test(`redelivery: ${ROUND_EVENTS} events, then the same again: exactly ${ROUND_EVENTS} messages`, async () => {
		await withLimit(IN_FLIGHT);
		sb.configure({ latencyMs: 20 });
		const round = ROUNDS[0];
		const bodies = events('single-redeliver');
		await deliver(round, bodies);
		await deliver(round, bodies);
		const result = tally(sb, round.name, bodies);
		figures.redelivery = roundFigures(bodies.length, bodies.length * 2, result);
		expect({ sent: result.sent, missing: result.missing, doubled: result.doubled }).toEqual({
			sent: ROUND_EVENTS,
			missing: [],
			doubled: [],
		});
	});

	test(`concurrent copies: ${ROUND_EVENTS} events each delivered twice at once`, async () => {
		await withLimit(IN_FLIGHT);
		sb.configure({ latencyMs: 20 });
		const round = ROUNDS[1];
		const bodies = events('single-copy');
		await deliver(round, pairs(bodies));
		const result = tally(sb, round.name, bodies);
		figures.concurrentCopies = roundFigures(bodies.length, bodies.length * 2, result);
		expect(result.missing).toEqual([]);
		expect(result.doubled).toEqual([]);
	});
});
