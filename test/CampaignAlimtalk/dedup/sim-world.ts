/**
 * The world of the deduplication simulation (sim-suite.ts): processes, a store and a
 * messaging service, all on jest's fake clock and driven by one seeded chance, so that a seed
 * replays a schedule exactly.
 *
 * - A process is its own copy of the package's modules (as another n8n worker is) with its own
 *   wall clock (every Date a process reads goes through sim-clock.ts). It reaches the store and
 *   the service through the n8n helpers of its executions, which this file wraps: that is where
 *   its faults happen (sim-store.ts). A crashed process reaches nothing any more; what it had sent
 *   to the database still lands, its answers never come back. A stalled one is frozen for a while.
 * - The service records every message it accepts and every answer it gives (the truth the
 *   invariants are checked against). A request can be refused (7002, nothing sent), accepted with
 *   its connection dropped before the answer, accepted and answered 7999 (internal error), or
 *   accepted and never answered.
 * - The faults begin once the service accepted a first message: every schedule sends something.
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
import { storedKey } from '../../../nodes/CampaignAlimtalk/key/key-options';
import { delay } from '../../support/node';
import { mulberry32 } from '../../../sandbox/faults';
import { running, trueNow, unstalled } from './sim-clock';
import { processCopy } from './sim-copies';
import { SimStore } from './sim-store';
import type { FaultRates } from './sim-draws';
import { draw } from './sim-timing';

export interface Process {
	name: string;
	/** Milliseconds this process's wall clock is ahead of the others' (negative: behind). */
	skewMs: number;
	dead: boolean;
	/** Until when (true time) it is frozen: no call, no answer, no timer. */
	stallUntil: number;
	/** The node type this process runs (its own module copy, with the wrapped helpers). */
	type: INodeType;
}

/** What the service did with one request. */
export type ServiceFault = 'ok' | 'refused' | 'droppedAfter' | 'error7999' | 'noAnswer';

export interface SentMessage {
	message: string;
	at: number;
	process: string;
	/** The execution that sent it (its retries of one request are one execution's). */
	execution: number;
	/** When that execution first asked the service for it. */
	firstTry: number;
	/** The period start of the slots the round of its claim asked about (a Send Limit), on that process's clock. */
	periodStart?: number;
	/** When its claim was written (true time): the record call of that process that found it new. */
	claimAt?: number;
}

/** One answer of the service: `delivered` when the process was alive to hear it. */
export interface ServiceAnswer {
	message: string;
	execution: number;
	fault: ServiceFault;
	delivered: boolean;
}

export class World {
	readonly sim: SimStore;

	readonly sent: SentMessage[] = [];

	/** Every request that reached the service, by message (campaign|phone), whatever came of it. */
	readonly requested = new Map<string, number>();

	readonly answers: ServiceAnswer[] = [];

	readonly processes: Process[] = [];

	readonly chance: () => number;

	/** Per node name: the Send Limit places that record calls wrote, found new, and then failed after landing. */
	readonly lostPlaces = new Map<string, number>();

	private readonly firstTry = new Map<string, number>();

	/** Whether the faults begin with the first message accepted (false once the schedule is over). */
	faultsLater = true;

	constructor(
		readonly seed: number,
		readonly workflowId: string,
		readonly rates: FaultRates,
		/** Campaign -> the id of its node (its row of keys). */
		private readonly nodeOf: (campaign: string) => string,
		/** Phone number -> the order whose key it is. */
		private readonly orderOf: (phone: string) => number,
	) {
		this.chance = mulberry32(seed);
		this.sim = new SimStore(workflowId, rates, this.chance);
	}

	get store() {
		return this.sim.store;
	}

	between(min: number, max: number): number {
		return min + Math.floor(this.chance() * (max - min + 1));
	}

