import { http, type net } from '../support/node';
import { startSandbox } from '../../sandbox/server';
import { runNode } from '../support';

describe('engine harness (smoke)', () => {
	let server: http.Server;
	let baseUrl: string;
	const seen: Array<{ url?: string; key?: string | string[]; body: string }> = [];

	beforeAll(async () => {
		server = http.createServer((req, res) => {
			let body = '';
			req.on('data', (c) => (body += c));
			req.on('end', () => {
				seen.push({ url: req.url, key: req.headers['x-api-key'], body });
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ code: 0, message: 'ok' }));
			});
		});
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
		baseUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
	});
	afterAll(() => new Promise<void>((r) => server.close(() => r())));

	it('runs a package node through WorkflowExecute with the credential applied', async () => {
		const result = await runNode({
			type: 'campaignAlimtalk',
			parameters: {
				operation: 'send',
				campaignKey: 'C1',
				phoneNumber: '={{$json.phone}}',
				options: { retryDelayMs: 0 },
			},
			input: [{ phone: '821012345678' }],
			credentials: { baseUrl, apiKey: 'smoke-key' },
		});
		expect(result.error).toBeUndefined();
		expect(seen).toHaveLength(1);
		expect(seen[0].url).toBe('/messages/alimtalk/trigger');
		expect(seen[0].key).toBe('smoke-key');
		expect(JSON.parse(seen[0].body)).toEqual({
			campaignKey: 'C1',
			users: [{ phoneNumber: '821012345678', properties: {} }],
		});
		expect(result.out[0]).toHaveLength(1);
		expect(result.out[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('reaches the sandbox with the credential applied (the key it accepts, in x-api-key)', async () => {
		const sb = await startSandbox({});
		try {
			sb.state.custom.set('smoke-member', new Map([['tier', 'gold']]));
			const ok = await runNode({
				type: 'campaignCustomData',
				parameters: { operation: 'get', memberId: 'smoke-member' },
				input: [{}],
				credentials: { baseUrl: sb.baseUrl, apiKey: sb.apiKey },
			});
			expect(ok.error).toBeUndefined();
			expect(ok.out[0].map((item) => item.json)).toEqual([
				{ memberId: 'smoke-member', key: 'tier', value: 'gold' },
			]);
			// The same workflow with another key: the sandbox refuses it, so the header is what it checks.
			const refused = await runNode({
				type: 'campaignCustomData',
				parameters: { operation: 'get', memberId: 'smoke-member' },
				input: [{}],
				credentials: { baseUrl: sb.baseUrl, apiKey: 'not-the-sandbox-key' },
			});
			expect(refused.error?.message).toContain('-1001');
			expect(sb.requests.map((r) => [r.path, r.headers['x-api-key']])).toEqual([
				['/v2/custom', '[redacted]'],
				['/v2/custom', '[redacted]'],
			]);
		} finally {
			await sb.close();
		}
	});
});
