/**
 * `create` (POST, register) and `update` (PUT, change): input items -> one row per member ->
 * requests of at most `batchSize` members, in input order. Every input item ends on Success or
 * Failed (or both, when some of its keys were stored and others not).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { describeRowCode } from '../../codes';
import type { MemberRow, WireValue } from '../../mapping';
import { DateFormatter, MemberMerger, isAlwaysWritable, jsonSafe, readMemberId, setField, splitList, toWireValue, valuesObject, wireValue } from '../../mapping';
import { readBatchSize, readOptions, readTransportSettings } from '../../options';
import { WriteOutputs, paired } from '../../outputs';
import type { ApiResult } from '../../transport';
import { CampaignClient } from '../../transport';
import type { DataDialect } from '../dialect';
import { NODE_RULE_CODES } from '../dialect';
import { failChunk, readCount, readFailureRows } from './results';

/**
 * What the items give, read before anything is sent (an expression error then stops the node
 * with nothing sent). Auto-map reads each item's own fields where they are, without copying
 * them: 100,000 items are not turned into a second list of 100,000 rows.
 */
interface ItemSource {
	/** Where the member id comes from (for messages). */
	idField: string;
	/** The member id as given. */
	memberId(i: number): unknown;
	hasIdField(i: number): boolean;
	/** Calls `visit` with each key and value item `i` gives, in order. */
	pairs(i: number, visit: (key: string, value: unknown) => void): void;
}

const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

