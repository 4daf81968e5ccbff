/**
 * `create` (POST, register) and `update` (PUT, change): input items -> one row per member ->
 * requests of at most `batchSize` members, in input order. Every input item ends on Success or
 * Failed (or both, when some of its keys were stored and others not).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { describeRowCode } from '../../codes';
import type { MemberRow } from '../../mapping';
import { DateFormatter, MemberMerger, jsonSafe, readMemberId, setField, splitList, toWireValue, valuesObject } from '../../mapping';
import { readBatchSize, readOptions, readTransportSettings } from '../../options';
import { WriteOutputs, chunk, paired } from '../../outputs';
import type { ApiResult } from '../../transport';
import { CampaignClient } from '../../transport';
import type { DataDialect } from '../dialect';
import { NODE_RULE_CODES } from '../dialect';
import { failChunk, readCount, readFailureRows } from './results';

interface ItemInput {
	/** The member id as given, and where it came from (for messages). */
	memberId: unknown;
	idField: string;
	hasIdField: boolean;
	pairs: Array<[string, unknown]>;
}

const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

/** Reads what every item gives, before anything is sent (an expression error then stops the node with nothing sent). */
function readItems(ctx: IExecuteFunctions, items: INodeExecutionData[], options: IDataObject): ItemInput[] {
	const mode = ctx.getNodeParameter('mappingMode', 0, 'autoMapInputData') as string;
	if (mode === 'defineBelow') {
		return items.map((_, i) => {
			const entries = ctx.getNodeParameter('entries.entry', i, []) as Array<{ key?: unknown; value?: unknown }>;
			return {
				memberId: ctx.getNodeParameter('memberId', i, ''),
				idField: 'memberId',
				hasIdField: true,
				pairs: (Array.isArray(entries) ? entries : []).map((e) => [
					typeof e.key === 'string' ? e.key : e.key === undefined || e.key === null ? '' : String(e.key),
					e.value,
				]),
			};
		});
	}
	if (mode !== 'autoMapInputData') {
		throw new NodeOperationError(ctx.getNode(), `Mapping Mode must be "autoMapInputData" or "defineBelow" (got ${JSON.stringify(mode)})`);
	}
	const idFieldRaw = ctx.getNodeParameter('memberIdField', 0, 'memberId') as unknown;
	const idField = typeof idFieldRaw === 'string' ? idFieldRaw.trim() : '';
	if (idField === '') {
		throw new NodeOperationError(ctx.getNode(), 'Member ID Field is empty', {
			description: 'Set the name of the input field that holds the member ID, e.g. memberId.',
		});
	}
	const include = new Set(splitList(options.includeFields));
	const exclude = new Set(splitList(options.excludeFields));
	return items.map((item) => {
		const json = item.json ?? {};
		const pairs: Array<[string, unknown]> = [];
		for (const key of Object.keys(json)) {
			if (key === idField || exclude.has(key) || (include.size > 0 && !include.has(key))) continue;
			pairs.push([key, json[key]]);
		}
		return { memberId: json[idField], idField, hasIdField: hasOwn(json, idField), pairs };
	});
}

export async function executeWrite(
	this: IExecuteFunctions,
	dialect: DataDialect,
	operation: 'create' | 'update',
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const options = readOptions(this) as IDataObject;
	const settings = readTransportSettings(this, options);
	const batchSize = readBatchSize(this, options);
	const skipNull = options.skipNullValues === true;
	let dates: DateFormatter;
	try {
		dates = new DateFormatter(this.getTimezone());
	} catch {
		throw new NodeOperationError(this.getNode(), `The workflow time zone "${this.getTimezone()}" is not known`, {
			description: 'Set a valid time zone in the workflow settings; dates are written as YYYY-MM-DD in it.',
		});
	}

	const inputs = readItems(this, items, options);
	const out = new WriteOutputs();
	const merger = new MemberMerger();
	/** Items that already have a Failed item (so an item is not reported twice for the same problem). */
	const reported = new Set<number>();

	inputs.forEach((input, i) => {
		const id = readMemberId(input.memberId);
		if (!id.ok) {
			const where = input.idField === 'memberId' ? 'Member ID' : `Member ID (field "${input.idField}")`;
			const message = input.hasIdField
				? `${where} ${id.reason}`
				: `The item has no field "${input.idField}": set Member ID Field to the input field that holds the member ID`;
			out.fail({ code: NODE_RULE_CODES.badMemberId, message, memberId: jsonSafe(input.memberId), field: input.idField }, i);
			reported.add(i);
			return;
		}
		const row = merger.member(id.value, i);
		for (const [key, raw] of input.pairs) {
			if (key.trim() === '') {
				out.fail({ code: NODE_RULE_CODES.badKey, message: 'A key name is empty', memberId: id.value, key, value: jsonSafe(raw) }, i);
				reported.add(i);
				continue;
			}
			if (skipNull && (raw === null || raw === undefined)) continue;
			// A value that cannot be sent is reported for its item and does not replace an earlier
			// valid value of the same key ("later wins" applies among values that can be written).
			const value = toWireValue(raw, dates);
			if (!value.ok) {
				out.fail(
					{ code: NODE_RULE_CODES.badValue, message: `The value of key "${key}" ${value.reason}`, memberId: id.value, key, value: jsonSafe(raw) },
					i,
				);
				reported.add(i);
				continue;
			}
			merger.set(row, key, value.value, i);
		}
	});

	const toSend: MemberRow[] = [];
	for (const row of merger.all()) {
		if (row.values.size > 0) {
			toSend.push(row);
			continue;
		}
		const silent = row.sources.filter((i) => !reported.has(i));
		if (silent.length > 0) {
			out.fail(
				{
					code: NODE_RULE_CODES.nothingToWrite,
					message: 'Nothing to write for this member: no key besides the member ID (check the input fields, Fields to Write and Fields to Ignore)',
					memberId: row.memberId,
				},
				silent,
			);
		}
	}

	if (toSend.length > 0) {
		const client = await CampaignClient.create(this, settings);
		for (const part of chunk(toSend, batchSize)) {
			const body: Record<string, unknown> = {};
			for (const row of part) setField(body, row.memberId, valuesObject(row));
			const result = await client.call({
				method: operation === 'create' ? 'POST' : 'PUT',
				path: dialect.basePath,
				body,
				safety: 'idempotent',
			});
			reportWrite(dialect, part, result, out);
		}
	}
	return out.toArray();
}

