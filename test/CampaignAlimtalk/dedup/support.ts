/**
 * Runs workflows with the send's Deduplication Key through the in-process engine, with the
 * faithful deduplication store of dedup-store.ts. A "process" is a separate copy of the
 * package's modules (as in a second n8n worker): copies share the store and nothing else.
 */
import type { IDataObject, INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import {
	NODE_NAME,
	PACKAGE_NAME,
	sourceOf,
	runWorkflow,
	type RunResult,
} from '../../support/engine';
import { path, ROOT } from '../../support/node';
import { installStore, type ProcessedDataStore } from '../../support/dedup-store';
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
export const WF = 'test-workflow';

/** The Deduplication Key of the behaviour suites: each item's order id. */
export const KEY = { deduplicationKey: '={{ $json.orderId }}' };

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
export async function inFlight<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
	const results: T[] = new Array(tasks.length);
	let next = 0;
	const worker = async () => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await tasks[index]();
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
	return results;
}

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
