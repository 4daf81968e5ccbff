/**
 * The world of the deduplication simulation (sim-suite.ts): processes, a store and a
 * messaging service, all on jest's fake clock and driven by one seeded chance, so that a seed
 * replays a schedule exactly.
 *
 * - A process is its own copy of the package's modules (as another n8n worker is) with its own
 *   wall clock (off by up to SKEW_MS from the others: every Date a process reads goes through
 *   sim-clock.ts). It reaches the store and the service through the n8n helpers of its executions,
 *   which this file wraps: that is where its faults happen. A crashed process reaches nothing
 *   any more; what it had sent to the database still lands, its answers never come back.
 * - The store is the faithful stand-in of n8n 2.41.1's deduplication store (dedup-store.ts). A
 *   call can fail before it reaches the database, fail after it landed, hang, or be slowed
 *   between its read and its whole-row write.
 * - The service records every message it accepts (the truth the invariants are checked against).
 *   A request can be refused (7002, nothing sent), accepted with its connection dropped before
 *   the answer, accepted and answered 7999 (internal error), or accepted and never answered.
 *
 * The node is driven only through its public boundary: n8n's engine runs the workflow (support
 * engine.ts), the node's own execute runs with the engine's context, and only the four
 * deduplication helpers and the HTTP helper are replaced.
 */
import type {
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeType,
} from 'n8n-workflow';
import { ProcessedDataStore } from '../../support/dedup-store';
import { AsyncLocalStorage, delay, env } from '../../support/node';
import { running, trueNow } from './sim-clock';
import { processCopy } from './sim-copies';
import { mulberry32 } from '../../../sandbox/faults';

/** How far the wall clocks of two processes may disagree (each is off by up to half of it). */
export const SKEW_MS = 40000;

export type Chance = () => number;

export interface Process {
	name: string;
	/** Milliseconds this process's wall clock is ahead of the others' (negative: behind). */
	skewMs: number;
	dead: boolean;
	/** The node type this process runs (its own module copy, with the wrapped helpers). */
	type: INodeType;
	/** Its module copy of the node. */
	copy: INodeType;
}

/** What the service did with one request. */
export type ServiceFault = 'ok' | 'refused' | 'droppedAfter' | 'error7999' | 'noAnswer';
/** What happened to one store call. */
/**
 * What happened to one store call: `slow` writes its whole row late (after reading it on time),
 * `lateAnswer` ran on time but its answer comes late (its caller acts on an old count).
 */
export type StoreFault = 'ok' | 'failBefore' | 'failAfter' | 'hang' | 'slow' | 'lateAnswer';

export interface FaultRates {
	/** Chance that a store call is not `ok`; the kind is then drawn evenly. */
	store: number;
	storeKinds: StoreFault[];
	/** Chance that a request is not `ok`; the kind is then drawn evenly. */
	service: number;
	serviceKinds: ServiceFault[];
}

export interface SentMessage {
	campaignKey: string;
	phoneNumber: string;
	at: number;
	process: string;
	/** The execution that sent it (its retries of one request are one execution's). */
	execution: number;
}

const slowCall = new AsyncLocalStorage<number>();
const never = <T>() => new Promise<T>(() => undefined);

export class World {
	readonly store = new ProcessedDataStore();

	readonly sent: SentMessage[] = [];

	/** Every request that reached the service, by message (campaign|phone), whatever came of it. */
	readonly requested = new Map<string, number>();

	readonly processes: Process[] = [];

	readonly chance: Chance;

	/** What the service did with each request, by message, in order. */
	readonly history = new Map<string, ServiceFault[]>();

	/** How many store calls met each fault. */
	readonly storeFaults = new Map<StoreFault, number>();

	/**
	 * Per node name: the Send Limit places (slot values) that record calls wrote, found new, and
	 * then failed ('failAfter'): their answer never reaches the node, so it cannot take them back
	 * (docs/deduplication.md, "Send limit": such places stay taken until the period ends).
	 */
	readonly lostPlaces = new Map<string, number>();

