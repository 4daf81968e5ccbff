/**
 * Runs workflows with the send's Deduplication Key through the in-process engine, with the
 * faithful deduplication store of dedup-store.ts. A "process" is a separate copy of the
 * package's modules (as in a second n8n worker): copies share the store and nothing else.
 */
import type {
	DeduplicationScope,
	ICheckProcessedOptions,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import {
	NODE_NAME,
	PACKAGE_NAME,
	nodeOf,
	sourceOf,
	runWorkflow,
	type RunResult,
} from '../../support/engine';
import { delay, path, ROOT } from '../../support/node';
import { installStore, ProcessedDataStore } from '../../support/dedup-store';
import { runOrdered } from '../../../nodes/CampaignAlimtalk/helpers/pool';
import type { StoreLimit } from '../../../nodes/CampaignAlimtalk/limit/limit';
import type { Answer } from '../../../nodes/CampaignAlimtalk/key/markers';
import type { StoreItem } from '../../../nodes/CampaignAlimtalk/session/round';
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/lock';
import type { Lease } from '../../../nodes/CampaignAlimtalk/store/queue';
import { mulberry32 } from '../../../sandbox/faults';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../sandbox/server';
import { phone } from '../support';

export { phone } from '../support';

export const ALIMTALK_TYPE = `${PACKAGE_NAME}.campaignAlimtalk`;

/** A fresh copy of the Alimtalk node's modules: its own in-process queues, as another process has. */
export function alimtalkCopy(): INodeType {
	let node: INodeType | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const mod = require(
			path.join(ROOT, 'dist/nodes/CampaignAlimtalk/CampaignAlimtalk.node.js'),
		) as {
			CampaignAlimtalk: new () => INodeType;
		};
		node = new mod.CampaignAlimtalk();
	});
	return node as INodeType;
}

/** The workflow id the engine harness runs every workflow under (support/engine.ts). */
export { TEST_WORKFLOW_ID as WF } from '../../support/engine';

/** The Deduplication Key option of the behaviour suites: each item's order id. */
export const KEYED = { deduplicationKey: '={{ $json.orderId }}' };

/** Order event n: its id `order-n` (the key), the campaign WELCOME and a phone of its own. */
export const order = (n: number, extra: IDataObject = {}) => ({
	orderId: `order-${n}`,
	campaign: 'WELCOME',
	phone: phone(n),
	name: `Kim ${n}`,
	...extra,
});

export interface SendSpec {
	input: IDataObject[];
	/** Options of the send (Deduplication Key and the rest). */
	options?: IDataObject;
	credentials: IDataObject;
	/** The node copy to run (default: the package as loaded by the harness). */
	copy?: INodeType;
	/** Further send nodes fed by the same source, by name (each with its own id). */
	more?: Record<string, IDataObject>;
	onError?: INode['onError'];
	/** Stops the execution once it settles (support/engine.ts RunOptions.stop). */
	stop?: Promise<unknown>;
}

export const sendNode = (
	name: string,
	id: string,
	options: IDataObject,
	onError?: INode['onError'],
): INode => ({
	id,
	name,
	type: ALIMTALK_TYPE,
	typeVersion: 1,
	position: [200, 0],
	parameters: {
		operation: 'send',
		campaignKey: '={{$json.campaign}}',
		phoneNumber: '={{$json.phone}}',
		properties: { property: [{ key: 'name', value: '={{$json.name}}' }] },
		options: { retryDelayMs: 0, ...options },
	},
	credentials: { campaignApi: { id: '1', name: 'Campaign API' } },
	onError,
});

/** Source -> Campaign Alimtalk (and any further send nodes on the same source). */
export async function runSend(
	spec: SendSpec,
): Promise<RunResult & { out: INodeExecutionData[][] }> {
	const nodes = [
		sourceOf(spec.input),
		sendNode(NODE_NAME, 'node-under-test', spec.options ?? {}, spec.onError),
	];
	const targets = [{ node: NODE_NAME, type: 'main' as const, index: 0 }];
	for (const [name, options] of Object.entries(spec.more ?? {})) {
		nodes.push(sendNode(name, `node-${name}`, options));
		targets.push({ node: name, type: 'main', index: 0 });
	}
	const result = await runWorkflow({
		nodes,
		connections: { Source: { main: [targets] } },
		credentials: { campaignApi: spec.credentials as never },
		extraTypes: spec.copy ? { [ALIMTALK_TYPE]: spec.copy } : undefined,
		stop: spec.stop,
	});
	return { ...result, out: result.outputs(NODE_NAME) };
}

/** Runs `tasks` with at most `limit` in flight (executions overlapping as on a busy worker). */
export const inFlight = async <T>(limit: number, tasks: Array<() => Promise<T>>) =>
	(await runOrdered(tasks.length, limit, async (i) => await tasks[i]())) as T[];

export const jsonOf = (items: INodeExecutionData[]) => items.map((item) => item.json);

/**
 * A suite's sends on its fixture: `send` runs `input` with `options` (default `key`) and the
 * sandbox's credential (`good`) unless given another; `sentPhones` is what the sandbox sent to,
 * sorted.
 */