function readItems(ctx: IExecuteFunctions, items: INodeExecutionData[], options: IDataObject): ItemSource {
	const mode = ctx.getNodeParameter('mappingMode', 0, 'autoMapInputData') as string;
	if (mode === 'defineBelow') {
		const inputs = items.map((_, i) => {
			const entries = ctx.getNodeParameter('entries.entry', i, []) as Array<{ key?: unknown; value?: unknown }>;
			return {
				memberId: ctx.getNodeParameter('memberId', i, '') as unknown,
				pairs: (Array.isArray(entries) ? entries : []).map((e): [string, unknown] => [
					typeof e.key === 'string' ? e.key : e.key === undefined || e.key === null ? '' : String(e.key),
					e.value,
				]),
			};
		});
		return {
			idField: 'memberId',
			memberId: (i) => inputs[i].memberId,
			hasIdField: () => true,
			pairs: (i, visit) => {
				for (const [key, value] of inputs[i].pairs) visit(key, value);
			},
		};
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
	const jsonOf = (i: number): IDataObject => items[i].json ?? {};
	return {
		idField,
		memberId: (i) => jsonOf(i)[idField],
		hasIdField: (i) => hasOwn(jsonOf(i), idField),
		pairs: (i, visit) => {
			const json = jsonOf(i);
			for (const key of Object.keys(json)) {
				if (key === idField || exclude.has(key) || (include.size > 0 && !include.has(key))) continue;
				visit(key, json[key]);
			}
		},
	};
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

	const out = new WriteOutputs();
	const source = readItems(this, items, options);
	const toSend = planMembers(source, items.length, dates, skipNull, out);

	if (toSend.length > 0) {
		const client = await CampaignClient.create(this, settings);
		for (let start = 0; start < toSend.length; start += batchSize) {
			const plans = toSend.slice(start, start + batchSize);
			// What one request sends, built when it is sent: the rows of 100,000 members are never
			// all in memory next to the items they come from. Each member's keys and values go into
			// the body and, once stored, into its Success item as they are.
			const part = sentMembers(plans, source, dates, skipNull);
			const body: Record<string, unknown> = {};
			for (const member of part) setField(body, member.memberId, member.values);
			const result = await client.call({
				method: operation === 'create' ? 'POST' : 'PUT',
				path: dialect.basePath,
				body,
				safety: 'idempotent',
			});
			reportWrite(dialect, part, () => rowsOf(plans, source, dates, skipNull), result, out);
		}
	}
	return out.toArray();
}

/** A member to write: its id and the items that name it, in input order. */
interface MemberPlan {
	memberId: string;
	sources: number[];
	/** At least one of its values can be written. */
	writable: boolean;
}

/**
 * Checks every item before anything is sent, in input order: items that cannot be sent, keys
 * and values that cannot be written, each go to Failed once. Returns the members that have
 * something to write, in the order they first appear (their rows are built per request by
 * `rowsOf`).
 */
function planMembers(source: ItemSource, count: number, dates: DateFormatter, skipNull: boolean, out: WriteOutputs): MemberPlan[] {
	const members = new Map<string, MemberPlan>();
	/** Items that already have a Failed item (so an item is not reported twice for the same problem). */
	const reported = new Set<number>();
	let plan: MemberPlan;
	let i = 0;
	const check = (key: string, raw: unknown): void => {
		if (key.trim() === '') {
			out.fail({ code: NODE_RULE_CODES.badKey, message: 'A key name is empty', memberId: plan.memberId, key, value: jsonSafe(raw) }, i);
			reported.add(i);
			return;
		}
		if (skipNull && (raw === null || raw === undefined)) return;
		// A value that cannot be sent is reported for its item and does not replace an earlier
		// valid value of the same key ("later wins" applies among values that can be written).
		const value = isAlwaysWritable(raw) ? undefined : toWireValue(raw, dates);
		if (value && !value.ok) {
			out.fail(
				{ code: NODE_RULE_CODES.badValue, message: `The value of key "${key}" ${value.reason}`, memberId: plan.memberId, key, value: jsonSafe(raw) },
				i,
			);
			reported.add(i);
			return;
		}
		plan.writable = true;
	};

	for (i = 0; i < count; i++) {
		const given = source.memberId(i);
		const id = readMemberId(given);
		if (!id.ok) {
			const where = source.idField === 'memberId' ? 'Member ID' : `Member ID (field "${source.idField}")`;
			const message = source.hasIdField(i)
				? `${where} ${id.reason}`
				: `The item has no field "${source.idField}": set Member ID Field to the input field that holds the member ID`;
			out.fail({ code: NODE_RULE_CODES.badMemberId, message, memberId: jsonSafe(given), field: source.idField }, i);
			reported.add(i);
			continue;
		}
		const known = members.get(id.value);
		if (known) {
			plan = known;
			if (plan.sources[plan.sources.length - 1] !== i) plan.sources.push(i);
		} else {
			plan = { memberId: id.value, sources: [i], writable: false };
			members.set(id.value, plan);
		}
		source.pairs(i, check);
	}

	const toSend: MemberPlan[] = [];
	for (const member of members.values()) {
		if (member.writable) {
			toSend.push(member);
			continue;
		}
		const silent = member.sources.filter((s) => !reported.has(s));
		if (silent.length > 0) {
			out.fail(
				{
					code: NODE_RULE_CODES.nothingToWrite,
					message: 'Nothing to write for this member: no key besides the member ID (check the input fields, Fields to Write and Fields to Ignore)',
					memberId: member.memberId,
				},
				silent,
			);
		}
	}
	return toSend;
}

/**
 * What a key of an item is sent as, or undefined when it is not sent: an empty key name, a
 * skipped empty value, or a value that cannot be written (each reported by `planMembers`).
 */
function sendable(key: string, raw: unknown, dates: DateFormatter, skipNull: boolean): WireValue | undefined {
	if (key.trim() === '' || (skipNull && (raw === null || raw === undefined))) return undefined;
	const value = wireValue(raw, dates);
	return typeof value === 'object' ? undefined : value;
}

/** What a request sends for one member: its keys in first-seen order and the `{ key: value }` object. */
interface SentMember {
	memberId: string;
	/** Every input item that named the member. */
	sources: number[];
	keys: string[];
	values: IDataObject;
}

/**
 * Each member's items merged in input order: a key keeps the place it was first seen and the
 * later value wins, among values that can be written (the rest was reported by `planMembers`).
 * The same keys and values as `rowsOf` gives, without the per-key bookkeeping that only a
 * partial failure needs.
 */
function sentMembers(plans: MemberPlan[], source: ItemSource, dates: DateFormatter, skipNull: boolean): SentMember[] {
	let keys: string[] = [];
	let values: IDataObject = {};
	const add = (key: string, raw: unknown): void => {
		const value = sendable(key, raw, dates, skipNull);
		if (value === undefined) return;
		if (!hasOwn(values, key)) keys.push(key);
		setField(values, key, value);
	};
	return plans.map((plan) => {
		keys = [];
		values = {};
		for (const i of plan.sources) source.pairs(i, add);
		// An exact-size copy: the list stays in the Success item, a pushed-to list keeps spare room.
		return { memberId: plan.memberId, sources: plan.sources, keys: keys.slice(), values };
	});
}

/**
 * The rows of some members, with the items behind each key (to pair the failure rows of a
 * partial success): their items merged as `sentMembers` does.
 */
function rowsOf(plans: MemberPlan[], source: ItemSource, dates: DateFormatter, skipNull: boolean): MemberRow[] {
	const merger = new MemberMerger();
	let row: MemberRow;
	let i = 0;
	const add = (key: string, raw: unknown): void => {
		const value = sendable(key, raw, dates, skipNull);
		if (value !== undefined) merger.set(row, key, value, i);
	};
	for (const plan of plans) {
		for (i of plan.sources) {
			row = merger.member(plan.memberId, i);
			source.pairs(i, add);
		}
	}
	return merger.all();
}

const keysOf = (row: MemberRow): string[] => [...row.values.keys()];

/** Turns one register/change answer into Success and Failed items for the members it carried. */
function reportWrite(dialect: DataDialect, part: SentMember[], rows: () => MemberRow[], result: ApiResult, out: WriteOutputs): void {
	if (result.code !== '0' && result.code !== '1') {
		failChunk(
			part.map((member) => ({ memberId: member.memberId, sources: member.sources, fields: { keys: member.keys } })),
			result,
			out,
		);
		return;
	}
	const failures = readFailureRows(result.processValue);
	if (failures !== undefined && failures.length > 0) {
		reportFailureRows(rows(), failures, out);
		return;
	}
	if (result.code === '1') {
		// "Partial success" without a readable list: nothing can be claimed as stored.
		for (const member of part) {
			out.fail(
				{
					code: '1',
					message: 'The service answered "partial success" without saying which entries failed: these entries may or may not be stored',
					memberId: member.memberId,
					keys: member.keys,
				},
				member.sources,
			);
		}
		return;
	}
	const count = readCount(result.processValue);
	if (dialect.writeResult === 'count' || count !== undefined) {
		reportCount(part, count, out);
		return;
	}
	for (const member of part) out.ok({ memberId: member.memberId, keys: member.keys, values: member.values }, member.sources);
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
	/** A failure row naming no member of the request: no member's outcome can be claimed. */
	let unattributed = false;

	for (const failure of rows) {
		const member = failure.memberId === undefined ? undefined : byId.get(failure.memberId);
		const entry = member && failure.key !== undefined ? member.values.get(failure.key) : undefined;
		const code = failure.code ?? '1';
		if (!member && !everySource) everySource = [...new Set(part.flatMap((row) => row.sources))];
		const sources = entry?.sources ?? member?.sources ?? (everySource as number[]);
		const unknownMember = member
			? ''
			: '. The service named no member of this request, so which entries of this request were stored is unknown';
		out.fail(
			{
				code,
				message: `${describeRowCode('customData', code, failure.message)}${unknownMember}`,
				memberId: failure.memberId ?? null,
				key: failure.key ?? null,
				value: jsonSafe(failure.value !== undefined ? failure.value : entry?.value),
			},
			sources,
		);
		if (!member) {
			unattributed = true;
			continue;
		}
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
		const stored = failed === 'all' || unattributed ? [] : keysOf(row).filter((key) => !failed?.has(key));
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
function reportCount(part: SentMember[], count: number | undefined, out: WriteOutputs): void {
	const sent = part.reduce((sum, member) => sum + member.keys.length, 0);
	const confirmed = count !== undefined && count >= sent;
	const warning =
		count === undefined
			? `The service did not say how many of the ${sent} entries sent in this request it stored`
			: count < sent
				? `The service confirmed storing ${count} of the ${sent} entries sent in this request, without saying which: some entries of this member may not be stored (a key the service does not know, or a value that does not match the key's format)`
				: undefined;
	for (const member of part) {
		out.ok(
			{
				memberId: member.memberId,
				keys: member.keys,
				values: member.values,
				confirmed,
				batchSentCount: sent,
				batchStoredCount: count ?? null,
				...(warning ? { warning } : {}),
			},
			member.sources,
		);
	}
}