	/**
	 * Every store call and its answer, by true time, when SIM_TRACE names a file to write it to
	 * (sim-suite.ts): what a failing seed did, call by call.
	 */
	readonly trace: string[] | undefined = env.SIM_TRACE ? [] : undefined;

	/** Set to false to heal every fault (the check after a schedule). */
	faulty = true;

	constructor(
		readonly seed: number,
		readonly workflowId: string,
		readonly rates: FaultRates,
	) {
		this.chance = mulberry32(seed);
		this.store.latency = { min: 1, max: 3 };
		this.store.beforeWrite = async () => {
			const ms = slowCall.getStore();
			if (ms !== undefined) await delay(ms);
		};
	}

	pick<T>(values: readonly T[]): T {
		return values[Math.floor(this.chance() * values.length)];
	}

	between(min: number, max: number): number {
		return min + Math.floor(this.chance() * (max - min + 1));
	}

	/** A new process: its own module copy of the package, its own clock. */
	process(name: string, skewMs = 0): Process {
		const copy = processCopy();
		const proc: Process = { name, skewMs, dead: false, type: copy, copy };
		const contextOf = (ctx: IExecuteFunctions) => this.contextOf(ctx, proc);
		proc.type = {
			description: copy.description,
			async execute(this: IExecuteFunctions) {
				return await (copy.execute as (this: IExecuteFunctions) => Promise<never>).call(
					contextOf(this),
				);
			},
		};
		this.processes.push(proc);
		return proc;
	}

	/** Runs `work` as execution number `execution` of `proc` (on its clock). */
	async as<T>(proc: Process, execution: number, work: () => Promise<T>): Promise<T> {
		return await running.run({ proc, execution }, work);
	}

	messageOf(campaignKey: string, phoneNumber: string): string {
		return `${campaignKey}|${phoneNumber}`;
	}

	sentCount(message: string): number {
		return this.sent.filter((m) => this.messageOf(m.campaignKey, m.phoneNumber) === message).length;
	}

	private draw<T extends string>(rate: number, kinds: T[], ok: T): T {
		if (!this.faulty || kinds.length === 0 || this.chance() >= rate) return ok;
		return this.pick(kinds);
	}

