/**
 * A doubt keeps its key, whatever the retries say (docs/deduplication.md, "The transitions"),
 * through the in-process engine, the sandbox and the faithful store. With Retry When Delivery Is
 * Unknown on, attempt 1 reaches the service and its connection drops (the message went out); the
 * retries are then refused (7002, sender profile blocked: nothing sent by them) or answered with
 * an internal error (7999). The key must stay kept: a redelivery sends nothing.
 */
import { KEYED, dedupFixture, jsonOf, order, phone, sendsOf } from './support';

const fx = dedupFixture();
const DOUBTFUL = { ...KEYED, retryUnknownDelivery: true, maxRetries: 2, concurrency: 1 };
const { send } = sendsOf(fx, DOUBTFUL);
const TRIGGER = '/messages/alimtalk/trigger';

/** The first trigger request is processed, then its connection dropped; every later one is `retries`. */
function dropThen(retries: '7002' | '7999'): void {
	let triggers = 0;
	const kinds: Array<'drop' | 'code7999'> = ['drop'];
	fx.sb.configure({
		faults: {
			kinds,
			phase: 'after',
			match: (r) => {
				if (!r.path.endsWith(TRIGGER)) return false;
				triggers++;
				if (triggers === 1) return true;
				// From now on the sender profile is blocked: the service refuses with 7002.
				fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'], profileState: 'blocked' });
				kinds[0] = 'code7999';
				return retries === '7999';
			},
		},
	});
}

describe('a send whose first attempt may have gone out', () => {
	it.each(['7002', '7999'] as const)(
		'retries answered %s: the key is kept and a redelivery sends nothing (1 message in all)',
		async (retries) => {
			dropThen(retries);
			const first = await send([order(1)]);
			// The fault fired: one request processed and dropped, then the retries, none of them sent.
			const answers = fx.sb.requests.map((r) => [r.faulted ?? null, r.status]);
			expect(answers[0]).toEqual(['drop', 0]);
			expect(answers.length).toBeGreaterThan(1);
			expect(fx.sb.state.sent.map((m) => m.phoneNumber)).toEqual([phone(1)]);
			fx.sb.configure({ faults: undefined });
			fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
			const again = await send([order(1)]);
			expect(fx.sb.state.sent.map((m) => m.phoneNumber)).toEqual([phone(1)]);
			expect(jsonOf(first.out[1])).toEqual([
				expect.objectContaining({ deliveryUnknown: true, deduplicationKeyKept: true }),
			]);
			expect(jsonOf(again.out[0])).toEqual([]);
			expect(jsonOf(again.out[1])).toEqual([
				expect.objectContaining({ code: 'earlierSendUnconfirmed', deliveryUnknown: true }),
			]);
		},
	);
});
