/**
 * The rows of a delete, for `delete` (every entry of some members) and `deleteKeys` (some keys of
 * some members). Member ids are read per item, merged (an id named twice is sent once, paired to
 * both items) and sent through the one chunked write loop (nodes/shared/chunks.ts), at most
 * `batchSize` ids a request. A refused request (-1009/-1010) fails its members with `retryAfter`;
 * the other requests still run.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { readBatchSize, readOptions, readTransportSettings } from '../../shared/options';
import type { Failure, Outcome } from '../../shared/outcome';
import { done, failed } from '../../shared/outcome';
import type { ApiResult, TransportSettings } from '../../shared/transport';
import { CampaignClient } from '../../shared/transport';
import { jsonSafe, readMemberId } from '../../shared/values';
import { writeInChunks } from '../../shared/chunks';
import { NODE_RULE_CODES } from './advice';
import { failChunk, readCount } from './results';

export interface DeleteRow {
	memberId: string;
	sources: number[];
	/** deleteKeys only: the keys to delete, in first-seen order. */
	keys?: Set<string>;
}

/** The identifying fields of a row besides its member id: deleteKeys' keys. */
const fields = (row: DeleteRow): IDataObject => (row.keys ? { keys: [...row.keys] } : {});

/** The members of one delete operation, collected item by item, then sent in chunks. */
export class DeleteRows {
	private readonly settings: TransportSettings;
	private readonly batchSize: number;
	/** The items refused before sending, in input order. */
	private readonly refused: Outcome[] = [];
	private readonly rows = new Map<string, DeleteRow>();

	/** Reads the options first: a bad option stops the node before any item is read. */
	constructor(private readonly ctx: IExecuteFunctions) {
		const options = readOptions(ctx) as IDataObject;
		this.settings = readTransportSettings(ctx, options);
		this.batchSize = readBatchSize(ctx, options);
	}

	/**
	 * Reads the Member ID of each of `count` items and hands the usable ones to `visit`; an item
	 * whose id cannot be one fails with -9997.
	 */
	forEachMember(count: number, visit: (i: number, memberId: string) => void): void {
		for (let i = 0; i < count; i++) {
			const raw = this.ctx.getNodeParameter('memberId', i, '');
			const id = readMemberId(raw);
			if (id.ok) {
				visit(i, id.value);
				continue;
			}
			this.refuse(i, {
				code: NODE_RULE_CODES.badMemberId,
				message: `Member ID ${id.reason}`,
				memberId: jsonSafe(raw),
				field: 'memberId',
			});
		}
	}

	/** Item `i` fails without being sent. */
	refuse(i: number, failure: Failure): void {
		this.refused.push(failed(failure, i));
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
	 * Sends the members in chunks to `path`, each request's body built by `body`, and gives the
	 * outcomes: the refused items', then each request's.
	 */
	async send(path: string, body: (part: DeleteRow[]) => unknown): Promise<Outcome[]> {
		if (this.rows.size === 0) return this.refused;
		const client = await CampaignClient.create(this.ctx, this.settings);
		const sent = await writeInChunks({
			rows: [...this.rows.values()],
			size: this.batchSize,
			inputsOf: (row) => row.sources,
			send: async (part) => {
				const call = {
					method: 'DELETE' as const,
					path,
					body: body(part),
					repeatability: 'idempotent' as const,
				};
				return reportDelete(part, await client.call(call));
			},
		});
		return [...this.refused, ...sent];
	}
}

/** One delete answer: every member of the request deleted, or each refused with the code. */
function reportDelete(part: readonly DeleteRow[], result: ApiResult): Outcome[] {
	if (result.code !== '0') {
		return failChunk(
			part.map((row) => ({ memberId: row.memberId, sources: row.sources, fields: fields(row) })),
			result,
		);
	}
	const count = readCount(result.processValue);
	return part.map((row) =>
		done(
			{ memberId: row.memberId, ...fields(row), deleted: true, batchDeletedCount: count ?? null },
			row.sources,
		),
	);
}
