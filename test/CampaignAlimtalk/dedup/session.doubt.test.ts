/**
 * Only a certain failure releases a key (docs/deduplication.md, "The transitions"): with
 * Retry When Delivery Is Unknown on, an attempt that reached the service and lost its answer may
 * have sent the message, whatever the later attempts say. The service is scripted per request:
 * attempt 1 is processed and its connection dropped, the retries are answered with a refusal
 * (7002, sender profile blocked), a busy code (-1005) or an account failure (1405).
 */
import type { IDataObject } from 'n8n-workflow';
import { startScripted, type Answer } from '../../support/scripted-server';
import { KEYED, dedupFixture, order, runSend } from './support';

dedupFixture();

const RETRYING = { ...KEYED, retryUnknownDelivery: true, maxRetries: 2, retryDelayMs: 0 };

/** Runs order 1 against a service whose first answer is a dropped connection after processing, then `retries`; then again against a healthy one. */
async function doubtThenAgain(retries: Answer) {
	let delivered = 0;
	let healthy = false;
	const server = await startScripted((_req, index) => {
		if (healthy) {
			delivered++;
			return { body: { code: 0 } };
		}
		if (index === 0) {
			delivered++; // processed: the message went out, the answer is lost
			return 'drop';
		}
		return retries;
	});
	try {
		const credentials = { baseUrl: server.baseUrl, apiKey: 'scripted-key' };
		const first = await runSend({ input: [order(1)], options: RETRYING, credentials });
		const tried = server.seen.length;
		healthy = true;
		const second = await runSend({ input: [order(1)], options: RETRYING, credentials });
		return { first, second, tried, delivered, again: server.seen.length - tried };
	} finally {
		await server.close();
	}
}

const failedOf = (run: { out: Array<Array<{ json: IDataObject }>> }) => run.out[1]?.[0]?.json;

describe('a doubt keeps the key, whatever the last attempt said', () => {
	it('retries answered 7002 (a refusal): delivery unknown, key kept, the redelivery sends nothing', async () => {
		const run = await doubtThenAgain({ body: { code: 7002, message: 'profile blocked' } });
		expect(run.tried).toBe(2); // the fault fired: attempt 1 dropped, the retry refused (not retried)
		expect(failedOf(run.first)).toMatchObject({
			code: '7002',
			deliveryUnknown: true,
			deduplicationKeyKept: true,
		});
		expect(run.again).toBe(0);
		expect(failedOf(run.second)).toMatchObject({ code: 'earlierSendUnconfirmed' });
		expect(run.delivered).toBe(1);
	});

	it('retries answered -1005 (busy) until they are spent: key kept, the redelivery sends nothing', async () => {
		const run = await doubtThenAgain({ body: { code: -1005, message: 'busy' } });
		expect(run.tried).toBe(3);
		expect(run.first.error?.message).toMatch(/-1005/);
		expect(run.again).toBe(0);
		expect(failedOf(run.second)).toMatchObject({ code: 'earlierSendUnconfirmed' });
		expect(run.delivered).toBe(1);
	});

	it('a retry answered with an account failure (1405): key kept, the redelivery sends nothing', async () => {
		const run = await doubtThenAgain({ status: 401, body: { code: 1405, message: 'expired' } });
		expect(run.tried).toBe(2);
		expect(run.again).toBe(0);
		expect(run.delivered).toBe(1);
	});

	it('a refusal on the first attempt is certain: the key is released and sent once the service accepts', async () => {
		let refuse = true;
		const server = await startScripted(() =>
			refuse ? { body: { code: 7002, message: 'profile blocked' } } : { body: { code: 0 } },
		);
		try {
			const credentials = { baseUrl: server.baseUrl, apiKey: 'scripted-key' };
			const first = await runSend({ input: [order(1)], options: RETRYING, credentials });
			expect(failedOf(first)).toMatchObject({ code: '7002', deduplicationKeyKept: false });
			expect(failedOf(first)?.deliveryUnknown).toBeUndefined();
			refuse = false;
			const second = await runSend({ input: [order(1)], options: RETRYING, credentials });
			expect(second.out[0][0].json).toMatchObject({ status: 'sent' });
			expect(server.seen).toHaveLength(2);
		} finally {
			await server.close();
		}
	});
});
