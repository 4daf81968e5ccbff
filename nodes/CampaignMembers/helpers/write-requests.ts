/**
 * A member write's requests: one request's rows sent and what the service did to them
 * (`sendRows`), and a write's rows sent through the one chunked write loop of
 * nodes/shared/chunks.ts, each chunk halving a refused request (halving.ts), with the outcomes in
 * input order (`sendWrite`).
 */
import type { IDataObject } from 'n8n-workflow';
import type { Failure, Outcome } from '../../shared/outcome';
import { done, errored, failed, inInputOrder, retryLater } from '../../shared/outcome';
import { writeInChunks } from '../../shared/chunks';
import type { ApiCall, CampaignClient } from '../../shared/transport';
import { ruleWords } from './advice';
import type { HalvingReport, SendOutcome } from './halving';
import { sendHalving } from './halving';
import type { MatchedFailures, SentRow } from './responses';
import { failureRowsOf, matchFailures } from './responses';

const isProcessCode = (code: string) => /^-?\d+$/.test(code);

/**
 * Sends one request of rows and says what it did to them:
 * - success (processCode 0/1): applied; the failure rows in processValue (v2) are matched to
 *   the rows sent, every other row counts as applied;
 * - a refusal of the request's data (a member code such as -1006, or -9997): `rowRefused`, so the
 *   caller halves the request to find the row that caused it;
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
	report: HalvingReport<R>,
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
 * halving a refused request to find its refused rows (halving.ts), and gives the outcomes of every item in input
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
				await sendHalving(rows, async (part) => sendRows(client, write.call(part), part)),
				write.success,
				write.identity,
			),
	});
	const refused = write.refused.map(({ index, failure }) => failed(failure, index));
	return inInputOrder([...refused, ...sent]);
}