	/** The engine's context of one execution, with the store and the service of this world. */
	private contextOf(ctx: IExecuteFunctions, proc: Process): IExecuteFunctions {
		const data = () =>
			({
				workflow: { id: this.workflowId },
				node: ctx.getNode() as INode,
			}) as unknown as ICheckProcessedContextData;
		const store = this.store;
		const call = async <T>(what: string, work: () => Promise<T>) =>
			await this.storeCall(proc, what, work);
		const helpers = {
			checkProcessedAndRecord: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) =>
				await this.storeCall(
					proc,
					`record ${scope} ${JSON.stringify(items)}`,
					async () => await store.checkProcessedAndRecord(items, scope, data(), o),
					(result) => this.noteLost(ctx.getNode().name, result.new.map(String)),
				),
			removeProcessed: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) =>
				await call(
					`remove ${scope} ${JSON.stringify(items)}`,
					async () => await store.removeProcessed(items, scope, data(), o),
				),
			clearAllProcessedItems: async (scope: DeduplicationScope) =>
				await call(`clear ${scope}`, async () => await store.clearAllProcessedItems(scope, data())),
			getProcessedDataCount: async (scope: DeduplicationScope, o: ICheckProcessedOptions) =>
				await call(
					`count ${scope}`,
					async () => await store.getProcessedDataCount(scope, data(), o),
				),
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
				await this.request(proc, options),
		};
		const real = ctx.helpers as unknown as Record<string, unknown>;
		const wrapped = new Proxy(real, {
			get: (target, name) =>
				name in helpers ? helpers[name as keyof typeof helpers] : Reflect.get(target, name),
		});
		return new Proxy(ctx, {
			get: (target, name) => {
				if (name === 'helpers') return wrapped;
				const value = Reflect.get(target, name, target) as unknown;
				return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
			},
		});
	}

	private noteLost(node: string, found: string[]): void {
		const places = found.filter((value) => value.startsWith('limit:')).length;
		this.lostPlaces.set(node, (this.lostPlaces.get(node) ?? 0) + places);
	}

	/**
	 * One store call (`what` names it in the trace); `landed`: told what a call that wrote and then
	 * failed found (its answer lost).
	 */
	private async storeCall<T>(
		proc: Process,
		what: string,
		work: () => Promise<T>,
		landed?: (value: T) => void,
	): Promise<T> {
		if (proc.dead) return await never<T>();
		const fault = this.draw<StoreFault>(this.rates.store, this.rates.storeKinds, 'ok');
		if (!this.trace) return await this.faulted(proc, fault, work, landed);
		const n = this.trace.length;
		const note = (end: unknown) =>
			this.trace?.push(`${trueNow()} ${proc.name} #${n} -> ${JSON.stringify(end)}`);
		this.trace.push(`${trueNow()} ${proc.name} #${n} ${fault} ${what}`);
		const outcome = this.faulted(proc, fault, work, landed);
		outcome.then(note, (error: unknown) => note(String(error)));
		return await outcome;
	}

	private async faulted<T>(
		proc: Process,
		fault: StoreFault,
		work: () => Promise<T>,
		landed?: (value: T) => void,
	): Promise<T> {
		this.storeFaults.set(fault, (this.storeFaults.get(fault) ?? 0) + 1);
		let value: T;
		if (fault === 'failBefore') {
			await delay(1);
			throw new Error('Connection terminated unexpectedly');
		} else if (fault === 'hang') {
			return await never<T>();
		} else if (fault === 'slow') {
			// Read now, write the whole row later: stalling the caller, or past its bound on one call.
			value = await slowCall.run(this.between(2000, 20000), work);
		} else {
			value = await work();
		}
		if (fault === 'lateAnswer') await delay(this.between(200, 9000));
		if (fault === 'failAfter') {
			landed?.(value);
			await delay(1);
			throw new Error('Connection terminated unexpectedly');
		}
		if (proc.dead) return await never<T>();
		return value;
	}

	private async request(proc: Process, options: IHttpRequestOptions): Promise<IDataObject> {
		if (proc.dead) return await never<IDataObject>();
		const body = JSON.parse(String(options.body)) as {
			campaignKey: string;
			users: Array<{ phoneNumber: string }>;
		};
		const message = this.messageOf(body.campaignKey, body.users[0].phoneNumber);
		this.requested.set(message, (this.requested.get(message) ?? 0) + 1);
		const fault = this.draw<ServiceFault>(this.rates.service, this.rates.serviceKinds, 'ok');
		this.history.set(message, [...(this.history.get(message) ?? []), fault]);
		await delay(this.between(5, 60));
		if (fault === 'refused') return await this.answer(proc, 7002, 400);
		this.sent.push({
			campaignKey: body.campaignKey,
			phoneNumber: body.users[0].phoneNumber,
			at: trueNow(),
			process: proc.name,
			execution: running.getStore()?.execution ?? -1,
		});
		if (fault === 'noAnswer') return await never<IDataObject>();
		if (fault === 'droppedAfter') {
			await delay(1);
			throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		}
		return await this.answer(proc, fault === 'error7999' ? 7999 : 0, fault === 'ok' ? 200 : 500);
	}

	private async answer(proc: Process, code: number, status: number): Promise<IDataObject> {
		if (proc.dead) return await never<IDataObject>();
		const envelope = {
			httpStatus: { code: status, reasonPhrase: status === 200 ? 'OK' : 'Error' },
			processCode: code,
			processValue: code === 0 ? null : 'refused or failed',
		};
		return {
			statusCode: status,
			headers: { 'content-type': 'application/json' },
			body: Buffer.from(JSON.stringify(envelope), 'utf8'),
		};
	}
}
