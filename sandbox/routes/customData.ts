/**
 * Custom data v2 (docs/service-rules.md#custom-data, `/v2/custom`) and legacy custom data v1 (docs/service-rules.md#custom-data, `/v1/legacy`):
 * one idea, two dialects (paths, key/value field names, what a write answers).
 */
import { MAX_ROWS, isPlainObject, parseBody, type RequestContext } from '../context';
import { envelope, type Reply } from '../envelope';
import { coerceToFormat } from '../rules';
import type { SandboxState } from '../types';

type Store = Map<string, Map<string, string | number>>;

export interface Dialect {
	/** Field names of an entry on read (docs/service-rules.md#custom-data). */
	keyField: 'customDataKey' | 'legacyDataKey';
	valueField: 'customDataValue' | 'legacyDataValue';
	store(state: SandboxState): Store;
	/**
	 * v2 ('rows'): unregistered keys fail with F01, bad values with F02, answered as failure rows
	 * (processCode 1). v1 ('count'): the answer is the number of stored entries; bad values are
	 * silently not stored and unregistered keys are accepted as strings.
	 */
	writeResult: 'rows' | 'count';
}

export const CUSTOM_V2: Dialect = {
	keyField: 'customDataKey',
	valueField: 'customDataValue',
	store: (state) => state.custom,
	writeResult: 'rows',
};

export const LEGACY_V1: Dialect = {
	keyField: 'legacyDataKey',
	valueField: 'legacyDataValue',
	store: (state) => state.legacy,
	writeResult: 'count',
};

const DATA_NOT_VALID = -9997;
const LIMIT_EXCEEDED = -1004;

/**
 * GET: all entries, one member's entries (`memberId`, exact match, any characters), or the page
 * after a `seq` token. Entries are ordered by the insertion order of members, then of keys within
 * the member (a member whose entries were all deleted and that comes back goes to the end).
 * Decisions: `memberId=` (empty) means no filter; `seq=` (empty) means the first page (a client that
 * sends back an empty nextPageSeq gets page one again: its loop guard has to notice); a `seq` that
 * was never issued -> -9997. With both `seq` and `memberId`, the query memberId wins over the one
 * remembered by the cursor.
 */
export function readEntries(ctx: RequestContext, dialect: Dialect): Reply {
	let memberFilter = ctx.query.memberId ? ctx.query.memberId : undefined;
	let offset = 0;
	const seq = ctx.query.seq;
	if (seq !== undefined && seq.trim() !== '') {
		const cursor = /^\d+$/.test(seq.trim()) ? ctx.cursors.get(Number(seq.trim())) : undefined;
		if (!cursor) return envelope(ctx, DATA_NOT_VALID, null);
		offset = cursor.offset;
		memberFilter = memberFilter ?? cursor.memberId;
	}

	// Only the entries of the requested page are built: members before it are skipped by their
	// entry count, and the walk stops one entry past the page (enough to know whether a next page
	// exists). Same listing, order and offsets as building the whole list, without its cost per page.
	const { pageSize, pagingEnd, stringCodes } = ctx.options;
	const store = dialect.store(ctx.state);
	const filtered = memberFilter === undefined ? undefined : store.get(memberFilter);
	const members: Iterable<[string, Map<string, string | number>]> =
		memberFilter === undefined ? store : filtered ? [[memberFilter, filtered]] : [];
	const dataList: Array<Record<string, string | number>> = [];
	let before = 0; // entries of the listing before the current member
	let more = false; // an entry exists after the page
	for (const [memberId, entries] of members) {
		if (before + entries.size <= offset) {
			before += entries.size;
			continue;
		}
		let index = before;
		for (const [key, value] of entries) {
			if (index++ < offset) continue;
			if (dataList.length === pageSize) {
				more = true;
				break;
			}
			dataList.push({ memberId, [dialect.keyField]: key, [dialect.valueField]: value });
		}
		if (more) break;
		before += entries.size;
	}
	const nextOffset = offset + dataList.length;
	const token = (): number | string => {
		const issued = ctx.cursors.issue(nextOffset, memberFilter);
		return stringCodes ? String(issued) : issued;
	};

	const value: Record<string, unknown> = {};
	if (pagingEnd === 'emptyPage') {
		// Every page with data points to a next page; only an empty page ends the listing.
		value.nextPageSeq = dataList.length > 0 ? token() : null;
	} else if (more) {
		value.nextPageSeq = token();
	} else if (pagingEnd === 'null') {
		value.nextPageSeq = null;
	} else if (pagingEnd === 'emptyString') {
		value.nextPageSeq = '';
	} // 'absent': no nextPageSeq field at all
	value.dataList = dataList;
	return envelope(ctx, 0, value);
}

interface FailRow {
	memberId: string;
	failKey: string;
	failValue: unknown;
	failCode: 'F01' | 'F02';
}

/** A body that is an object keyed by member id, at most MAX_ROWS of them; otherwise the answer (-9997 or -1004). */
function memberObject(
	ctx: RequestContext,
): { body: Record<string, unknown>; memberIds: string[] } | { reply: Reply } {
	const parsed = parseBody(ctx.rawBody);
	if (parsed.kind !== 'json' || !isPlainObject(parsed.value))
		return { reply: envelope(ctx, DATA_NOT_VALID, null) };
	const memberIds = Object.keys(parsed.value);
	if (memberIds.length > MAX_ROWS) return { reply: envelope(ctx, LIMIT_EXCEEDED, null) };
	return { body: parsed.value, memberIds };
}

