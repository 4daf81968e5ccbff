/**
 * A stopped execution (n8n's Stop button: the engine's cancel signal aborts) while the send is
 * under way: its pauses end at once, no new request starts, a send that may have reached the
 * service is deliveryUnknown, and its Deduplication Key is kept, so a redelivery does not send it.
 */
import { delay } from '../../support/node';
import { KEYED, dedupFixture, jsonOf, order, sendsOf, runSend } from './support';

const fx = dedupFixture();
const { good, send } = sendsOf(fx, KEYED);

/** Far shorter than any pause or hang below: a run that ignored the stop fails its test. */
const ENDS_WITHIN_MS = 20000;

/** Settles once `condition` holds (checked every 20 ms). */
async function once(condition: () => boolean): Promise<void> {
	while (!condition()) await delay(20);
}

describe('Alimtalk send, execution stopped', () => {
	it(
		'a stop during the pause between requests ends the pause and starts no new request',
		async () => {
			const answered = () => fx.sb.requests.length === 1 && fx.sb.requests[0].endedAt > 0;
			const first = await runSend({
				input: [order(1), order(2), order(3)],
				options: { ...KEYED, concurrency: 1, pauseMs: 60000 },
				credentials: good(),
				stop: once(answered).then(() => delay(200)),
			});
			expect(first.run.status).toBe('canceled');
			expect(fx.sb.requests).toHaveLength(1);
			expect(fx.sb.state.sent).toHaveLength(1);
			// The items never started were not claimed: a later run sends them, and only them.
			const again = await send([order(1), order(2), order(3)]);
			expect(jsonOf(again.out[0]).map((j) => j.status)).toEqual(['skipped', 'sent', 'sent']);
			expect(fx.sb.state.sent).toHaveLength(3);
		},
		ENDS_WITHIN_MS,
	);

	it(
		'a stop while a keyed send waits for the service: deliveryUnknown, the key kept, no second send',
		async () => {
			// The service takes the message (phase "after"), then never answers.
			fx.sb.configure({ faults: { kinds: ['hang'], phase: 'after', firstN: 1 } });
			const first = await runSend({
				input: [order(1), order(2)],
				options: { ...KEYED, concurrency: 1, timeoutMs: 600000 },
				credentials: good(),
				stop: once(() => fx.sb.state.sent.length === 1).then(() => delay(200)),
			});
			expect(first.run.status).toBe('canceled');
			expect(fx.sb.requests).toHaveLength(1);
			// The send under way is Failed as deliveryUnknown; the item never started is not sent.
			expect(jsonOf(first.out[1])[0]).toMatchObject({
				code: 'EXECUTION_STOPPED',
				deliveryUnknown: true,
				deduplicationKeyKept: true,
			});
			fx.sb.configure({ faults: undefined });
			const again = await send([order(1), order(2)]);
			expect(fx.sb.state.sent.map((m) => m.phoneNumber)).toEqual([order(1).phone, order(2).phone]);
			expect(jsonOf(again.out[1])).toEqual([
				expect.objectContaining({
					code: expect.stringMatching(/^earlierSend(Unconfirmed|InProgress)$/),
					deliveryUnknown: true,
				}),
			]);
			expect(jsonOf(again.out[0])).toEqual([expect.objectContaining({ status: 'sent' })]);
		},
		ENDS_WITHIN_MS,
	);
});