	/** A new process: its own module copy of the package, its own clock. */
	process(name: string, skewMs = 0): Process {
		const copy = processCopy();
		const proc: Process = { name, skewMs, dead: false, stallUntil: 0, type: copy };
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

	/** Runs `work` as execution number `execution` of `proc` (on its clock), once it is not stalled. */
	async as<T>(proc: Process, execution: number, work: () => Promise<T>): Promise<T> {
		await unstalled(proc);
		return await running.run({ proc, execution }, work);
	}

	messageOf(campaignKey: string, phoneNumber: string): string {
		return `${campaignKey}|${phoneNumber}`;
	}

	private rowOf(campaign: string): string {
		return `${this.workflowId}\u0000n:${this.nodeOf(campaign)}`;
	}

	/** The engine's context of one execution, with the store and the service of this world. */
	private contextOf(ctx: IExecuteFunctions, proc: Process): IExecuteFunctions {
		const data = () =>
			({
				workflow: { id: this.workflowId },
				node: ctx.getNode() as INode,
			}) as unknown as ICheckProcessedContextData;
		const { sim, store } = this;
		const name = (verb: string, scope: DeduplicationScope, items?: string[]) =>
			`${verb} ${scope}${items ? ` ${JSON.stringify(items)}` : ''}`;
		// The sends keep their keys with scope "This Node": the workflow's row is the lock.
		const row = (scope: DeduplicationScope) => (scope === 'node' ? 'keys' : 'lock');
		const helpers = {
			checkProcessedAndRecord: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) => {
				const keys = `${this.workflowId}\u0000n:${ctx.getNode().id}`;
				if (scope === 'node') sim.notePeriods(proc, keys, items);
				const result = await sim.call(
					proc,
					'record',
					row(scope),
					items,
					name('record', scope, items),
					async () => {
						const result = await store.checkProcessedAndRecord(items, scope, data(), o);
						if (scope === 'node') sim.noteWritten(proc, keys, result.new);
						return result;
					},
					(landed) => this.noteLost(ctx.getNode().name, landed.new.map(String)),
				);
				if (scope === 'node') sim.noteFound(proc, keys, result.processed);
				return result;
			},
			removeProcessed: async (
				items: string[],
				scope: DeduplicationScope,
				o: ICheckProcessedOptions,
			) =>
				await sim.call(
					proc,
					'remove',
					row(scope),
					items,
					name('remove', scope, items),
					async () => {
						await store.removeProcessed(items, scope, data(), o);
					},
				),
			clearAllProcessedItems: async (scope: DeduplicationScope) =>
				await sim.call(proc, 'clear', row(scope), [], name('clear', scope), async () => {
					await store.clearAllProcessedItems(scope, data());
				}),
			getProcessedDataCount: async (scope: DeduplicationScope, o: ICheckProcessedOptions) =>
				await sim.call(
					proc,
					'count',
					row(scope),
					[],
					name('count', scope),
					async () => await store.getProcessedDataCount(scope, data(), o),
				),
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
				await this.request(proc, options),
		};
		const real = ctx.helpers as unknown as Record<string, unknown>;
		const wrapped = new Proxy(real, {
			get: (target, key) =>
				key in helpers ? helpers[key as keyof typeof helpers] : Reflect.get(target, key),
		});
		return new Proxy(ctx, {
			get: (target, key) => {
				if (key === 'helpers') return wrapped;
				const value = Reflect.get(target, key, target) as unknown;
				return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
			},
		});
	}

	private noteLost(node: string, found: string[]): void {
		const places = found.filter((value) => value.startsWith('limit:')).length;
		this.lostPlaces.set(node, (this.lostPlaces.get(node) ?? 0) + places);
	}

	private draw(): ServiceFault {
		const { service, serviceKinds } = this.rates;
		if (!this.sim.faulty || serviceKinds.length === 0 || this.chance() >= service) return 'ok';
		return serviceKinds[Math.floor(this.chance() * serviceKinds.length)];
	}

	private async request(proc: Process, options: IHttpRequestOptions): Promise<IDataObject> {
		if (proc.dead) return await new Promise<never>(() => undefined);
		await unstalled(proc);
		const body = JSON.parse(String(options.body)) as {
			campaignKey: string;
			users: Array<{ phoneNumber: string }>;
		};
		const { campaignKey } = body;
		const phoneNumber = body.users[0].phoneNumber;
		const message = this.messageOf(campaignKey, phoneNumber);
		const execution = running.getStore()?.execution ?? -1;
		this.requested.set(message, (this.requested.get(message) ?? 0) + 1);
		const tried = `${execution}|${message}`;
		if (!this.firstTry.has(tried)) this.firstTry.set(tried, trueNow());
		const fault = this.draw();
		const { serviceMs } = this.rates;
		await delay(serviceMs ? draw(serviceMs, this.chance()) : this.between(5, 60));
		const answer: ServiceAnswer = { message, execution, fault, delivered: false };
		this.answers.push(answer);
		if (fault === 'refused') return await this.answer(proc, answer, 7002, 400);
		const claim = `claim:${storedKey(`order-${this.orderOf(phoneNumber)}`)}`;
		this.sent.push({
			message,
			at: trueNow(),
			process: proc.name,
			execution,
			firstTry: this.firstTry.get(tried) as number,
			periodStart: this.sim.claimPeriods.get(`${proc.name}|${this.rowOf(campaignKey)}|${claim}`),
			claimAt: this.sim.claimsWritten.get(`${proc.name}|${this.rowOf(campaignKey)}|${claim}`),
		});
		// The faults begin once a first message was accepted: every schedule sends something.
		if (this.sent.length === 1 && this.faultsLater) this.sim.faulty = true;
		if (fault === 'noAnswer') return await new Promise<never>(() => undefined);
		if (fault === 'droppedAfter') {
			await delay(1);
			if (!proc.dead) await unstalled(proc);
			throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		}
		return await this.answer(
			proc,
			answer,
			fault === 'error7999' ? 7999 : 0,
			fault === 'ok' ? 200 : 500,
		);
	}

	private async answer(
		proc: Process,
		answer: ServiceAnswer,
		code: number,
		status: number,
	): Promise<IDataObject> {
		if (proc.dead) return await new Promise<never>(() => undefined);
		await unstalled(proc);
		if (proc.dead) return await new Promise<never>(() => undefined);
		answer.delivered = true;
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
