/**
 * The send's requests in flight through the real engine: Concurrency and its default, Pause
 * Between Requests, and the output in input order whatever the completion order. The pool on
 * its own is in pool.test.ts.
 */
import { pairedIndexes } from '../support';
import { http, timer } from '../support/node';
import { phone, useSendFixture } from './support';

const { sb, send } = useSendFixture();

describe('Campaign Alimtalk send', () => {
	// Each request is held 250 ms, long enough for a whole pool to arrive on a loaded machine (at
	// 40 ms one run of `npm test` saw 4 of 5 at once).
	it('keeps at most `concurrency` requests in flight, and more than one', async () => {
		sb.configure({ latencyMs: 250 });
		const input = Array.from({ length: 20 }, (_, i) => ({
			campaign: 'WELCOME',
			phone: phone(i),
			name: 'x',
		}));
		await send(input, { options: { concurrency: 5 } });
		expect(sb.maxInFlight).toBe(5);
		sb.reset();
		await send(input.slice(0, 6), { options: { concurrency: 1 } });
		expect(sb.maxInFlight).toBe(1);
	});

	it('keeps 5 requests in flight when Concurrency is not set (the default)', async () => {
		sb.configure({ latencyMs: 250 });
		const input = Array.from({ length: 12 }, (_, i) => ({
			campaign: 'WELCOME',
			phone: phone(i),
			name: 'x',
		}));
		const { out } = await send(input);
		expect(sb.maxInFlight).toBe(5);
		expect(out[0]).toHaveLength(12);
	});

	it('with Pause Between Requests, sends every item, one request at a time (the pause itself: pool.test.ts)', async () => {
		const input = Array.from({ length: 3 }, (_, i) => ({
			campaign: 'WELCOME',
			phone: phone(i),
			name: 'x',
		}));
		const { out, error } = await send(input, { options: { concurrency: 1, pauseMs: 120 } });
		expect(error).toBeUndefined();
		expect(out[0]).toHaveLength(3);
		expect(pairedIndexes(out[0])).toEqual([0, 1, 2]);
		const posts = sb.requests.filter((r) => r.path === '/messages/alimtalk/trigger');
		expect(
			posts.map((r) => (r.body as { users: Array<{ phoneNumber: string }> }).users[0].phoneNumber),
		).toEqual(input.map((i) => i.phone));
		expect(sb.maxInFlight).toBe(1);
	});

	it('outputs in input order whatever the completion order', async () => {
		// Earlier items answer later: completion order is the reverse of input order.
		const delays = [120, 90, 60, 30, 0];
		let n = 0;
		const finished: string[] = [];
		const srv = http.createServer((req, res) => {
			let body = '';
			req.on('data', (c: Buffer) => (body += c.toString()));
			req.on('end', () => {
				const phoneNumber = (JSON.parse(body) as { users: Array<{ phoneNumber: string }> }).users[0]
					.phoneNumber;
				const index = n++;
				timer(delays[index % delays.length], () => {
					finished.push(phoneNumber);
					res.setHeader('content-type', 'application/json');
					res.end(JSON.stringify({ code: 0 }));
				});
			});
		});
		await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
		const port = (srv.address() as { port: number }).port;
		const input = Array.from({ length: 5 }, (_, i) => ({
			campaign: 'WELCOME',
			phone: phone(i),
			name: 'x',
		}));
		const { out } = await send(
			input,
			{ options: { concurrency: 5 } },
			{ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k' },
		);
		await new Promise<void>((r) => srv.close(() => r()));
		expect(finished).toEqual(input.map((i) => i.phone).reverse());
		expect(out[0].map((i) => i.json.phoneNumber)).toEqual(input.map((i) => i.phone));
		expect(pairedIndexes(out[0])).toEqual([0, 1, 2, 3, 4]);
	});
});
