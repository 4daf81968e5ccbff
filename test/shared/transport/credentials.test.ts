/**
 * The credential's rules in the transport, through the probe node in n8n's real engine: the
 * Base URL refused or normalized, the API key refused before sending, query values encoded, and
 * the key sent only as its header and never echoed.
 */
import { nodeOf } from '../../support/engine';
import { envelope, startScripted, type ScriptedServer } from '../../support/scripted-server';
import { normalizeBaseUrl } from '../../../nodes/shared/transport';
import { API_KEY, PROBE_OPTIONS, runProbe, useProbe } from './support';

let server: ScriptedServer | undefined;
const probe = useProbe({ get: () => server, set: (started) => (server = started) });

describe('base URL rules', () => {
	it.each([
		['ftp://127.0.0.1/', 'must start with https://'],
		['http://api.example.com', 'must use https'],
		['https://user:pw@api.example.com', 'must not contain a user name or password'],
		['https://api.example.com/?x=1', 'must not contain a query'],
		['not a url', 'is not a valid URL'],
		['https://[:::]', 'is not a valid URL'],
		['https://[1:2:3:4:5:6:7:8:9]/api', 'is not a valid URL'],
		['https://[.]', 'is not a valid URL'],
		['https://[1.2.3.4::]', 'is not a valid URL'],
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

	const node = nodeOf('n', 'Node', 'test');
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
		['https://[2001:db8::1]:8443/api', 'https://[2001:db8::1]:8443/api'],
		['https://[::ffff:192.0.2.1]/', 'https://[::ffff:c000:201]'],
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
		const result = await runProbe({ method: 'GET', path: '/v2/custom' }, PROBE_OPTIONS, {
			baseUrl: server.baseUrl,
			apiKey,
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
			body: envelope(-1001, null, { message: `unknown key ${API_KEY}` }),
		}));
		expect(server?.seen[0].headers['x-api-key']).toBe(API_KEY);
		const text = JSON.stringify({
			message: error?.message,
			description: error?.description,
			context: error?.context,
		});
		expect(text).not.toContain(API_KEY);
		expect(text).toContain('[redacted]');
	});

	it('keeps it out of results that echo it', async () => {
		const { json } = await probe(() => ({
			body: envelope(-9997, null, { message: `bad ${API_KEY}` }),
		}));
		expect(JSON.stringify(json)).not.toContain(API_KEY);
		expect(json?.serviceMessage).toBe('bad [redacted]');
	});
});
