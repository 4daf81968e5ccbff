import type { IDataObject } from 'n8n-workflow';
import { FAST, runNode } from '../support';
import {
	envelope,
	startScripted,
	type Answer,
	type ScriptedServer,
} from '../support/scripted-server';
import { PROBE_TYPE, probeNode } from './probe-node';
import { CODES } from '../../nodes/shared/codes';
import { MAX_BACKOFF_MS, backoffDelay, normalizeBaseUrl } from '../../nodes/shared/transport';

const KEY = ['transport', 'test', 'key', '1234'].join('-');
const PROBE_OPTIONS = { ...FAST, maxRetries: 3, timeoutMs: 2000 };

let server: ScriptedServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function probe(
	answers: (index: number) => Answer,
	call: IDataObject = { method: 'GET', path: '/v2/custom' },
	options: IDataObject = PROBE_OPTIONS,
	/** The Base URL, or how to make it from the scripted server's address. */
	baseUrl?: string | ((serverUrl: string) => string),
) {
	server = await startScripted((_req, index) => answers(index));
	if (typeof baseUrl === 'function') baseUrl = baseUrl(server.baseUrl);
	const result = await runNode({
		type: PROBE_TYPE,
		extraTypes: { [PROBE_TYPE]: probeNode },
		parameters: { call: JSON.stringify(call), options: JSON.stringify(options) },
		input: [{}],
		credentials: { baseUrl: baseUrl ?? `${server.baseUrl}/`, apiKey: KEY },
	});
	return { ...result, json: result.out[0]?.[0]?.json, requests: server.seen.length };
}

describe('envelope parsing is tolerant', () => {
	it.each([
		['a number', 0],
		['a numeric string', '0'],
		['a padded numeric string', ' 0 '],
	])('reads processCode given as %s', async (_label, code) => {
		const { json } = await probe(() => ({ body: envelope(code, { ok: true }) }));
		expect(json).toMatchObject({ code: '0', kind: 'success', processValue: { ok: true } });
	});

	it('reads httpStatus.code as a string and its "col" misspelling without letting them decide', async () => {
		const asString = await probe(() => ({
			body: { httpStatus: { code: '200' }, processCode: '1', processValue: [] },
		}));
		expect(asString.json).toMatchObject({ code: '1', kind: 'success' });
		await server?.close();
		const col = await probe(() => ({
			body: { httpStatus: { col: 200, reasonPhrase: 'OK' }, processCode: 0 },
		}));
		expect(col.json).toMatchObject({ code: '0', processValue: null });
	});

	it('accepts a missing processValue', async () => {
		const { json } = await probe(() => ({ body: { processCode: 0 } }));
		expect(json).toMatchObject({ code: '0', processValue: null });
	});

	it('lets the envelope code decide over the HTTP status (a v1 -1006 sent as HTTP 503)', async () => {
		const { json, requests } = await probe(() => ({ status: 503, body: envelope(-1006) }));
		expect(json).toMatchObject({ code: '-1006', kind: 'rejected', httpStatus: 503 });
		expect(requests).toBe(1);
	});

	it('treats a send answered 200 with an empty body as success when the envelope is optional', async () => {
		const { json } = await probe(() => ({ status: 200, body: '' }), {
			method: 'POST',
			path: '/messages/alimtalk/trigger',
			body: {},
			safety: 'unsafe',
			envelope: 'optional',
		});
		expect(json).toMatchObject({ code: '0', kind: 'success' });
	});

	it('reads the flat {code, message} shape of the send', async () => {
		const { json } = await probe(() => ({ status: 400, body: { code: 7012, message: 'length' } }), {
			method: 'POST',
			path: '/messages/alimtalk/trigger',
			body: {},
			safety: 'unsafe',
			envelope: 'optional',
		});
		expect(json).toMatchObject({ code: '7012', kind: 'rejected', serviceMessage: 'length' });
	});

	it('reports an unknown code as unknown instead of guessing', async () => {
		const { json } = await probe(() => ({ body: envelope(-4242) }));
		expect(json).toMatchObject({ code: '-4242', kind: 'rejected' });
		expect(String(json?.message)).toContain('unknown code -4242');
	});
});

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
		const result = await runNode({
			type: PROBE_TYPE,
			extraTypes: { [PROBE_TYPE]: probeNode },
			parameters: {
				call: JSON.stringify({
					method: 'POST',
					path: '/messages/alimtalk/trigger',
					body: {},
					safety: 'unsafe',
				}),
				options: JSON.stringify({ ...PROBE_OPTIONS, maxRetries: 2 }),
			},
			input: [{}],
			credentials: { baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY },
		});
		expect(result.error?.message).toContain('the connection was refused');
		expect(result.error?.message).toContain('after 3 attempts');
	});
});

