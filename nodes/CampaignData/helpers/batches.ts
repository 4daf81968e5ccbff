/**
 * The batch loop of every write and delete: rows in requests of at most `batchSize`, in order,
 * each request's answer turned into outcomes by its operation. A whole-call failure ends the loop
 * (continueAfterStored, results.ts): it stops the node, or under "On Error: Continue", once a
 * request was answered, the rows not yet sent carry the error.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import type { Outcome } from '../../shared/outcome';
import { chunk } from '../../shared/values';
import type { ApiCall, ApiResult, TransportSettings } from '../../shared/transport';
import { CampaignClient } from '../../shared/transport';
import { continueAfterStored } from './results';

/** One request of a batch: what to send, and what its answer means for the batch's rows. */
export interface BatchRequest {
	call: ApiCall;
	report(result: ApiResult): Outcome[];
}

export interface Batches<Row> {
	settings: TransportSettings;
	batchSize: number;
	/** The input items a row came from. */
	sources(row: Row): readonly number[];
	/** The request of one batch, built when it is sent. */
	request(batch: Row[]): BatchRequest;
}

/** Sends `rows` in batches and gives the outcomes of every request; no rows, no request. */
export async function sendInBatches<Row>(
	ctx: IExecuteFunctions,
	rows: readonly Row[],
	how: Batches<Row>,
): Promise<Outcome[]> {
	if (rows.length === 0) return [];
	const client = await CampaignClient.create(ctx, how.settings);
	const batches = chunk(rows, how.batchSize);
	const outcomes: Outcome[] = [];
	for (const [n, batch] of batches.entries()) {
		const { call, report } = how.request(batch);
		let result: ApiResult;
		try {
			result = await client.call(call);
		} catch (error) {
			const unsent = batches.slice(n).flatMap((b) => b.flatMap((row) => [...how.sources(row)]));
			outcomes.push(...continueAfterStored(ctx, n, unsent, error));
			break;
		}
		outcomes.push(...report(result));
	}
	return outcomes;
}