/**
 * POST (register) and PUT (change): both are an upsert of each key (docs/service-rules.md#custom-data: registering an existing
 * entry updates it, and nothing says that a change of a missing entry fails, so it creates it).
 * Body: object memberId -> object key -> value. Anything else -> -9997 (nothing applied), also
 * an empty member id. More than 1000 member ids -> -1004 (nothing applied).
 * v2: processCode 0 with processValue null when every entry was stored; processCode 1 with the
 * failure rows (in request order) as soon as one entry failed, also when none was stored (the
 * spec has no code for "all failed").
 * v1: processCode 0, processValue the count of stored entries.
 */
export function writeEntries(ctx: RequestContext, dialect: Dialect): Reply {
	const read = memberObject(ctx);
	if ('reply' in read) return read.reply;
	const { body, memberIds } = read;
	if (memberIds.some((id) => id === '' || !isPlainObject(body[id])))
		return envelope(ctx, DATA_NOT_VALID, null);

	const store = dialect.store(ctx.state);
	const failures: FailRow[] = [];
	let stored = 0;
	for (const memberId of memberIds) {
		const pairs = body[memberId] as Record<string, unknown>;
		for (const [key, raw] of Object.entries(pairs)) {
			const format = ctx.state.customKeys.get(key);
			let value: string | number;
			if (format === undefined) {
				if (dialect.writeResult === 'rows') {
					failures.push({ memberId, failKey: key, failValue: raw, failCode: 'F01' });
					continue;
				}
				// Legacy v1: a key outside the registry is free text (decision: numbers become their text).
				const asString = coerceToFormat('string', raw);
				if (!asString.ok) continue;
				value = asString.value;
			} else {
				const coerced = coerceToFormat(format, raw);
				if (!coerced.ok) {
					if (dialect.writeResult === 'rows')
						failures.push({ memberId, failKey: key, failValue: raw, failCode: 'F02' });
					continue;
				}
				value = coerced.value;
			}
			let entries = store.get(memberId);
			if (!entries) {
				entries = new Map();
				store.set(memberId, entries);
			}
			entries.set(key, value);
			stored++;
		}
	}

	if (dialect.writeResult === 'count') return envelope(ctx, 0, stored);
	return failures.length > 0 ? envelope(ctx, 1, failures) : envelope(ctx, 0, null);
}

/** A delete naming a locked member is refused with that member's code (-1009/-1010); nothing is deleted. */
function lockedCode(ctx: RequestContext, memberIds: string[]): number | undefined {
	for (const id of memberIds) {
		const locked = ctx.state.lockedMembers.get(id);
		if (locked !== undefined) return locked;
	}
	return undefined;
}

/**
 * DELETE: body array of member ids (strings; anything else -> -9997). More than 1000 -> -1004.
 * Answers the number of deleted entries; unknown ids simply count 0.
 */
export function deleteMembers(ctx: RequestContext, dialect: Dialect): Reply {
	const parsed = parseBody(ctx.rawBody);
	if (parsed.kind !== 'json' || !Array.isArray(parsed.value))
		return envelope(ctx, DATA_NOT_VALID, null);
	const ids = parsed.value;
	if (ids.length > MAX_ROWS) return envelope(ctx, LIMIT_EXCEEDED, null);
	if (!ids.every((id): id is string => typeof id === 'string'))
		return envelope(ctx, DATA_NOT_VALID, null);
	return removeEntries(ctx, dialect, ids);
}

/**
 * DELETE `/data-format-name`: body object memberId -> array of keys (strings). Anything else ->
 * -9997; more than 1000 member ids -> -1004. Answers the number of deleted entries; a member left
 * without entries disappears from the listing.
 */
export function deleteKeys(ctx: RequestContext, dialect: Dialect): Reply {
	const read = memberObject(ctx);
	if ('reply' in read) return read.reply;
	const { body, memberIds } = read;
	const valid = memberIds.every((id) => {
		const keys = body[id];
		return Array.isArray(keys) && keys.every((k) => typeof k === 'string');
	});
	if (!valid) return envelope(ctx, DATA_NOT_VALID, null);
	return removeEntries(ctx, dialect, memberIds, (id) => body[id] as string[]);
}

/**
 * Removes the named members' entries (all of them, or the keys `keysOf` names; a member left
 * without entries disappears) and answers how many entries went, unless a member is locked.
 */
function removeEntries(
	ctx: RequestContext,
	dialect: Dialect,
	memberIds: string[],
	keysOf?: (id: string) => string[],
): Reply {
	const locked = lockedCode(ctx, memberIds);
	if (locked !== undefined) return envelope(ctx, locked, null);
	const store = dialect.store(ctx.state);
	let deleted = 0;
	for (const id of memberIds) {
		const entries = store.get(id);
		if (!entries) continue;
		if (!keysOf) {
			deleted += entries.size;
			store.delete(id);
			continue;
		}
		for (const key of keysOf(id)) if (entries.delete(key)) deleted++;
		if (entries.size === 0) store.delete(id);
	}
	return envelope(ctx, 0, deleted);
}