const keysOf = (row: MemberRow): string[] => [...row.values.keys()];

/** Turns one register/change answer into Success and Failed items for the members it carried. */
function reportWrite(dialect: DataDialect, part: MemberRow[], result: ApiResult, out: WriteOutputs): void {
	if (result.code !== '0' && result.code !== '1') {
		failChunk(
			part.map((row) => ({ memberId: row.memberId, sources: row.sources, fields: { keys: keysOf(row) } })),
			result,
			out,
		);
		return;
	}
	const rows = readFailureRows(result.processValue);
	if (rows !== undefined && rows.length > 0) {
		reportFailureRows(part, rows, out);
		return;
	}
	if (result.code === '1') {
		// "Partial success" without a readable list: nothing can be claimed as stored.
		for (const row of part) {
			out.fail(
				{
					code: '1',
					message: 'The service answered "partial success" without saying which entries failed: these entries may or may not be stored',
					memberId: row.memberId,
					keys: keysOf(row),
				},
				row.sources,
			);
		}
		return;
	}
	const count = readCount(result.processValue);
	if (dialect.writeResult === 'count' || count !== undefined) {
		reportCount(part, count, out);
		return;
	}
	for (const row of part) out.ok({ memberId: row.memberId, keys: keysOf(row), values: valuesObject(row) }, row.sources);
}

/**
 * v2 partial success: each failure row goes to Failed, paired to the items that gave that key
 * of that member; the keys not listed were stored and go to Success, one item per member.
 */
function reportFailureRows(part: MemberRow[], rows: NonNullable<ReturnType<typeof readFailureRows>>, out: WriteOutputs): void {
	const byId = new Map(part.map((row) => [row.memberId, row]));
	const failedKeys = new Map<string, Set<string> | 'all'>();
	const firstFailure = new Map<string, { item: INodeExecutionData; indexes: Set<number> }>();
	let everySource: number[] | undefined;

	for (const failure of rows) {
		const member = failure.memberId === undefined ? undefined : byId.get(failure.memberId);
		const entry = member && failure.key !== undefined ? member.values.get(failure.key) : undefined;
		const code = failure.code ?? '1';
		if (!member && !everySource) everySource = [...new Set(part.flatMap((row) => row.sources))];
		const sources = entry?.sources ?? member?.sources ?? (everySource as number[]);
		out.fail(
			{
				code,
				message: describeRowCode('customData', code, failure.message),
				memberId: failure.memberId ?? null,
				key: failure.key ?? null,
				value: jsonSafe(failure.value !== undefined ? failure.value : entry?.value),
			},
			sources,
		);
		if (!member) continue;
		const known = failedKeys.get(member.memberId);
		if (failure.key === undefined || !member.values.has(failure.key)) {
			// A row that names no key we sent: the member's outcome is unknown, claim nothing for it.
			failedKeys.set(member.memberId, 'all');
		} else if (known !== 'all') {
			failedKeys.set(member.memberId, (known ?? new Set<string>()).add(failure.key));
		}
		const first = firstFailure.get(member.memberId);
		if (first) sources.forEach((s) => first.indexes.add(s));
		else firstFailure.set(member.memberId, { item: out.failed[out.failed.length - 1], indexes: new Set(sources) });
	}

	for (const row of part) {
		const failed = failedKeys.get(row.memberId);
		const stored = failed === 'all' ? [] : keysOf(row).filter((key) => !failed?.has(key));
		if (stored.length > 0) {
			out.ok({ memberId: row.memberId, keys: stored, values: valuesObject(row, stored) }, row.sources);
			continue;
		}
		// Nothing of this member was stored: the items of this member that no failure row is
		// paired to yet (e.g. an item that gave only the member id) are paired to its first failure.
		const first = firstFailure.get(row.memberId);
		if (!first) continue;
		const missing = row.sources.filter((s) => !first.indexes.has(s));
		if (missing.length > 0) first.item.pairedItem = paired([...first.indexes, ...missing].sort((a, b) => a - b));
	}
}

/**
 * v1: the service tells how many entries it stored, not which. Each member goes to Success
 * with what was sent and what the request's count confirms; a short count is said plainly.
 */
function reportCount(part: MemberRow[], count: number | undefined, out: WriteOutputs): void {
	const sent = part.reduce((sum, row) => sum + row.values.size, 0);
	const confirmed = count !== undefined && count >= sent;
	const warning =
		count === undefined
			? `The service did not say how many of the ${sent} entries sent in this request it stored`
			: count < sent
				? `The service confirmed storing ${count} of the ${sent} entries sent in this request, without saying which: some entries of this member may not be stored (a key the service does not know, or a value that does not match the key's format)`
				: undefined;
	for (const row of part) {
		out.ok(
			{
				memberId: row.memberId,
				keys: keysOf(row),
				values: valuesObject(row),
				confirmed,
				batchSentCount: sent,
				batchStoredCount: count ?? null,
				...(warning ? { warning } : {}),
			},
			row.sources,
		);
	}
}
