/**
 * The credential test, run the way n8n's CredentialsTester runs a declarative test: the
 * credential's `test.request` becomes the routing of a temporary node, executed by the real
 * engine (RoutingNode) with the credential applied, then `test.rules` are checked in order.
 */
import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	INodeType,
} from 'n8n-workflow';
import { loadPackage, runNode, useSandbox } from '../support';
import { normalizeBaseUrl } from '../../nodes/shared/transport';
import { startScripted } from '../support/scripted-server';

async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const credential = loadPackage().credentials.get('campaignApi');
	const test = credential?.test as ICredentialTestRequest;
	const probe: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Test' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'campaignApi', required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: test.request },
				},
			],
		},
	};
	const result = await runNode({
		type: 'test.credentialTest',
		extraTypes: { 'test.credentialTest': probe },
		parameters: {},
		input: [{}],
		credentials: data,
	});
	// As n8n's CredentialsTester does: status rules on an HTTP error, body rules (a lodash-style
	// path) on a success, each checked by its type whichever list it came in.
	const rules = (test.rules ?? []) as Array<
		IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody
	>;
	if (result.error) {
		const error = result.error as {
			httpCode?: string;
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		// n8n's tester reads the status from the thrown error's cause (the HTTP client's error); the
		// run data of an execution keeps the same status as the NodeApiError's httpCode.
		const status =
			error.cause?.response?.status ?? (error.httpCode ? Number(error.httpCode) : undefined);
		if (status !== undefined && Number.isInteger(status)) {
			for (const rule of rules) {
				if (rule.type === 'responseCode' && rule.properties.value === status)
					return { status: 'Error', message: rule.properties.message };
			}
			if (status < 200 || status > 299)
				return {
					status: 'Error',
					message: error.cause?.response?.statusText || `Received HTTP status code: ${status}`,
				};
		}
		const cause = error.cause;
		return { status: 'Error', message: cause?.code ?? result.error.message };
	}
	const body = result.out[0][0].json;
	const at = (path: string) =>
		path
			.split('.')
			.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body);
	for (const rule of rules) {
		if (rule.type === 'responseSuccessBody' && at(rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

describe('credential test', () => {
	const sb = useSandbox({
		accounts: {
			'unapproved-key': 'unapproved',
			'expired-key': 'expired',
			'unregistered-key': 'unregistered',
		},
	});

	it('passes for a working key, with a trailing slash on the base URL', async () => {
		expect(await testCredential({ baseUrl: `${sb.baseUrl}//`, apiKey: sb.apiKey })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const last = sb.requests[sb.requests.length - 1];
		expect(last.path).toBe('/v2/custom');
		expect(last.headers['x-api-key']).toBe('[redacted]');
	});

	it.each([
		['a wrong key', 'no-such-key', 'The customer does not exist (wrong API key?) (code -1001)'],
		['a missing key', '', 'The x-api-key header is missing (code -1000)'],
		[
			'an unapproved customer',
			'unapproved-key',
			'The customer account is not approved yet (code -1002)',
		],
		['an expired customer', 'expired-key', 'The customer contract period has expired (code -1003)'],
		[
			'an unregistered customer',
			'unregistered-key',
			'The customer does not exist (wrong API key?) (code -1001)',
		],
	])('fails with the service meaning for %s', async (_label, apiKey, message) => {
		const result = await testCredential({ baseUrl: sb.baseUrl, apiKey });
		expect(result.status).toBe('Error');
		expect(result.message.startsWith(message)).toBe(true);
	});

	it('recognises codes sent as strings', async () => {
		sb.configure({ stringCodes: true });
		const result = await testCredential({ baseUrl: sb.baseUrl, apiKey: 'expired-key' });
		expect(result.message).toContain('code -1003');
	});

	it('has a rule for every account code, under processCode and under the send family field code', () => {
		const rules = (loadPackage().credentials.get('campaignApi')?.test?.rules ?? []) as Array<{
			type: string;
			properties: { key?: string; value: unknown };
		}>;
		const body = rules
			.filter((r) => r.type === 'responseSuccessBody')
			.map((r) => `${r.properties.key}=${JSON.stringify(r.properties.value)}`);
		for (const code of [-1000, -1001, -1002, -1003, 1101, 1401, 1402, 1403, 1404, 1405]) {
			for (const key of ['processCode', 'code']) {
				expect(body).toContain(`${key}=${code}`);
				expect(body).toContain(`${key}="${code}"`);
			}
		}
	});

	it('fails with the meaning of the HTTP status when the service answers an account failure with HTTP 401', async () => {
		sb.configure({ errorHttpStatus: 'mapped' });
		for (const apiKey of ['no-such-key', 'expired-key']) {
			const result = await testCredential({ baseUrl: sb.baseUrl, apiKey });
			expect(result.status).toBe('Error');
			expect(result.message).toContain('The service refused the API key (HTTP 401)');
			expect(result.message).not.toContain(apiKey);
		}
		expect(await testCredential({ baseUrl: sb.baseUrl, apiKey: sb.apiKey })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	it.each([
		[1401, 'code'],
		['1405', 'code'],
		[-1003, 'processCode'],
	])('fails with the service meaning for %j under %s in an HTTP 200 answer', async (code, key) => {
		const server = await startScripted(() => ({
			body: { httpStatus: { code: 200, reasonPhrase: 'OK' }, [key]: code },
		}));
		try {
			const result = await testCredential({ baseUrl: server.baseUrl, apiKey: 'some-key' });
			expect(result.status).toBe('Error');
			expect(result.message).toContain(`(code ${code})`);
		} finally {
			await server.close();
		}
	});

	it.each(['http://api.example.com', ' HTTP://campaign.example.com/api/ '])(
		'refuses the plain-http remote base URL %j with the words the nodes use, sending nothing',
		async (baseUrl) => {
			const result = await testCredential({ baseUrl, apiKey: 'some-key' });
			expect(result).toEqual({
				status: 'Error',
				message: expect.stringContaining(
					'Base URL in the Campaign API credential must use https (http is allowed only for localhost)',
				),
			});
		},
	);

	/** What the nodes say about a Base URL: undefined when they send to it. */
	const nodesSay = (baseUrl: string): string | undefined => {
		try {
			normalizeBaseUrl(baseUrl, {
				id: 'n',
				name: 'N',
				type: 't',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			});
			return undefined;
		} catch (error) {
			return (error as Error).message;
		}
	};

	it.each([
		// A user name makes the part before "@" look like the local host: the key would go to evil.example.
		'http://127.0.0.1:80@evil.example/',
		'http://localhost@evil.example',
		'https://user:pw@api.example.com',
		'http://127.0.0.1.evil.example/',
		'http://localhost.evil.example:8080',
		'http://127.0.0.1\\@evil.example/',
		'http://[::1]@evil.example/',
		'https://api.example.com/a/../b',
		'https://api.example.com/?x=1',
		'https://api example.com',
		'ftp://127.0.0.1/',
		'not a url',
		'https://[:::]',
		'https://[1:2:3:4:5:6:7:8:9]/api',
		'',
	])('refuses %j with the words the nodes use, sending nothing', async (baseUrl) => {
		const before = sb.requests.length;
		const words = nodesSay(baseUrl);
		expect(words).toMatch(/^Base URL in the Campaign API credential /);
		expect(await testCredential({ baseUrl, apiKey: 'some-key' })).toEqual({
			status: 'Error',
			message: words,
		});
		expect(sb.requests.length).toBe(before);
	});

	it('sends to exactly the base URLs the nodes send to', async () => {
		for (const baseUrl of [
			sb.baseUrl,
			`${sb.baseUrl}/`,
			sb.baseUrl.replace('127.0.0.1', 'localhost'),
		]) {
			expect(nodesSay(baseUrl)).toBeUndefined();
			expect(await testCredential({ baseUrl, apiKey: sb.apiKey })).toEqual({
				status: 'OK',
				message: 'Connection successful!',
			});
		}
	});

	it('does not follow a redirect: the key never reaches the other host, and the words say what to fix', async () => {
		const other = await startScripted(() => ({ body: { processCode: 0, processValue: [] } }));
		const redirector = await startScripted((req) => ({
			status: 307,
			headers: { location: `${other.baseUrl}${req.url}` },
		}));
		try {
			const result = await testCredential({
				baseUrl: redirector.baseUrl,
				apiKey: 'redirected-key',
			});
			expect(result).toEqual({
				status: 'Error',
				message: expect.stringContaining(
					'The Base URL answered with a redirect (HTTP 307); redirects are never followed',
				),
			});
			expect(other.seen).toEqual([]);
			expect(redirector.seen).toHaveLength(1);
		} finally {
			await other.close();
			await redirector.close();
		}
	});

	it('fails when nothing answers at the base URL', async () => {
		const result = await testCredential({ baseUrl: 'http://127.0.0.1:9', apiKey: 'x' });
		expect(result.status).toBe('Error');
	});
});
