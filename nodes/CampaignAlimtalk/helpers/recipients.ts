/** Recipient: Member ID, one lookup per distinct ID (docs/send-to-member.md). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { STOPPED_INFO } from '../../shared/codes';
import { MEMBER_NOT_FOUND_CODE, MEMBER_REFUSES_CODE, SEVERAL_MEMBERS_CODE } from './send-codes';
import type { ApiVersion } from '../../shared/members';
import { MEMBER_PATHS, memberRecord, recordsOf, versionOf } from '../../shared/members';
import { internationalMobile } from '../../shared/phone';
import type { ApiResult, CampaignClient } from '../../shared/transport';
import { resultWords } from '../../shared/transport';
import type { SendOptions } from './send-options';
import { runOrdered } from './pool';
import type { PendingMember, Prepared, Read } from './prepare';
import { PHONE_LENGTH } from './prepare';

/** What the lookup of one member ID gave: the records under it, or the service's refusal. */
type Lookup = { records: IDataObject[] } | { refused: ApiResult };

/** One member ID's records. Throws for a failure of the whole call. */
async function lookup(
	ctx: IExecuteFunctions,
	client: CampaignClient,
	version: ApiVersion,
	memberId: string,
	itemIndex: number,
): Promise<Lookup> {
	const call = { method: 'GET' as const, path: MEMBER_PATHS[version], qs: { memberId }, itemIndex };
	const result = await client.call(call);
	if (result.info.kind === 'rejected') return { refused: result };
	if (result.info.kind !== 'success') throw client.error(result, call);
	const records = recordsOf(result.processValue);
	if ('invalid' in records) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service sent member records the node cannot read: ${records.invalid} (expected a list of {"memberId", "phoneNumber", "isReceive", "name"})`,
			{ itemIndex, description: 'Nothing was sent: every lookup comes before the first send.' },
		);
	}
	return { records: records.map((record) => memberRecord(record, version)) };
}

/** An item's send to its member, or the Failed row that says why there is none. */
function resolve(
	pending: PendingMember,
	found: Lookup,
	version: ApiVersion,
	acceptingOnly: boolean,
): Prepared {
	const { campaignKey, memberId, properties } = pending;
	const who = `member ID ${JSON.stringify(memberId)}`;
	const fail = (
		code: string,
		message: string,
		phoneNumber: string | null = null,
		ownMessage?: string,
	): Prepared => ({
		failure: { code, message: `Not sent: ${message}`, campaignKey, memberId, phoneNumber },
		...(ownMessage === undefined ? {} : { ownMessage: `Not sent: ${ownMessage}` }),
	});
	if ('refused' in found) {
		// The service's own text stays on the Failed item; a model is told the package's words alone.
		const refused = `the lookup of ${who} was refused: `;
		const { code, info } = found.refused;
		return fail(code, refused + resultWords(found.refused), null, refused + info.message);
	}
	// Only a record of exactly the id asked for: a service that matched another spelling of it
	// (case, a prefix) would otherwise let two ids, and two Deduplication Keys, reach one member.
	const records = found.records.filter((record) => record.memberId === memberId);
	if (records.length === 0) {
		const other =
			found.records.length > 0 ? ' (the service answered records of another member ID)' : '';
		return fail(
			MEMBER_NOT_FOUND_CODE,
			`no member record has ${who} (member API ${version})${other}`,
		);
	}
	if (records.length > 1) {
		return fail(
			SEVERAL_MEMBERS_CODE,
			`${records.length} member records have ${who} (member API ${version}), so which number to send to is not known`,
		);
	}
	const stored = records[0].phoneNumber as string | null;
	if (acceptingOnly && records[0].isReceive !== true) {
		const words = `the member with ${who} does not accept messages (isReceive is false) and Only Members Who Accept Messages is on`;
		return fail(MEMBER_REFUSES_CODE, words, stored);
	}
	const phoneNumber = internationalMobile(stored);
	if (phoneNumber === undefined || phoneNumber.length !== PHONE_LENGTH) {
		const problem =
			phoneNumber === undefined
				? 'is not a Korean mobile number'
				: `gives ${phoneNumber.length} characters in the send form ("${phoneNumber}"), not ${PHONE_LENGTH}`;
		return fail(
			'7012',
			`the phone number stored for member ${JSON.stringify(memberId)} (${JSON.stringify(stored)}) ${problem}`,
			stored,
		);
	}
	return { send: { campaignKey, phoneNumber, properties, memberId } };
}

/** Throws, before any send, the first whole-call failure (no lookup starts after it) or a stop. */
export async function lookupMembers(
	ctx: IExecuteFunctions,
	client: CampaignClient,
	read: readonly Read[],
	options: Pick<SendOptions, 'concurrency' | 'acceptingMembersOnly'>,
): Promise<Prepared[]> {
	const firstItem = new Map<string, number>();
	read.forEach((entry, i) => {
		if ('member' in entry && !firstItem.has(entry.member.memberId))
			firstItem.set(entry.member.memberId, i);
	});
	if (firstItem.size === 0) return read as Prepared[];
	const version = versionOf(client.memberApiVersion);
	const ids = [...firstItem.keys()];
	let stop: unknown;
	const found = await runOrdered(
		ids.length,
		options.concurrency,
		async (n) => {
			try {
				return await lookup(ctx, client, version, ids[n], firstItem.get(ids[n]) ?? 0);
			} catch (error) {
				stop = stop ?? error;
				return undefined;
			}
		},
		{ shouldStop: () => stop !== undefined, signal: client.signal },
	);
	if (stop !== undefined) throw stop;
	const byId = new Map(ids.map((id, n) => [id, found[n]]));
	return read.map((entry) => {
		if (!('member' in entry)) return entry;
		const lookedUp = byId.get(entry.member.memberId);
		// Not looked up: the execution was stopped before its turn.
		if (lookedUp === undefined) throw new NodeOperationError(ctx.getNode(), STOPPED_INFO.message);
		return resolve(entry.member, lookedUp, version, options.acceptingMembersOnly);
	});
}