export function sendsOf(fx: { sb: Sandbox }, key: IDataObject) {
	const good = () => ({ baseUrl: fx.sb.baseUrl, apiKey: fx.sb.apiKey });
	const send = async (
		input: IDataObject[],
		options: IDataObject = key,
		credentials: IDataObject = good(),
	) => await runSend({ input, options, credentials });
	const sentPhones = () => fx.sb.state.sent.map((m) => m.phoneNumber).sort();
	return { good, send, sentPhones };
}

/**
 * The sandbox and the faithful store for a test file: started once, emptied before each test,
 * with the campaign WELCOME (variable `name`) and no latency or faults.
 */
export function dedupFixture(options: SandboxOptions = {}): {
	sb: Sandbox;
	store: ProcessedDataStore;
} {
	const fixture = {} as { sb: Sandbox; store: ProcessedDataStore };
	beforeAll(async () => {
		fixture.store = await installStore();
		fixture.sb = await startSandbox(options);
	});
	afterAll(async () => await fixture.sb.close());
	beforeEach(() => {
		fixture.store.reset();
		fixture.sb.reset();
		fixture.sb.configure({ latencyMs: 0, faults: undefined, triggerResponse: 'envelope' });
		fixture.sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
	});
	return fixture;
}

/*
 * The lock harness: the deduplication lock's races, replayed exactly. jest's fake clock drives
 * every sleep and every step of the faithful store (one millisecond a step), and chance is a
 * fixed sequence. Each "process" is its own copy of the lock's modules, as two n8n workers have.
 * Every test runs `underLock` as the node does and watches who is inside.
 */
const RACE_WF = 'race-workflow';
const NODE = nodeOf('send-node', 'Send', 'campaignAlimtalk');
export const CONTEXT = { workflow: { id: RACE_WF }, node: NODE } as never;
const LOCK_PATH = '../../../nodes/CampaignAlimtalk/store/queue';
const ROUND_PATH = '../../../nodes/CampaignAlimtalk/session/round';
type QueueModule = typeof import('../../../nodes/CampaignAlimtalk/store/queue');
type RoundModule = typeof import('../../../nodes/CampaignAlimtalk/session/round');

type UnderLock = <T>(
	ctx: IExecuteFunctions,
	scope: DeduplicationScope,
	work: (lease: Lease) => Promise<T>,
) => Promise<T>;

/** Runs `work` alone under the lock of a copy of the queue module, after the work queued before it. */
export function underLockOf(queue: QueueModule): UnderLock {
	type Outcome = { value: unknown } | { error: unknown };
	type Work = (lease: Lease) => Promise<unknown>;
	const each = async (lease: Lease, _row: unknown, works: Work[]): Promise<Outcome[]> => {
		const outcomes: Outcome[] = [];
		for (const one of works)
			outcomes.push(
				await one(lease).then(
					(value) => ({ value }),
					(error: unknown) => ({ error }),
				),
			);
		return outcomes;
	};
	return async (ctx, scope, work) => {
		const outcome = await queue.submit({ ctx, scope, historySize: 0 }, work, each);
		if ('error' in outcome) throw outcome.error;
		return outcome.value as never;
	};
}

/** The state of one test: the store, who is inside the lock, and every overlap seen. */
export const race = {
	store: new ProcessedDataStore(),
	inside: [] as string[],
	overlaps: [] as string[],
	/** Every entry into the lock, in order. */
	entries: [] as string[],
};

