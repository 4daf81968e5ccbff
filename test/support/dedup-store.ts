/**
 * A test provider for n8n-core's DataDeduplicationService that behaves like n8n 2.41.1's own
 * store (the `n8n` package's DeduplicationHelper over the `processed_data` table):
 * - one row per workflow id and context (`n:<node id>` for scope node, empty for workflow)
 *   holding `{ mode, data }`; in mode `entries` data is the md5 (base64) of each value;
 * - every call is separate database steps (find, then insert or update; delete), with no
 *   transaction or lock: calls that overlap read the same row and the last write wins (keys get
 *   lost, two calls both see a key as new). Each step takes time before it reads or writes (the
 *   statement on its way, the pool, the database) and, with a `timing`, after it too (the answer
 *   on its way back, the caller's event loop): a value read early can reach its caller late;
 * - inserting a row that exists fails with the database's unique-constraint error; updating a
 *   row that was deleted meanwhile changes nothing; a value repeated within one call is new
 *   each time; `maxEntries` drops the oldest entries; a row of another mode is an error.
 */
import { createHash } from 'crypto';
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { KEYS_ROW_ENTRY } from '../../nodes/CampaignAlimtalk/key/markers';
import { delay, processWide } from './node';

interface Row {
	mode: string;
	data: DeduplicationItemTypes | DeduplicationItemTypes[];
}

/** The four calls of n8n's store, and the database steps (statements) they are made of. */
export type StoreCallKind = 'record' | 'remove' | 'clear' | 'count';
export type StoreStep = 'find' | 'insert' | 'update' | 'delete';

/** How long one call's database steps wait before their read or write, and after it before the call goes on. */
export interface StepTimes {
	before(step: StoreStep): number;
	after(step: StoreStep): number;
}

/** The step times of each call on row `id`, drawn per call (a call slow in one step is often slow in the next). */
export interface StoreTiming {
	call(kind: StoreCallKind, id: string): StepTimes;
}

const LATEST = ['latestIncrementalKey', 'latestDate'];

export class ProcessedDataStore implements IDataDeduplicator {
	readonly rows = new Map<string, Row>();

	/** Database steps taken (find, insert, update, delete, count). */
	steps = 0;

	/** Per row id, how many times a call wrote it (an insert or an update: the whole row). */
	readonly writes = new Map<string, number>();

	/** Milliseconds one database step takes before it reads or writes (random in [min, max]). */
	latency = { min: 0, max: 2 };

	/** When set, each step's time before and after its read or write instead (`latency` unused). */
	timing: StoreTiming | undefined;

	/**
	 * Awaited between a call's read and its write (insert or update) of row `id`
	 * (`<workflow id>\u0000<context>`): a test slows one call there, so that its write lands late.
	 */
	beforeWrite: ((id: string) => Promise<void>) | undefined;

	/** Resolves once no lock row is left in `workflowId` (a lock round may end after its executions). */
	async lockReleased(workflowId: string, context = ''): Promise<boolean> {
		for (let i = 0; i < 200 && this.rows.has(`${workflowId}\u0000${context}`); i++) await delay(10);
		return !this.rows.has(`${workflowId}\u0000${context}`);
	}

	reset(): void {
		this.rows.clear();
		this.writes.clear();
		this.steps = 0;
		this.latency = { min: 0, max: 2 };
		this.timing = undefined;
		this.beforeWrite = undefined;
	}

	static context(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		if (scope === 'node') {
			if (!contextData.node)
				throw new Error("No node information has been provided and so cannot use scope 'node'");
			return `n:${contextData.node.id}`;
		}
		return '';
	}

