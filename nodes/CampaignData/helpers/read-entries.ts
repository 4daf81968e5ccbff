/**
 * Reading entries, for `get` (one member's entries) and `getAll` (every entry, page after page):
 * once per input item, as n8n reads do, with one output. Entries go straight from the page to the
 * list of outcomes: 200,000 entries are 200,000 small objects and nothing more.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { Outcome } from '../../shared/outcome';
import { done, errored } from '../../shared/outcome';
import { eachItem } from '../../shared/run';
import { answerText, setField } from '../../shared/values';
import { readOptions, readTransportSettings } from '../../shared/options';
import { readPages } from './paging';
import { CampaignClient } from '../../shared/transport';
import type { DataApi } from './api-versions';

type OutputFormat = 'entry' | 'member';

/**
 * The key and value of an entry, by the API version's field names, tolerant of the other's and
 * of plain key/value. An entry without a member id or a key cannot be told apart from another:
 * `invalid` says what is missing.
 */
function entryParts(
	api: DataApi,
	entry: Record<string, unknown>,
): { memberId: string; key: string; value: unknown } | { invalid: string } {
	const memberId = entry.memberId;
	const key = entry[api.keyField] ?? entry.customDataKey ?? entry.legacyDataKey ?? entry.key;
	const value =
		entry[api.valueField] ?? entry.customDataValue ?? entry.legacyDataValue ?? entry.value;
	const text = (v: unknown): string => answerText(v) ?? '';
	const missing = [
		text(memberId) === '' ? 'memberId' : '',
		text(key) === '' ? api.keyField : '',
	].filter(Boolean);
	if (missing.length > 0) {
		return {
			invalid: `An entry sent by the service has no usable ${missing.join(' and ')} (expected {"memberId", "${api.keyField}", "${api.valueField}"})`,
		};
	}
	return { memberId: text(memberId), key: text(key), value: value === undefined ? null : value };
}

/** Groups entries by member (insertion order); a key named "memberId" never overwrites the member id. */
class MemberGrouper {
	readonly members = new Map<string, IDataObject>();

	add(memberId: string, key: string, value: unknown): void {
		let json = this.members.get(memberId);
		if (!json) {
			json = { memberId };
			this.members.set(memberId, json);
		}
		setField(json, key === 'memberId' ? 'memberId (key)' : key, value);
	}
}

function readFormat(ctx: IExecuteFunctions, options: IDataObject): OutputFormat {
	const format = options.outputFormat ?? 'entry';
	if (format !== 'entry' && format !== 'member') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Option "Output Format" must be "entry" or "member" (got ${JSON.stringify(format)})`,
		);
	}
	return format;
}

/** What one input item reads (its operation says it; a problem of the item is thrown). */
export interface EntryQuery {
	/** Query of the first request (e.g. `{ memberId }`); none reads every member. */
	firstQuery?: Record<string, string>;
	/** Stop after this many entries; undefined reads to the end. */
	limit?: number;
	/** The member asked about: with One Item per Member, answered even when it has no data yet. */
	member?: string;
}

/**
 * Reads the entries `queryOf` names for each input item. A problem of one item (its query, or a
 * page that cannot be read) is that item's error (`eachItem` of run.ts decides what it becomes).
 */
export async function readEntries(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	api: DataApi,
	queryOf: (itemIndex: number) => EntryQuery,
): Promise<Outcome[]> {
	const options = readOptions(this) as IDataObject;
	const format = readFormat(this, options);
	const client = await CampaignClient.create(this, readTransportSettings(this, options));
	return await eachItem(this, items.length, async (i) => {
		const out: Outcome[] = [];
		try {
			const { firstQuery, limit, member } = queryOf(i);
			const grouper = format === 'member' ? new MemberGrouper() : undefined;
			await readPages(this, client, {
				path: api.basePath,
				firstQuery,
				limit,
				itemIndex: i,
				onEntry: (entry) => {
					const parts = entryParts(api, entry);
					if ('invalid' in parts)
						throw new NodeOperationError(this.getNode(), parts.invalid, { itemIndex: i });
					const { memberId, key, value } = parts;
					if (grouper) grouper.add(memberId, key, value);
					else out.push(done({ memberId, key, value } as IDataObject, i));
				},
			});
			if (grouper) {
				// `get` always answers for the member asked about, even when it has no data yet.
				if (member !== undefined && grouper.members.size === 0)
					grouper.members.set(member, { memberId: member });
				for (const json of grouper.members.values()) out.push(done(json, i));
			}
		} catch (error) {
			// This item's error (run.ts: an error item under "On Error: Continue", else the node
			// stops); what it read before the error is dropped.
			return [errored(error, [i])];
		}
		return out;
	});
}
