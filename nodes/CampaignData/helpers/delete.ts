/**
 * `delete` (every entry of some members) and `deleteKeys` (some keys of some members). Member
 * ids are read per item, merged (an id named twice is sent once, paired to both items) and sent
 * in requests of at most `batchSize` ids. A refused request (-1009/-1010) puts its members on
 * Failed with `retryAfter`; the other requests still run.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { splitList } from './mapping';
import { jsonSafe, readMemberId, setField } from '../../shared/values';
import { readBatchSize, readOptions, readTransportSettings } from '../../shared/options';
import { WriteOutputs, chunk } from '../../shared/outputs';
import { CampaignClient } from '../../shared/transport';
import type { DataDialect } from './dialect';
import { NODE_RULE_CODES, deleteKeysPath } from './dialect';
import { continueAfterStored, failChunk, readCount } from './results';

interface DeleteRow {
	memberId: string;
	sources: number[];
	/** deleteKeys only: the keys to delete, in first-seen order. */
	keys?: Set<string>;
}

export async function executeDelete(
	this: IExecuteFunctions,
	dialect: DataDialect,
	operation: 'delete' | 'deleteKeys',
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const options = readOptions(this) as IDataObject;
	const settings = readTransportSettings(this, options);
	const batchSize = readBatchSize(this, options);
	const withKeys = operation === 'deleteKeys';
	const out = new WriteOutputs();
	const rows = new Map<string, DeleteRow>();

	for (let i = 0; i < items.length; i++) {
		const raw = this.getNodeParameter('memberId', i, '');
		const id = readMemberId(raw);
		if (!id.ok) {
			out.fail({ code: NODE_RULE_CODES.badMemberId, message: `Member ID ${id.reason}`, memberId: jsonSafe(raw), field: 'memberId' }, i);
			continue;
		}
		let keys: string[] = [];
		if (withKeys) {
			keys = splitList(this.getNodeParameter('keys', i, ''));
			if (keys.length === 0) {
				out.fail(
					{
						code: NODE_RULE_CODES.noKeys,
						message: 'Keys is empty: give the names of the keys to delete, separated by commas',
						memberId: id.value,
						field: 'keys',
					},
					i,
				);
				continue;
			}
		}
		let row = rows.get(id.value);
		if (!row) {
			row = { memberId: id.value, sources: [], keys: withKeys ? new Set() : undefined };
			rows.set(id.value, row);
		}
		row.sources.push(i);
		for (const key of keys) row.keys?.add(key);
	}

	if (rows.size > 0) {
		const client = await CampaignClient.create(this, settings);
		const batches = chunk([...rows.values()], batchSize);
		for (const [n, part] of batches.entries()) {
			let body: unknown;
			if (withKeys) {
				const byMember: Record<string, unknown> = {};
				for (const row of part) setField(byMember, row.memberId, [...(row.keys ?? [])]);
				body = byMember;
			} else {
				body = part.map((row) => row.memberId);
			}
			let result;
			try {
				result = await client.call({ method: 'DELETE', path: withKeys ? deleteKeysPath(dialect) : dialect.basePath, body, safety: 'idempotent' });
			} catch (error) {
				out.success.push(...continueAfterStored(this, n, batches.slice(n).flatMap((b) => b.flatMap((row) => row.sources)), error));
				break;
			}
			const fields = (row: DeleteRow): IDataObject => (row.keys ? { keys: [...row.keys] } : {});
			if (result.code !== '0') {
				failChunk(
					part.map((row) => ({ memberId: row.memberId, sources: row.sources, fields: fields(row) })),
					result,
					out,
				);
				continue;
			}
			const count = readCount(result.processValue);
			for (const row of part) {
				out.ok({ memberId: row.memberId, ...fields(row), deleted: true, batchDeletedCount: count ?? null }, row.sources);
			}
		}
	}
	return out.toArray();
}