	static hash(value: DeduplicationItemTypes): string {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	/** The entries of a scope's row that stand for messages: all but the node's row marker (empty when there is no row). */
	keys(workflowId: string, context: string): DeduplicationItemTypes[] {
		const marker = ProcessedDataStore.hash(KEYS_ROW_ENTRY);
		return (this.entries(workflowId, context) ?? []).filter((entry) => entry !== marker);
	}

	/** How many times calls wrote a scope's row (whole-row writes). */
	writesOf(workflowId: string, context: string): number {
		return this.writes.get(`${workflowId}\u0000${context}`) ?? 0;
	}

	/** The stored entries of a scope's row (undefined when there is no row). */
	entries(workflowId: string, context: string): DeduplicationItemTypes[] | undefined {
		const row = this.rows.get(`${workflowId}\u0000${context}`);
		return row && Array.isArray(row.data) ? [...row.data] : undefined;
	}

	/** The step times of one call: `timing`'s, or each step `latency` before and nothing after. */
	private times(kind: StoreCallKind, id: string): StepTimes {
		if (this.timing) return this.timing.call(kind, id);
		const { min, max } = this.latency;
		return { before: () => min + Math.random() * (max - min), after: () => 0 };
	}

	/** One database step of a call: its wait, then `effect` (its read or write), then its answer's way back. */
	private async step<T>(times: StepTimes, step: StoreStep, effect: () => T): Promise<T> {
		this.steps++;
		await delay(times.before(step));
		const value = effect();
		const after = times.after(step);
		if (after > 0) await delay(after);
		return value;
	}

	private id(contextData: ICheckProcessedContextData, context: string): string {
		if (!contextData.workflow.id)
			throw new Error('The expression evaluated to a falsy value: contextData.workflow.id');
		return `${contextData.workflow.id}\u0000${context}`;
	}

	private async find(times: StepTimes, id: string): Promise<Row | undefined> {
		return await this.step(times, 'find', () => {
			const row = this.rows.get(id);
			return row ? (JSON.parse(JSON.stringify(row)) as Row) : undefined;
		});
	}

	private async insert(times: StepTimes, id: string, row: Row): Promise<void> {
		await this.beforeWrite?.(id);
		const inserted = await this.step(times, 'insert', () => {
			if (this.rows.has(id)) return false;
			this.rows.set(id, JSON.parse(JSON.stringify(row)) as Row);
			this.writes.set(id, (this.writes.get(id) ?? 0) + 1);
			return true;
		});
		if (!inserted) {
			throw new Error(
				'SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId, processed_data.context',
			);
		}
	}

	private async update(times: StepTimes, id: string, row: Row): Promise<void> {
		await this.beforeWrite?.(id);
		await this.step(times, 'update', () => {
			if (this.rows.has(id)) this.rows.set(id, JSON.parse(JSON.stringify(row)) as Row);
			this.writes.set(id, (this.writes.get(id) ?? 0) + 1);
		});
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const context = ProcessedDataStore.context(scope, contextData);
		const id = this.id(contextData, context);
		const times = this.times('record', id);
		const row = await this.find(times, id);
		if (row && row.mode !== options.mode) {
			throw new Error(
				'Deduplication Failed: Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter.',
			);
		}
		if (LATEST.includes(options.mode)) return await this.latest(times, id, items, options, row);
		const hashes = items.map((item) => ProcessedDataStore.hash(item));
		if (!row) {
			if (options.maxEntries) hashes.splice(0, hashes.length - options.maxEntries);
			await this.insert(times, id, { mode: options.mode, data: hashes });
			return { new: items, processed: [] };
		}
		const out: IDeduplicationOutput = { new: [], processed: [] };
		if (!Array.isArray(row.data)) return out;
		const data = row.data;
		const seen = new Set(data);
		hashes.forEach((hash, index) => {
			if (seen.has(hash)) out.processed.push(items[index]);
			else {
				out.new.push(items[index]);
				data.push(hash);
			}
		});
		if (options.maxEntries) data.splice(0, data.length - options.maxEntries);
		await this.update(times, id, row);
		return out;
	}

	private async latest(
		times: StepTimes,
		id: string,
		items: DeduplicationItemTypes[],
		options: ICheckProcessedOptions,
		row: Row | undefined,
	): Promise<IDeduplicationOutput> {
		const value = (v: DeduplicationItemTypes) =>
			options.mode === 'latestDate' ? Date.parse(String(v)) : Number(v);
		const sorted = [...items].sort((a, b) => value(a) - value(b));
		if (!row) {
			await this.insert(times, id, { mode: options.mode, data: sorted[sorted.length - 1] });
			return { new: items, processed: [] };
		}
		const stored = row.data as DeduplicationItemTypes;
		const out: IDeduplicationOutput = { new: [], processed: [] };
		let largest = stored;
		for (const item of sorted) {
			if (value(item) > value(stored)) {
				out.new.push(item);
				if (value(item) > value(largest)) largest = item;
			} else out.processed.push(item);
		}
		await this.update(times, id, { ...row, data: largest });
		return out;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		if (LATEST.includes(options.mode))
			throw new Error(
				'Deduplication Failed: Removing processed data is not possible in mode "latest"',
			);
		const id = this.id(contextData, ProcessedDataStore.context(scope, contextData));
		const times = this.times('remove', id);
		const row = await this.find(times, id);
		if (!row || !Array.isArray(row.data)) return;
		const data = row.data;
		for (const hash of items.map((item) => ProcessedDataStore.hash(item))) {
			const index = data.indexOf(hash);
			if (index !== -1) data.splice(index, 1);
		}
		await this.update(times, id, row);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		const id = this.id(contextData, ProcessedDataStore.context(scope, contextData));
		await this.step(this.times('clear', id), 'delete', () => this.rows.delete(id));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		const id = this.id(contextData, ProcessedDataStore.context(scope, contextData));
		const row = await this.find(this.times('count', id), id);
		return options.mode === 'entries' && row && Array.isArray(row.data) ? row.data.length : 0;
	}
}

/** Gives n8n-core's deduplication service this store (once per process, as in n8n) and returns it. */
export async function installStore(): Promise<ProcessedDataStore> {
	return await processWide('test.dedup-store', async () => {
		const store = new ProcessedDataStore();
		await DataDeduplicationService.init(store);
		return store;
	});
}