describe('sends that may have been delivered are not repeated', () => {
	const send = {
		method: 'POST',
		path: '/messages/alimtalk/trigger',
		body: {},
		safety: 'unsafe',
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

describe('base URL rules', () => {
	it.each([
		['ftp://127.0.0.1/', 'must start with https://'],
		['http://api.example.com', 'must use https'],
		['https://user:pw@api.example.com', 'must not contain a user name or password'],
		['https://api.example.com/?x=1', 'must not contain a query'],
		['not a url', 'is not a valid URL'],
		['', 'is empty'],
	])('refuses %j', async (baseUrl, words) => {
		const { error, requests } = await probe(
			() => ({ body: envelope(0) }),
			undefined,
			PROBE_OPTIONS,
			baseUrl,
		);
		expect(requests).toBe(0);
		expect(error?.message).toContain(words);
	});

	const node = {
		id: 'n',
		name: 'Node',
		type: 'test',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as Parameters<typeof normalizeBaseUrl>[1];
	it.each([
		'https://api.example.com/prefix/../../admin',
		'https://api.example.com/a/%2e%2e/b',
		'https://api.example.com/a/.%2E/b',
		'https://api.example.com/./api',
		'https://api.example.com\\..\\admin',
		'http://127.0.0.1:8080/v/../x',
	])('refuses the path escape in %j (checked before URL parsing resolves it away)', (baseUrl) => {
		expect(() => normalizeBaseUrl(baseUrl, node)).toThrow(
			'must not contain "." or ".." path segments',
		);
	});

	it.each([
		['https://api.example.com', 'https://api.example.com'],
		['  https://api.example.com/prefix//  ', 'https://api.example.com/prefix'],
		['https://api.example.com:8443/v..1/a.b', 'https://api.example.com:8443/v..1/a.b'],
		['http://localhost:5678/', 'http://localhost:5678'],
		['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
		['http://[::1]:8787/', 'http://[::1]:8787'],
	])('accepts %j as %j (http only for the local host)', (baseUrl, expected) => {
		expect(normalizeBaseUrl(baseUrl, node)).toBe(expected);
	});

	it('tolerates trailing slashes and keeps a path prefix', async () => {
		const { json } = await probe(
			() => ({ body: envelope(0) }),
			undefined,
			PROBE_OPTIONS,
			(url) => `${url}/gateway/campaign-api//`,
		);
		expect(json).toMatchObject({ code: '0' });
		expect(server?.seen.map((s) => s.url)).toEqual(['/gateway/campaign-api/v2/custom']);
	});
});

describe('API key rules', () => {
	it.each([
		['empty', '', 'API Key in the Campaign API credential is empty'],
		['with a line break (header injection)', 'abc\r\nX-Evil: 1', 'contains a line break'],
	])('refuses a key that is %s before sending', async (_label, apiKey, words) => {
		server = await startScripted(() => ({ body: envelope(0) }));
		const result = await runNode({
			type: PROBE_TYPE,
			extraTypes: { [PROBE_TYPE]: probeNode },
			parameters: {
				call: JSON.stringify({ method: 'GET', path: '/v2/custom' }),
				options: JSON.stringify(PROBE_OPTIONS),
			},
			input: [{}],
			credentials: { baseUrl: server.baseUrl, apiKey },
		});
		expect(server.seen).toHaveLength(0);
		expect(result.error?.message).toContain(words);
		expect(result.error?.message).not.toContain('X-Evil');
	});

	it('encodes query values whatever they contain', async () => {
		const { json } = await probe(() => ({ body: envelope(0) }), {
			method: 'GET',
			path: '/v2/custom',
			qs: { memberId: 'a&b=c #d 김' },
		});
		expect(json).toMatchObject({ code: '0' });
		const url = new URL(server?.seen[0].url ?? '', 'http://x');
		expect(url.searchParams.get('memberId')).toBe('a&b=c #d 김');
		expect([...url.searchParams.keys()]).toEqual(['memberId']);
	});
});

describe('the API key never leaks', () => {
	it('sends it only as the x-api-key header and redacts it from messages', async () => {
		const { error } = await probe(() => ({
			body: envelope(-1001, null, { message: `unknown key ${KEY}` }),
		}));
		expect(server?.seen[0].headers['x-api-key']).toBe(KEY);
		const text = JSON.stringify({
			message: error?.message,
			description: error?.description,
			context: error?.context,
		});
		expect(text).not.toContain(KEY);
		expect(text).toContain('[redacted]');
	});

	it('keeps it out of results that echo it', async () => {
		const { json } = await probe(() => ({
			body: envelope(-9997, null, { message: `bad ${KEY}` }),
		}));
		expect(JSON.stringify(json)).not.toContain(KEY);
		expect(json?.serviceMessage).toBe('bad [redacted]');
	});
});

describe('the code table', () => {
	const spec = [
		0, 1, -1000, -1001, -1002, -1003, -1004, -1005, -1006, -1007, -1009, -1010, -1012, -1013, -9997,
		-9998, -9999, 1101, 1102, 1201, 1202, 1203, 1204, 1401, 1402, 1403, 1404, 1405, 2000, 7001,
		7002, 7003, 7004, 7005, 7006, 7007, 7008, 7009, 7010, 7011, 7012, 7997, 7998, 7999,
	];
	it('has plain words and a hint for every code of spec section 7', () => {
		for (const code of spec) {
			const info = CODES[String(code)];
			expect(info).toBeDefined();
			expect(info.message.length).toBeGreaterThan(5);
			if (info.kind !== 'success') expect(info.hint.length).toBeGreaterThan(5);
		}
	});
});
