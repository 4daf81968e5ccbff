/** Keys are claimed just before each request; a failure that stops the node ends new sends. */
import type { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { ApiResult, CampaignClient } from '../../shared/transport';
import type { DedupSession } from '../session/session';
import { keyFate } from '../key/fate';
import type { SendOptions } from './send-options';
import type { Prepared, PreparedSend } from './prepare';
import { runOrdered } from './pool';

export const TRIGGER_PATH = '/messages/alimtalk/trigger';

/** What the sends gave: each item's answer or failure (undefined: not sent), in input order. */
export interface Sent {
	results: Array<ApiResult | NodeApiError | NodeOperationError | undefined>;
	/** The first failure that stopped the node: the transport's (retries spent) or the store's. */
	stop?: NodeApiError | NodeOperationError;
	count: number;
}

async function request(
	client: CampaignClient,
	{ campaignKey, phoneNumber, properties }: PreparedSend,
	retryUnknownDelivery: boolean,
	itemIndex: number,
): Promise<ApiResult> {
	return await client.call({
		method: 'POST',
		path: TRIGGER_PATH,
		body: { campaignKey, users: [{ phoneNumber, properties }] },
		repeatability: 'unsafe',
		retryUnknownDelivery,
		envelope: 'optional',
		itemIndex,
	});
}

/** Sends every prepared item that passes its claim, at most `concurrency` at once. */
export async function sendAll(
	client: CampaignClient,
	prepared: readonly Prepared[],
	dedup: DedupSession | undefined,
	options: Pick<SendOptions, 'concurrency' | 'pauseMs' | 'retryUnknownDelivery'>,
): Promise<Sent> {
	const sent: Sent = { results: [], count: 0 };
	const stopWith = (error: unknown) => {
		const failure = error as NodeApiError | NodeOperationError;
		sent.stop = sent.stop ?? failure;
		return failure;
	};
	sent.results = await runOrdered(
		prepared.length,
		options.concurrency,
		async (i) => {
			const entry = prepared[i];
			if (!('send' in entry)) return undefined;
			try {
				if (dedup && !(await dedup.claim(i))) return undefined;
			} catch (error) {
				return stopWith(error);
			}
			let result: ApiResult;
			try {
				result = await request(client, entry.send, options.retryUnknownDelivery, i);
			} catch (error) {
				dedup?.finish(i, keyFate(error as Error));
				return stopWith(error);
			}
			dedup?.finish(i, keyFate(result));
			if (result.code === '0') sent.count++;
			return result;
		},
		{ pauseMs: options.pauseMs, shouldStop: () => sent.stop !== undefined, signal: client.signal },
	);
	return sent;
}
