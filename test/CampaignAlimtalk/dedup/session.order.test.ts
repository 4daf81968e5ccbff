/**
 * The order of claims (dedup/session.ts `claim`, helpers/sending.ts): each item's key is claimed
 * just before its request, in input order, so a Send Limit's places go to the first items; the
 * items a node stopped by a failure never reached hold no claim (session.stop.test.ts: a
 * stopped execution).
 */
import { markersOf } from '../../../nodes/CampaignAlimtalk/key/markers';
import { ProcessedDataStore } from '../../support/dedup-store';
import { KEYED, WF, dedupFixture, jsonOf, order, runSend, sendsOf } from './support';

const fx = dedupFixture();
const { good } = sendsOf(fx, KEYED);
const ROW = 'n:node-under-test';

/** Whether order n's key is claimed in the row of keys now. */
const claimed = (n: number): boolean =>
	(fx.store.entries(WF, ROW) ?? []).includes(
		ProcessedDataStore.hash(markersOf(`order-${n}`, Date.now()).claim),
	);

describe('Alimtalk send, the order of claims', () => {
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

	it('a node stopped by a failure holds no claim of the items it never reached: a later run sends them', async () => {
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
});
