/**
 * What every member operation shares: opening the client with the version guard, the option
 * properties, turning one answer of the service into a `SendOutcome`, and a write's requests in
 * chunks and its outcomes from the isolation reports.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { readBatchSize, readOptions, readTransportSettings } from '../../shared/options';
import type { Failure, Outcome } from '../../shared/outcome';
import { done, errored, failed, inInputOrder, retryLater } from '../../shared/outcome';
import { writeInChunks } from '../../shared/chunks';
import type { ApiCall } from '../../shared/transport';
import { CampaignClient } from '../../shared/transport';
import type { ApiVersion, MemberDialect } from './dialects';
import { DIALECTS, ruleWords } from './dialects';
import type { IsolationReport, SendOutcome } from './isolate';
import { sendIsolating } from './isolate';
import type { MatchedFailures, SentRow } from './responses';
import { failureRowsOf, matchFailures } from './responses';

export const normalizePhoneOption: INodeProperties = {
	displayName: 'Normalize Phone Numbers',
	name: 'normalizePhoneNumbers',
	type: 'boolean',
	default: true,
	description:
		'Whether to convert Korean mobile numbers such as 01012345678, 010 1234 5678 or +82 10-1234-5678 to the hyphenated form 010-1234-5678 before sending. A value that cannot be a mobile number is not sent: its item goes to the Failed output.',
};

/** The phone number parameter of an operation, with its own words and, for a write, required. */
export function phoneNumberField(
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		placeholder: '010-1234-5678',
		description,
		...extra,
	};
}

export interface MembersContext {
	client: CampaignClient;
	dialect: MemberDialect;
	options: Record<string, unknown>;
	normalize: boolean;
}

/**
 * Fails when the credential pins the account to the other member API (docs/service-rules.md#members: v1 and v2
 * must not be used together). Called before anything is sent.
 */
export function assertVersionAllowed(
	node: INode,
	credentialVersion: 'any' | ApiVersion,
	nodeVersion: ApiVersion,
): void {
	if (credentialVersion === 'any' || credentialVersion === nodeVersion) return;
	throw new NodeOperationError(
		node,
		`This node uses member API ${nodeVersion}, but its Campaign API credential is set to member API ${credentialVersion} only`,
		{
			description: `The service forbids using member API v1 and v2 together on one account, so nothing was sent. Set "API Version" of this node to ${credentialVersion.toUpperCase()}, or, if the account really uses ${nodeVersion}, change "Member API Version" in the credential to ${nodeVersion.toUpperCase()} Only.`,
		},
	);
}

export async function openMembers(ctx: IExecuteFunctions): Promise<MembersContext> {
	const version = ctx.getNodeParameter('apiVersion', 0, 'v2') as unknown;
	if (version !== 'v1' && version !== 'v2') {
		throw new NodeOperationError(
			ctx.getNode(),
			`API Version must be v1 or v2 (got ${JSON.stringify(version)})`,
		);
	}
	const options = readOptions(ctx);
	const settings = readTransportSettings(ctx, options);
	const client = await CampaignClient.create(ctx, settings);
	assertVersionAllowed(ctx.getNode(), client.memberApiVersion, version);
	return {
		client,
		dialect: DIALECTS[version],
		options,
		normalize: options.normalizePhoneNumbers !== false,
	};
}

/** A write's context: the members context and the Batch Size, read before any row. */
export interface WriteContext extends MembersContext {
	batchSize: number;
}

export async function openWrite(ctx: IExecuteFunctions): Promise<WriteContext> {
	const members = await openMembers(ctx);
	return { ...members, batchSize: readBatchSize(ctx, members.options) };
}

const isProcessCode = (code: string) => /^-?\d+$/.test(code);

/**
 * Sends one request of rows and says what it did to them:
 * - success (processCode 0/1): applied; the failure rows in processValue (v2) are matched to
 *   the rows sent, every other row counts as applied;
 * - a refusal of the request's data (a member code such as -1006, or -9997): `rowRefused`, so the
 *   caller isolates the row that caused it;
 * - a delete refused for now (-1009/-1010): every row fails with `retryAfter`;
 * - anything else (the data limit -1004, an HTTP error without an envelope): a whole-call error.
 * Account failures and passing faults after the retries are thrown by the transport itself.
 */
export async function sendRows<R extends SentRow>(
	client: CampaignClient,
	call: ApiCall,
	rows: R[],
): Promise<SendOutcome<R>> {
	const result = await client.call(call);
	const { info, code } = result;
	if (info.kind === 'success') {
		const { matched, unmatched }: MatchedFailures<R> = matchFailures(
			failureRowsOf(result.processValue),
			rows,
		);
		return { kind: 'applied', failures: matched, unmatched };
	}
	if (info.kind === 'rejected' && isProcessCode(code)) {
		return {
			kind: 'rowRefused',
			failure: { code, message: ruleWords(code, result.serviceMessage) },
		};
	}
	const later = retryLater(result);
	if (later !== undefined) {
		return {
			kind: 'allFailed',
			failure: {
				code,
				message: `${ruleWords(code, result.serviceMessage)}. ${info.hint}`,
				...later,
			},
		};
	}
	throw client.error(result, call);
}

/**
 * The outcomes of one chunk's requests (a row stored, a row refused, a failure naming no row sent
 * against the rows of its request, the rows not sent after a request failed as a whole).
 */
function chunkOutcomes<R extends SentRow>(
	report: IsolationReport<R>,
	success: (row: R) => IDataObject,
	identity: (row: R) => IDataObject,
): Outcome[] {
	const outcomes = report.succeeded.map((row) => done(success(row), row.index));
	for (const { row, failure } of report.failed)
		outcomes.push(failed({ ...failure, ...identity(row) }, row.index));
	for (const { rows, failure } of report.unmatched) {
		outcomes.push(
			failed(
				failure,
				rows.map((row) => row.index),
			),
		);
	}
	if (report.stopped) {
		const { error, rows } = report.stopped;
		outcomes.push(
			errored(
				error,
				rows.map((row) => row.index),
			),
		);
	}
	return outcomes;
}

/** A write once its items are read: what was refused before sending, and what to send and how. */
export interface MemberWrite<R extends SentRow> {
	refused: Array<{ index: number; failure: Failure }>;
	/** The rows to send, in the order they are decided. */
	pending: R[];
	/** How many rows one request carries. */
	batchSize: number;
	/** The request carrying these rows. */
	call(part: R[]): ApiCall;
	/** The item of a row the service applied. */
	success(row: R): IDataObject;
	/** The fields naming a row in its failure. */
	identity(row: R): IDataObject;
}

/**
 * Sends a write's rows through the one chunked write loop (nodes/shared/chunks.ts), each chunk
 * isolating a refused row (helpers/isolate.ts), and gives the outcomes of every item in input
 * order: the rows refused before sending, then what the requests did. Sorting is stable, so each
 * output keeps the order rows were decided in.
 */
export async function sendWrite<R extends SentRow>(
	client: CampaignClient,
	write: MemberWrite<R>,
): Promise<Outcome[]> {
	const sent = await writeInChunks({
		rows: write.pending,
		size: write.batchSize,
		inputsOf: (row) => [row.index],
		send: async (rows) =>
			chunkOutcomes(
				await sendIsolating(rows, async (part) => sendRows(client, write.call(part), part)),
				write.success,
				write.identity,
			),
	});
	const refused = write.refused.map(({ index, failure }) => failed(failure, index));
	return inInputOrder([...refused, ...sent]);
}
