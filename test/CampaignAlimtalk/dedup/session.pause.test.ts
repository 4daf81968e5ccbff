/**
 * A send's end is written at once, not with the execution's next ask (docs/deduplication.md, "The engine"): with
 * Pause Between Requests, the next ask comes only after the pause, and a redelivery meanwhile
 * found the finished send's claim still there, waited its Timeout and was answered "in progress"
 * for a message the service had already accepted or refused.
 */
import { delay } from '../../support/node';
import { KEYED, dedupFixture, jsonOf, order, phone, sendsOf } from './support';

const fx = dedupFixture();
const { send, sentPhones } = sendsOf(fx, KEYED);

/** Execution A sends order 1, then pauses 6 s before order 2; `during` runs once order 1 ended. */
async function duringThePause<T>(during: () => Promise<T>): Promise<T> {
	const options = { ...KEYED, concurrency: 1, pauseMs: 6000 };
	const first = send([order(1), order(2)], options);
	for (let i = 0; i < 500 && fx.sb.requests.length === 0; i++) await delay(10);
	await delay(300); // the answer of order 1 is in; the pause has begun
	const result = await during();
	await first;
	return result;
}

describe('a finished send during Pause Between Requests', () => {
	it('a redelivery during the pause of a message the service accepted is a duplicate, without waiting', async () => {
		const again = await duringThePause(
			async () => await send([order(1)], { ...KEYED, timeoutMs: 1000 }),
		);
		expect(jsonOf(again.out[1])).toEqual([]);
		expect(jsonOf(again.out[0])).toEqual([expect.objectContaining({ duplicate: true })]);
		expect(sentPhones()).toEqual([phone(1), phone(2)]);
	});

	it('a redelivery during the pause of a message the service refused is sent once the cause is fixed', async () => {
		fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'], templateState: 'blocked' });
		const again = await duringThePause(async () => {
			fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
			return await send([order(1)], { ...KEYED, timeoutMs: 1000 });
		});
		expect(jsonOf(again.out[1])).toEqual([]);
		expect(jsonOf(again.out[0])).toEqual([expect.objectContaining({ status: 'sent' })]);
		expect(sentPhones()).toContain(phone(1));
	});
});