/** A copy of the lock's modules, as another process has, with its own store calls (stallable). */
export function processCopy(name: string) {
	let queue: QueueModule | undefined;
	let round: RoundModule | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		queue = require(LOCK_PATH) as QueueModule;
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		round = require(ROUND_PATH) as RoundModule;
	});
	const underLock = underLockOf(queue as QueueModule);
	const copy = { name, stallUntil: 0 };
	const stall = async () => {
		if (Date.now() < copy.stallUntil) await delay(copy.stallUntil - Date.now());
	};
	const mode = (options: ICheckProcessedOptions) => options;
	const ctx = {
		getWorkflow: () => ({ id: RACE_WF }),
		getNode: () => NODE,
		logger: { warn: () => undefined },
		helpers: {
			checkProcessedAndRecord: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) => {
				await stall();
				return await race.store.checkProcessedAndRecord(items, scope, CONTEXT, mode(o));
			},
			removeProcessed: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) => {
				await stall();
				await race.store.removeProcessed(items, scope, CONTEXT, mode(o));
			},
			clearAllProcessedItems: async (scope: DeduplicationScope) => {
				await stall();
				await race.store.clearAllProcessedItems(scope, CONTEXT);
			},
			getProcessedDataCount: async (scope: DeduplicationScope, o: ICheckProcessedOptions) => {
				await stall();
				return await race.store.getProcessedDataCount(scope, CONTEXT, mode(o));
			},
		},
	} as unknown as IExecuteFunctions;
	/** Holds the lock (key scope "node": the lock is the workflow's row) for `ms`, watched. */
	const hold = async (ms: number, during?: () => Promise<void>) =>
		await underLock(ctx, 'node', async () => {
			const { inside, overlaps } = race;
			if (inside.length > 0)
				overlaps.push(`${name} entered while ${inside.join(', ')} held the lock`);
			inside.push(name);
			race.entries.push(name);
			await during?.();
			await delay(ms);
			inside.splice(inside.indexOf(name), 1);
		});
	/** From now on, every database call of this process hangs for `ms`. */
	const stallFor = (ms: number) => {
		copy.stallUntil = Date.now() + ms;
	};
	/** This process's store rounds on the node's row of keys (scope "node", History Size 1,000). */
	const row = { ctx, scope: 'node' as const, historySize: 1000 };
	/** Asks about `key` in this process's next round, as a send does just before its request. */
	const ask = async (
		key: string | undefined,
		longestMs = 60000,
		limit?: StoreLimit,
	): Promise<{ answer: Answer } | { error: unknown; claimMayRemain: boolean }> => {
		const { submit } = queue as QueueModule;
		const { mayRemain, storeRound } = round as RoundModule;
		const item: StoreItem = { ask: { key, longestMs, limit } };
		try {
			return { answer: (await submit(row, item, storeRound)) as Answer };
		} catch (error) {
			return { error, claimMayRemain: mayRemain(item) };
		}
	};
	/** Takes `removals` back in this process's next round, as the end of a send does, and waits for it. */
	const write = async (removals: string[]) => {
		const item: StoreItem = { removals };
		const failed = await (queue as QueueModule)
			.submit(row, item, (round as RoundModule).storeRound)
			.then(
				() => undefined,
				(error: unknown) => ({ error }),
			);
		// A round that failed after its removals were done: written, its owner is not told.
		if (failed && !item.recorded?.written) await Promise.reject(failed.error);
	};
	/** Records `values` and takes `removals` back under the lock, as an earlier version of the node wrote. */
	const writeAsBefore = async (values: string[], removals: string[]) =>
		await underLock(ctx, 'node', async (lease) => {
			if (values.length > 0) await lease.record(row, values, row.historySize);
			if (removals.length > 0) await lease.remove(row, removals);
		});
	return { name, ctx, hold, stallFor, ask, write, writeAsBefore };
}

/**
 * Makes the first `times` remove calls of `copy` on the row of keys fail before they reach the
 * store, as a database error would; after the last of them, `copy` stalls for `stallMs`.
 */
export function failRemoves(copy: ReturnType<typeof processCopy>, times = Infinity, stallMs = 0) {
	const real = copy.ctx.helpers.removeProcessed;
	const fired = { count: 0 };
	Object.assign(copy.ctx.helpers, {
		removeProcessed: async (...args: Parameters<typeof real>) => {
			if (args[1] !== 'node' || fired.count >= times) return await real(...args);
			fired.count++;
			if (fired.count === times && stallMs > 0) copy.stallFor(stallMs);
			throw new Error('Connection terminated unexpectedly');
		},
	});
	return fired;
}

/** The keys row of the race workflow (scope "node" of the race's node). */
export const keysRow = () => race.store.entries(RACE_WF, `n:${NODE.id}`) ?? [];
export const KEYS_ROW_ID = `${RACE_WF}\u0000n:${NODE.id}`;
/** The lock's row of the race workflow (the workflow's shared row), as the store names it. */
export const LOCK_ROW_ID = `${RACE_WF}\u0000`;

/** Advances the fake clock until `work` settles (or `limitMs` of fake time pass). */
export async function settle<T>(
	work: Promise<T>,
	limitMs = 300000,
): Promise<PromiseSettledResult<T>> {
	let outcome: PromiseSettledResult<T> | undefined;
	void work.then(
		(value) => (outcome = { status: 'fulfilled', value }),
		(reason: unknown) => (outcome = { status: 'rejected', reason }),
	);
	const until = Date.now() + limitMs;
	while (!outcome && Date.now() < until) await jest.advanceTimersByTimeAsync(5);
	if (!outcome) throw new Error(`still running after ${limitMs} ms of fake time`);
	return outcome;
}

export const lockRow = () => race.store.entries(RACE_WF, '');

/** Another process's lock create that reads the lock's row now; n8n writes back what it read once `land` settles. */
export function staleCreate(land: Promise<void>): Promise<unknown> {
	race.store.beforeWrite = async () => {
		race.store.beforeWrite = undefined;
		await land;
	};
	const copies = Array.from({ length: 3 }, () => LOCK_ENTRY);
	return race.store.checkProcessedAndRecord(copies, 'workflow', CONTEXT, { mode: 'entries' });
}

/** Installs a fresh race (fake clock, fixed chance, a store of 1 ms steps) around every test. */
export function raceFixture(): void {
	beforeEach(() => {
		jest.useFakeTimers({ now: 1_700_000_000_000 });
		jest.spyOn(Math, 'random').mockImplementation(mulberry32(7)); // chance, as a fixed sequence
		race.store = new ProcessedDataStore();
		race.store.latency = { min: 1, max: 1 };
		race.inside = [];
		race.overlaps = [];
		race.entries = [];
	});
	afterEach(() => {
		jest.useRealTimers();
		jest.restoreAllMocks();
	});
}
