/**
 * One execution of a schedule's workflow in one process of the deduplication simulation
 * (sim-run.ts): Source, then one or two keyed sends, run by n8n's engine; what it gave, as it
 * ended (`Outcome`).
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { runWorkflow, sourceOf } from '../../support/engine';
import { ALIMTALK_TYPE, phone } from './support';
import type { Process, World } from './sim-world';
import { trueNow } from './sim-clock';
import type { ExecutionSpec, Schedule } from './sim-schedule';
import { NODES } from './sim-schedule';

export interface Outcome {
	id: number;
	spec?: ExecutionSpec;
	proc: Process;
	/** How many items it was given. */
	inputs: number;
	/** The execution's process crashed before it ended: its outputs are lost. */
	crashed: boolean;
	done: boolean;
	/** Its Stop came before it ended. */
	stopped: boolean;
	error?: string;
	/** The node whose error ended the execution, and the node the error names. */
	errorNode?: string;
	errorNamed?: string;
	/** Per node name: its Success and Failed items. */
	items: Record<string, { ok: IDataObject[]; failed: IDataObject[] }>;
	startedAt: number;
	endedAt?: number;
	/** Settles once it is done (never when its process crashed first). */
	ended: Promise<void>;
}

/** A field of the execution's item: in a chain, the second node reads it from Source (its own input is the first's output). */
const field = (s: Schedule, name: string) =>
	`={{ ${s.chain ? "$('Source').item.json" : '$json'}.${name} }}`;

function optionsOf(s: Schedule): IDataObject {
	return {
		deduplicationKey: field(s, 'orderId'),
		retryDelayMs: 200,
		maxRetries: s.maxRetries,
		timeoutMs: s.timeoutMs,
		retryUnknownDelivery: s.retryUnknown,
		concurrency: s.concurrency,
		...(s.historySize === undefined ? {} : { deduplicationHistorySize: s.historySize }),
		...(s.limit === undefined ? {} : { sendLimit: s.limit, sendLimitPeriod: s.period }),
	};
}

function nodesOf(s: Schedule): INode[] {
	return NODES.slice(0, s.nodes).map(
		(n, i): INode => ({
			id: n.id,
			name: n.name,
			type: ALIMTALK_TYPE,
			typeVersion: 1,
			position: [200, i * 200],
			parameters: {
				operation: 'send',
				campaignKey: n.campaign,
				phoneNumber: field(s, 'phone'),
				properties: { property: [{ key: 'name', value: field(s, 'name') }] },
				options: optionsOf(s) as INode['parameters'],
			},
			credentials: { campaignApi: { id: '1', name: 'Campaign API' } },
		}),
	);
}

/** Source feeds every keyed node; in a chain, Source feeds the first and each the next from its Success. */
function connectionsOf(s: Schedule, nodes: INode[]) {
	const to = (n: INode) => ({ node: n.name, type: 'main' as const, index: 0 });
	if (!s.chain) return { Source: { main: [nodes.map(to)] } };
	return Object.fromEntries(
		nodes.map((n, i) => [i === 0 ? 'Source' : nodes[i - 1].name, { main: [[to(n)]] }]),
	);
}

export const orderItem = (n: number) => ({
	orderId: `order-${n}`,
	phone: phone(n),
	name: `Kim ${n}`,
});

/** The order whose phone number this is (phone() of support.ts, backwards). */
export const orderOfPhone = (number: string) => Number(number.slice(4)) - 10000000;

let executions = 0;

/** Starts one execution of the schedule's workflow in `proc`; `outcome` fills in as it ends. */
export function execute(
	world: World,
	s: Schedule,
	proc: Process,
	orders: number[],
	stop?: Promise<unknown>,
	spec?: ExecutionSpec,
): Outcome {
	const id = executions++;
	let ended = () => {};
	const outcome: Outcome = {
		id,
		spec,
		proc,
		inputs: orders.length,
		crashed: false,
		done: false,
		stopped: false,
		items: {},
		startedAt: trueNow(),
		ended: new Promise<void>((resolve) => (ended = resolve)),
	};
	void stop?.then(() => (outcome.stopped = !outcome.done));
	const nodes = nodesOf(s);
	const json = (items: INodeExecutionData[] | undefined) => (items ?? []).map((i) => i.json);
	const end = () => {
		outcome.done = true;
		outcome.endedAt = trueNow();
		ended();
	};
	void world
		.as(proc, id, async () => {
			return await runWorkflow({
				nodes: [sourceOf(orders.map(orderItem)), ...nodes],
				connections: connectionsOf(s, nodes),
				credentials: { campaignApi: { baseUrl: 'http://127.0.0.1:9', apiKey: 'sim-key' } },
				extraTypes: { [ALIMTALK_TYPE]: proc.type },
				timezone: s.zone,
				stop,
			});
		})
		.then(
			(run) => {
				if (proc.dead) return;
				outcome.error = run.error?.message;
				// The node that failed: the one the engine ran last (the error's own `node` may name
				// another node whose store round it shared).
				if (run.error) outcome.errorNode = run.run.data.resultData.lastNodeExecuted;
				outcome.errorNamed = (run.error as { node?: { name?: string } } | undefined)?.node?.name;
				for (const n of nodes) {
					const out = run.outputs(n.name);
					if (out.length > 0) outcome.items[n.name] = { ok: json(out[0]), failed: json(out[1]) };
				}
				end();
			},
			(error: unknown) => {
				if (proc.dead) return;
				outcome.error = String(error);
				end();
			},
		);
	return outcome;
}
