/**
 * Claims made a pool ahead (dedup/session.ts `claimAhead`, helpers/sending.ts): the keys of the
 * next items are claimed while the current requests are out, so a request does not wait for a
 * store round; a claim made ahead that grew older than AHEAD_MS is given back and made again;
 * one the node never reached is given back (here: a node stopped by a failure;
 * session.stop.test.ts: a stopped execution).
 */
import { AHEAD_MS } from '../../../nodes/CampaignAlimtalk/dedup/session';
import { markersOf } from '../../../nodes/CampaignAlimtalk/dedup/markers';
import { ProcessedDataStore } from '../../support/dedup-store';
import { until } from '../../sandbox-tests/support';
import { KEYED, WF, dedupFixture, jsonOf, order, runSend, sendsOf } from './support';

const fx = dedupFixture();
const { good } = sendsOf(fx, KEYED);
const ROW = 'n:node-under-test';

/** Whether order n's key is claimed in the row of keys now. */
const claimed = (n: number): boolean =>
	(fx.store.entries(WF, ROW) ?? []).includes(
		ProcessedDataStore.hash(markersOf(`order-${n}`, Date.now()).claim),
	);

describe('Alimtalk send, claims a pool ahead', () => {
	it('while the first two requests are out, the keys of the next two are claimed already; each message goes out once', async () => {
		fx.sb.configure({ latencyMs: 1500 });
		const orders = [1, 2, 3, 4].map((n) => order(n));
		const run = runSend({
			input: orders,
			options: { ...KEYED, concurrency: 2 },
			credentials: good(),
		});
		await until(() => fx.sb.inFlight === 2);
		const seen = [1, 2, 3, 4].map(claimed);
		const { out } = await run;
		expect(seen).toEqual([true, true, true, true]);
		expect(jsonOf(out[0]).map((j) => j.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
		expect(fx.sb.state.sent.map((m) => m.phoneNumber)).toEqual(orders.map((o) => o.phone));
		expect([1, 2, 3, 4].map(claimed)).toEqual([false, false, false, false]);
	});

	it('claims begin in input order: with a Send Limit of 3 an hour, the first three items of ten get the places', async () => {
		const orders = Array.from({ length: 10 }, (_, n) => order(n + 1));
		const options = { ...KEYED, concurrency: 5, sendLimit: 3, sendLimitPeriod: 'hour' };
		const { out } = await runSend({ input: orders, options, credentials: good() });
		expect(jsonOf(out[0]).map((j) => j.phoneNumber)).toEqual(
			orders.slice(0, 3).map((o) => o.phone),
		);
		expect(jsonOf(out[1]).map((j) => j.code)).toEqual(Array(7).fill('sendLimitReached'));
		expect(fx.sb.state.sent.map((m) => m.phoneNumber).sort()).toEqual(
			orders
				.slice(0, 3)
				.map((o) => o.phone)
				.sort(),
		);
	});

	it('a node stopped by a failure releases the claims made ahead of the items it never reached: a later run sends them', async () => {
		// The second request is answered -1005 (not processed; a passing fault, no retries): the
		// transport throws and the node stops there.
		let requests = 0;
		fx.sb.configure({ faults: { kinds: ['code-1005'], match: () => ++requests === 2 } });
		const input = [1, 2, 3, 4].map((n) => order(n));
		const options = { ...KEYED, concurrency: 1, maxRetries: 0 };
		const first = await runSend({ input, options, credentials: good() });
		expect(jsonOf(first.out[0]).map((j) => j.phoneNumber)).toEqual([order(1).phone]);
		expect(jsonOf(first.out[1]).map((j) => [j.phoneNumber, j.code])).toEqual([
			[order(2).phone, '-1005'],
			[order(3).phone, '-1005'],
			[order(4).phone, '-1005'],
		]);
		expect(requests).toBe(2);
		// Order 3 was claimed while order 2's request was out (a pool of one): released.
		expect([2, 3, 4].map(claimed)).toEqual([false, false, false]);
		fx.sb.configure({ faults: undefined });
		const again = await runSend({ input, options, credentials: good() });
		expect(jsonOf(again.out[0]).map((j) => [j.phoneNumber, j.status])).toEqual([
			[order(1).phone, 'skipped'],
			[order(2).phone, 'sent'],
			[order(3).phone, 'sent'],
			[order(4).phone, 'sent'],
		]);
		expect(fx.sb.state.sent.map((m) => m.phoneNumber)).toEqual(input.map((o) => o.phone));
	});

	it('a claim made ahead that waited longer than AHEAD_MS for its turn is made again before its request', async () => {
		fx.sb.configure({ latencyMs: AHEAD_MS + 500 });
		// The time of every record call on the store.
		const records: number[] = [];
		const record = fx.store.checkProcessedAndRecord.bind(fx.store);
		jest.spyOn(fx.store, 'checkProcessedAndRecord').mockImplementation(async (...args) => {
			records.push(Date.now());
			return await record(...args);
		});
		try {
			const run = runSend({
				input: [order(1), order(2)],
				options: { ...KEYED, concurrency: 1 },
				credentials: good(),
			});
			// Only the first request is slow (a request keeps the settings it arrived with).
			await until(() => fx.sb.requests.length === 1);
			fx.sb.configure({ latencyMs: 0 });
			const { out } = await run;
			expect(jsonOf(out[0]).map((j) => j.status)).toEqual(['sent', 'sent']);
		} finally {
			jest.restoreAllMocks();
		}
		const [first, second] = fx.sb.requests;
		// Order 2's key was claimed with order 1's (one round), then again between the requests.
		expect(records.filter((at) => at <= first.startedAt).length).toBeGreaterThanOrEqual(1);
		expect(records.some((at) => at >= first.endedAt && at <= second.startedAt)).toBe(true);
		expect(fx.sb.state.sent).toHaveLength(2);
		expect([1, 2].map(claimed)).toEqual([false, false]);
	}, 30000);
});
