/**
 * Deleting in batches, for `delete` (every entry of some members) and `deleteKeys` (some keys of
 * some members). Member ids are read per item, merged (an id named twice is sent once, paired to
 * both items) and sent in requests of at most `batchSize` ids. A refused request (-1009/-1010)
 * puts its members on Failed with `retryAfter`; the other requests still run.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { readBatchSize, readOptions, readTransportSettings } from '../../shared/options';
import type { FailureFields } from '../../shared/outputs';
import { WriteOutputs, chunk } from '../../shared/outputs';
import type { TransportSettings } from '../../shared/transport';
import { CampaignClient } from '../../shared/transport';
import { jsonSafe, readMemberId } from '../../shared/values';
import { NODE_RULE_CODES } from '../helpers/dialect';
import { continueAfterStored, failChunk, readCount } from '../helpers/results';

export interface DeleteRow {
	memberId: string;
	sources: number[];
	/** deleteKeys only: the keys to delete, in first-seen order. */
	keys?: Set<string>;
}

/** The members of one delete operation, collected item by item, then sent in batches. */
export class DeleteBatches {
	private readonly settings: TransportSettings;
	private readonly batchSize: number;
	private readonly out = new WriteOutputs();
	private readonly rows = new Map<string, DeleteRow>();

	/** Reads the options first: a bad option stops the node before any item is read. */
	constructor(private readonly ctx: IExecuteFunctions) {
		const options = readOptions(ctx) as IDataObject;
		this.settings = readTransportSettings(ctx, options);
		this.batchSize = readBatchSize(ctx, options);
	}

	/** Item `i`'s member id, or undefined when it cannot be one (the item then goes to Failed with -9997). */
	memberId(i: number, raw: unknown): string | undefined {
		const id = readMemberId(raw);
		if (id.ok) return id.value;
		this.out.fail(
			{
				code: NODE_RULE_CODES.badMemberId,
				message: `Member ID ${id.reason}`,
				memberId: jsonSafe(raw),
				field: 'memberId',
			},
			i,
		);
		return undefined;
	}

	/** Puts item `i` on Failed without sending it. */
	refuse(i: number, failure: FailureFields): void {
		this.out.fail(failure, i);
	}

	/** Adds item `i`'s member (and, for deleteKeys, its keys) to the members to send. */
	add(i: number, memberId: string, keys?: readonly string[]): void {
		let row = this.rows.get(memberId);
		if (!row) {
			row = { memberId, sources: [], keys: keys ? new Set() : undefined };
			this.rows.set(memberId, row);
		}
		row.sources.push(i);
		for (const key of keys ?? []) row.keys?.add(key);
	}

	/**
	 * Sends the members in batches to `path`, each request's body built by `body`, and gives the
	 * Success and Failed outputs.
	 */
	async send(path: string, body: (part: DeleteRow[]) => unknown): Promise<INodeExecutionData[][]> {
		const { ctx, out } = this;
		if (this.rows.size === 0) return out.toArray();
		const client = await CampaignClient.create(ctx, this.settings);
		const batches = chunk([...this.rows.values()], this.batchSize);
		const fields = (row: DeleteRow): IDataObject => (row.keys ? { keys: [...row.keys] } : {});
		for (const [n, part] of batches.entries()) {
			const call = {
				method: 'DELETE' as const,
				path,
				body: body(part),
				safety: 'idempotent' as const,
			};
			let result;
			try {
				result = await client.call(call);
			} catch (error) {
				out.success.push(
					...continueAfterStored(
						ctx,
						n,
						batches.slice(n).flatMap((b) => b.flatMap((row) => row.sources)),
						error,
					),
				);
				break;
			}
			if (result.code !== '0') {
				failChunk(
					part.map((row) => ({
						memberId: row.memberId,
						sources: row.sources,
						fields: fields(row),
					})),
					result,
					out,
				);
				continue;
			}
			const count = readCount(result.processValue);
			for (const row of part) {
				out.ok(
					{
						memberId: row.memberId,
						...fields(row),
						deleted: true,
						batchDeletedCount: count ?? null,
					},
					row.sources,
				);
			}
		}
		return out.toArray();
	}
}
