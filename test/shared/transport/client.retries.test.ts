/**
 * What the transport retries, through the probe node in n8n's real engine: transient answers
 * and dropped or refused connections, never an account failure nor a send that may have been
 * delivered (unless the caller accepts duplicates), and the backoff between attempts.
 */
import { envelope, startScripted, type Answer } from '../../support/scripted-server';
import { MAX_BACKOFF_MS, backoffDelay } from '../../../nodes/shared/transport';
import { API_KEY, PROBE_OPTIONS, runProbe, useProbe } from './support';

const probe = useProbe();

describe('retries', () => {
	it.each([
		['an HTML 502 page', { status: 502, body: '<html><body>Bad gateway</body></html>' }],
		['an HTML 500 page', { status: 500, body: '<html>oops</html>' }],
		['an empty 200 body', { status: 200, body: '' }],
		['truncated JSON', { status: 200, body: '{"processCode": 0, "proc' }],
		['-9999', { body: envelope(-9999) }],
		['-9998', { body: envelope(-9998) }],
		['-1005 (process in progress)', { body: envelope(-1005) }],
		['HTTP 429', { status: 429, body: '' }],
		['a dropped connection', 'drop' as const],
	])('retries %s and then succeeds', async (_label, fault) => {
		const { json, requests } = await probe((i) =>
			i < 2 ? (fault as Answer) : { body: envelope(0) },
		);
		expect(json).toMatchObject({ code: '0', attempts: 3 });
		expect(requests).toBe(3);
	});

	it('stops after maxRetries and fails the node with the code and the attempts', async () => {
		const { error, requests } = await probe(
			() => ({ status: 502, body: '<html>Bad gateway</html>' }),
			undefined,
			{
				...PROBE_OPTIONS,
				maxRetries: 2,
			},
		);
		expect(requests).toBe(3);
		expect(error?.message).toContain('HTTP 502');
		expect(error?.message).toContain('after 3 attempts');
	});

	it('never retries an account failure', async () => {
		const { error, requests } = await probe(() => ({ body: envelope(-1001) }));
		expect(requests).toBe(1);
		expect(error?.message).toBe('The customer does not exist (wrong API key?) (code -1001)');
	});

	it('honours maxRetries 0', async () => {
		const { requests, error } = await probe(() => ({ body: envelope(-9999) }), undefined, {
			...PROBE_OPTIONS,
			maxRetries: 0,
		});
		expect(requests).toBe(1);
		expect(error?.message).toContain('-9999');
	});

	it('retries a refused connection (the request never left), for a send too', async () => {
		const closed = await startScripted(() => ({ body: '' }));
		const port = new URL(closed.baseUrl).port;
		await closed.close();
		const result = await runProbe(
			{ method: 'POST', path: '/messages/alimtalk/trigger', body: {}, repeatability: 'unsafe' },
			{ ...PROBE_OPTIONS, maxRetries: 2 },
			{ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY },
		);
		expect(result.error?.message).toContain('the connection was refused');
		expect(result.error?.message).toContain('after 3 attempts');
	});
});

describe('sends that may have been delivered are not repeated', () => {
	const send = {
		method: 'POST',
		path: '/messages/alimtalk/trigger',
		body: {},
		repeatability: 'unsafe',
		envelope: 'optional',
	};

	it.each([
		['a dropped connection', 'drop' as const, 'ECONNRESET'],
		['HTTP 500 without an envelope', { status: 500, body: '<html>x</html>' }, 'HTTP_500'],
		['code 2000', { status: 500, body: { code: 2000 } }, '2000'],
		['code 7998', { status: 500, body: { code: 7998 } }, '7998'],
		['code 7999', { status: 500, body: { code: 7999 } }, '7999'],
	])('reports %s as delivery unknown after one request', async (_label, answer, code) => {
		const { json, requests } = await probe(() => answer as Answer, send);
		expect(requests).toBe(1);
		expect(json).toMatchObject({ code, deliveryUnknown: true });
	});

	it('repeats them when the caller accepts duplicates', async () => {
		const { json, requests } = await probe(
			(i) => (i === 0 ? { status: 500, body: { code: 2000 } } : { body: { code: 0 } }),
			{
				...send,
				retryUnknownDelivery: true,
			},
		);
		expect(requests).toBe(2);
		expect(json).toMatchObject({ code: '0', deliveryUnknown: false });
	});

	it('times out a hanging server and reports delivery unknown', async () => {
		const { json, requests } = await probe(() => 'hang', send, {
			...PROBE_OPTIONS,
			timeoutMs: 1000,
		});
		expect(requests).toBe(1);
		expect(json).toMatchObject({ code: 'ETIMEDOUT', deliveryUnknown: true });
	});

	it('times out a hanging server on a read, retries, and fails clearly', async () => {
		const { error, requests } = await probe(() => 'hang', undefined, {
			...PROBE_OPTIONS,
			timeoutMs: 1000,
			maxRetries: 1,
		});
		expect(requests).toBe(2);
		expect(error?.message).toContain('the request timed out');
	});
});

describe('backoff between retries', () => {
	it('doubles with each retry, half fixed and half random (equal jitter)', () => {
		for (const attempt of [1, 2, 3, 4]) {
			const full = 1000 * 2 ** (attempt - 1);
			expect(backoffDelay(attempt, 1000, undefined, 0)).toBe(full / 2);
			expect(backoffDelay(attempt, 1000, undefined, 0.5)).toBe(full * 0.75);
			expect(backoffDelay(attempt, 1000, undefined, 0.999999)).toBeCloseTo(full, 0);
		}
	});

	it('waits at least what Retry-After asks (seconds), and never more than the cap', () => {
		expect(backoffDelay(1, 1000, '5', 0)).toBe(5000);
		expect(backoffDelay(1, 1000, 5, 0.9)).toBe(5000);
		expect(backoffDelay(4, 1000, '1', 0.9)).toBe(7600); // the backoff (8 s, 95 %) is longer than Retry-After's 1 s
		for (const junk of ['soon', '-3', '', null, 'Wed, 21 Oct 2015 07:28:00 GMT'])
			expect(backoffDelay(1, 1000, junk, 0)).toBe(500);
		expect(backoffDelay(20, 1000, undefined, 0.5)).toBe(MAX_BACKOFF_MS);
		expect(backoffDelay(1, 1000, '3600', 0)).toBe(MAX_BACKOFF_MS);
	});

	it('does not wait when Retry Delay is 0 (whatever the attempt)', () => {
		expect(backoffDelay(3, 0, undefined, 0.7)).toBe(0);
	});
});
