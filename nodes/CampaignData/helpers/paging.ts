/**
 * The `nextPageSeq` loop of the paged reads (docs/service-rules.md#custom-data): page after page,
 * with an end and a loop guard. Entries are handed to a callback as they arrive, so a read of
 * hundreds of thousands of entries is never copied from list to list.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { isObject, typeName } from '../../shared/values';
import type { CampaignClient } from '../../shared/transport';

export interface PagedRead {
	path: string;
	/** Query of the first request (e.g. `{ memberId }`); the next pages send only `{ seq }` (docs/service-rules.md#custom-data). */
	firstQuery?: Record<string, string>;
	/** Stop after this many entries; undefined reads to the end. No page is requested beyond the one that fills it. */
	limit?: number;
	itemIndex: number;
	onEntry: (entry: Record<string, unknown>) => void;
}

/**
 * The next-page marker as text, or undefined at the end: null, absent, or empty text end the
 * listing (documented as a number; one sample shows a string).
 */
export function readNextPageSeq(value: unknown): string | undefined | { invalid: string } {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'number')
		return Number.isFinite(value) ? String(value) : { invalid: String(value) };
	if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
	return { invalid: JSON.stringify(value) ?? String(value) };
}

/**
 * A page's entries and marker, tolerant of a bare array instead of `{ nextPageSeq, dataList }`
 * and of no value or no dataList at all (no entries). Anything else (a text, a number, an object
 * that is no page, a dataList that is no list) is `invalid`, said in words: read as "no entries",
 * it would silently end the listing.
 */
function readPage(
	processValue: unknown,
): { dataList: unknown[]; next: unknown } | { invalid: string } {
	if (processValue === null || processValue === undefined) return { dataList: [], next: undefined };
	if (Array.isArray(processValue)) return { dataList: processValue, next: undefined };
	if (isObject(processValue) && ('dataList' in processValue || 'nextPageSeq' in processValue)) {
		const list = processValue.dataList;
		if (list === undefined || list === null)
			return { dataList: [], next: processValue.nextPageSeq };
		if (!Array.isArray(list)) return { invalid: `its dataList is ${typeName(list)}` };
		return { dataList: list, next: processValue.nextPageSeq };
	}
	return { invalid: `its processValue is ${typeName(processValue)}` };
}

/**
 * Reads pages until the end: `nextPageSeq` null, absent or empty, or an empty `dataList`. A
 * `nextPageSeq` seen before stops with an error instead of reading the same pages forever. A
 * non-success code fails the read (the transport already retried what was transient).
 */
export async function readPages(
	ctx: IExecuteFunctions,
	client: CampaignClient,
	read: PagedRead,
): Promise<void> {
	const seen = new Set<string>();
	const count: ReadSoFar = { entries: 0, pages: 0 };
	let query: Record<string, string> = read.firstQuery ?? {};
	while (read.limit === undefined || count.entries < read.limit) {
		const call = {
			method: 'GET' as const,
			path: read.path,
			qs: query,
			repeatability: 'idempotent' as const,
			itemIndex: read.itemIndex,
		};
		const result = await client.call(call);
		count.pages++;
		if (result.code !== '0') throw client.error(result, call);
		const page = readPage(result.processValue);
		if ('invalid' in page) {
			const what = `${page.invalid} (expected {"nextPageSeq": ..., "dataList": [entries]})`;
			throw unreadable(ctx, read, what, count);
		}
		if (!takeEntries(ctx, read, page.dataList, count) || page.dataList.length === 0) return;
		const seq = nextSeq(ctx, read, page.next, seen, count);
		if (seq === undefined) return;
		query = { seq };
	}
}

/** How much a read has read so far, for the words of an error. */
interface ReadSoFar {
	entries: number;
	pages: number;
}

/** An error of a page the node cannot read, saying what was read before it. */
function unreadable(
	ctx: IExecuteFunctions,
	read: PagedRead,
	what: string,
	count: ReadSoFar,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The service sent a page the node cannot read: ${what}`,
		{
			itemIndex: read.itemIndex,
			description: `${count.entries} entries were read in ${count.pages} pages before it.`,
		},
	);
}

/** Hands a page's entries to `read.onEntry`; false once the limit is reached. */
function takeEntries(
	ctx: IExecuteFunctions,
	read: PagedRead,
	dataList: unknown[],
	count: ReadSoFar,
): boolean {
	for (const [n, entry] of dataList.entries()) {
		if (!isObject(entry)) {
			const what = `entry ${n + 1} of its dataList is ${typeName(entry)} (expected an object with memberId, key and value)`;
			throw unreadable(ctx, read, what, count);
		}
		read.onEntry(entry);
		count.entries++;
		if (read.limit !== undefined && count.entries >= read.limit) return false;
	}
	return true;
}

/** The next page's marker (undefined: the last page), refused when unusable or seen before. */
function nextSeq(
	ctx: IExecuteFunctions,
	read: PagedRead,
	next: unknown,
	seen: Set<string>,
	count: ReadSoFar,
): string | undefined {
	const seq = readNextPageSeq(next);
	const before = `${count.entries} entries were read in ${count.pages} pages before`;
	if (typeof seq === 'object') {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service sent a next-page marker that cannot be used: nextPageSeq ${seq.invalid}`,
			{
				itemIndex: read.itemIndex,
				description: `${before} it. The marker should be a number or a text.`,
			},
		);
	}
	if (seq !== undefined && seen.has(seq)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service sent the same next-page marker twice (nextPageSeq "${seq}"): stopped to avoid reading the same pages forever`,
			{
				itemIndex: read.itemIndex,
				description: `${before} the repeat. Run the node again later; if it happens again, the service's paging is broken.`,
			},
		);
	}
	if (seq !== undefined) seen.add(seq);
	return seq;
}
