import type { IDataObject } from 'n8n-workflow';
import {
	FAST,
	loadPackage,
	logLines,
	pairedIndexes,
	runNode,
	useSandbox,
	withFast,
} from '../support';
import { http, timer } from '../support/node';
import { startScripted } from '../support/scripted-server';

const sb = useSandbox({ accounts: { 'expired-key': 'expired', 'unknown-perm': 'noPermission' } });
let logged = 0;
afterEach(() => {
	// Nothing n8n logged during this test holds the key (the test fails on its own).
	const fresh = logLines.slice(logged);
	logged = logLines.length;
	expect(fresh.filter((line) => line.includes(sb.apiKey))).toEqual([]);
});
beforeEach(() => {
	sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
	sb.addCampaign('BLOCKED', { templateState: 'blocked' });
});

const phone = (i: number) => `8210${String(10000000 + i).slice(-8)}`;

async function send(input: IDataObject[], parameters: IDataObject = {}, credentials?: IDataObject) {
	return await runNode({
		type: 'campaignAlimtalk',
		parameters: withFast({
			operation: 'send',
			campaignKey: '={{$json.campaign}}',
			phoneNumber: '={{$json.phone}}',
			properties: { property: [{ key: 'name', value: '={{$json.name}}' }] },
			...parameters,
		}),
		input,
		credentials: (credentials ?? { baseUrl: sb.baseUrl, apiKey: sb.apiKey }) as never,
	});
}

describe('Campaign Alimtalk send', () => {
	it('sends 20 items as 20 requests with one user each and its variables', async () => {
		const input = Array.from({ length: 20 }, (_, i) => ({
			campaign: 'WELCOME',
			phone: phone(i),
			name: `Kim ${i}`,
		}));
		const { out, error } = await send(input);
		expect(error).toBeUndefined();
		const posts = sb.requests.filter((r) => r.path === '/messages/alimtalk/trigger');
		expect(posts).toHaveLength(20);
		for (const request of posts)
			expect((request.body as { users: unknown[] }).users).toHaveLength(1);
		expect(sb.state.sent.map((s) => [s.phoneNumber, s.properties.name]).sort()).toEqual(
			input.map((i) => [i.phone, i.name]).sort(),
		);
		expect(out[0]).toHaveLength(20);
		expect(out[1]).toHaveLength(0);
		expect(pairedIndexes(out[0])).toEqual(input.map((_, i) => i));
		expect(out[0][3].json).toMatchObject({
			campaignKey: 'WELCOME',
			phoneNumber: phone(3),
			code: '0',
			status: 'sent',
		});
	});

	it('keeps at most `concurrency` requests in flight, and more than one', async () => {
		sb.configure({ latencyMs: 40 });
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
		sb.configure({ latencyMs: 40 });
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

	it.each(['code7998', 'code7999'] as const)(
		'does not repeat a send answered %s (provider or server error after it went out)',
		async (kind) => {
			sb.configure({ faults: { kinds: [kind], firstN: 1, phase: 'after' } });
			const input = [
				{ campaign: 'WELCOME', phone: phone(0), name: 'x' },
				{ campaign: 'WELCOME', phone: phone(1), name: 'y' },
			];
			const { out, error } = await send(input, { options: { concurrency: 1 } });
			expect(error).toBeUndefined();
			expect(sb.requests).toHaveLength(2);
			expect(sb.state.sent.map((m) => m.phoneNumber)).toEqual([phone(0), phone(1)]);
			expect(out[1]).toHaveLength(1);
			expect(out[1][0].json).toMatchObject({
				code: kind.slice(4),
				deliveryUnknown: true,
				phoneNumber: phone(0),
				campaignKey: 'WELCOME',
			});
			expect(String(out[1][0].json.message)).toMatch(/may or may not/);
			expect(pairedIndexes(out[1])).toEqual([0]);
			expect(pairedIndexes(out[0])).toEqual([1]);
		},
	);

	it('is usable as an AI agent tool, with descriptions for the tool to fill its parameters', () => {
		const node = loadPackage().nodes.get('n8n-nodes-campaign-messaging.campaignAlimtalk');
		expect(node?.description.usableAsTool).toBe(true);
		expect(node?.description.name.endsWith('Trigger')).toBe(false);
		for (const name of ['campaignKey', 'phoneNumber']) {
			const property = node?.description.properties.find((p) => p.name === name);
			expect(property?.description?.length ?? 0).toBeGreaterThan(20);
		}
	});

	it('says, where a workflow author or an AI model reads it, which operations cannot be undone and which send billed messages', () => {
		const operations = (type: string) => {
			const node = loadPackage().nodes.get(`n8n-nodes-campaign-messaging.${type}`);
			const operation = node?.description.properties.find((p) => p.name === 'operation');
			return new Map(
				((operation?.options ?? []) as Array<{ value: string; description?: string }>).map((o) => [
					o.value,
					o.description ?? '',
				]),
			);
		};
		for (const type of ['campaignCustomData', 'campaignLegacyData']) {
			expect(operations(type).get('delete')).toContain('This cannot be undone.');
			expect(operations(type).get('deleteKeys')).toContain('This cannot be undone.');
			expect(operations(type).get('create')).not.toContain('cannot be undone');
		}
		const members = [
			...new Set(
				[...operations('campaignMembers').values()].filter((d) => d.includes('cannot be undone')),
			),
		];
		expect(members).toEqual([expect.stringMatching(/^Remove members for good/)]);
		expect(operations('campaignAlimtalk').get('send')).toMatch(
			/real KakaoTalk message, billed to the account, and cannot be undone/,
		);
		expect(
			loadPackage().nodes.get('n8n-nodes-campaign-messaging.campaignAlimtalk')?.description
				.description,
		).toContain('billed');
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

	it('catches a phone number that is not 12 characters before sending (7012)', async () => {
		const input = [
			{ campaign: 'WELCOME', phone: '010-1234-5678', name: 'a' },
			{ campaign: 'WELCOME', phone: phone(1), name: 'b' },
			{ campaign: 'WELCOME', phone: '', name: 'c' },
		];
		const { out } = await send(input);
		expect(sb.requests.filter((r) => r.path === '/messages/alimtalk/trigger')).toHaveLength(1);
		expect(out[1].map((i) => i.json.code)).toEqual(['7012', '7012']);
		expect(out[1][0].json).toMatchObject({ phoneNumber: '010-1234-5678', campaignKey: 'WELCOME' });
		expect(String(out[1][0].json.message)).toContain('exactly 12 characters');
		expect(pairedIndexes(out[1])).toEqual([0, 2]);
		expect(pairedIndexes(out[0])).toEqual([1]);
	});

	it('converts Korean mobile numbers to the 12-character form when asked', async () => {
		const input = [
			{ campaign: 'WELCOME', phone: '010-1234-5678', name: 'a' },
			{ campaign: 'WELCOME', phone: '+82 10 2345 6789', name: 'b' },
			{ campaign: 'WELCOME', phone: '02-123-4567', name: 'c' },
		];
		const { out } = await send(input, { options: { convertPhoneNumbers: true } });
		expect(sb.state.sent.map((s) => s.phoneNumber).sort()).toEqual([
			'821012345678',
			'821023456789',
		]);
		expect(out[1]).toHaveLength(1);
		expect(out[1][0].json).toMatchObject({ code: '7012', phoneNumber: '02-123-4567' });
	});

	it('puts every item on Failed when the template is blocked (7007)', async () => {
		const input = Array.from({ length: 4 }, (_, i) => ({
			campaign: 'BLOCKED',
			phone: phone(i),
			name: 'x',
		}));
		const { out, error } = await send(input);
		expect(error).toBeUndefined();
		expect(out[0]).toHaveLength(0);
		expect(out[1].map((i) => i.json.code)).toEqual(['7007', '7007', '7007', '7007']);
		expect(out[1][0].json).toMatchObject({
			campaignKey: 'BLOCKED',
			phoneNumber: phone(0),
			message: expect.stringContaining('blocked'),
		});
		expect(sb.state.sent).toHaveLength(0);
	});

	it('reports a missing template variable (7011) and an unknown campaign per item', async () => {
		const { out } = await send(
			[
				{ campaign: 'WELCOME', phone: phone(0), name: '' },
				{ campaign: 'NOPE', phone: phone(1), name: 'x' },
			],
			{ properties: {} },
		);
		expect(out[1].map((i) => i.json.code)).toEqual(['7011', '7011']);
	});

	it('fails the whole node for a wrong key, with a clear message and no key in it', async () => {
		const { error, out } = await send(
			[{ campaign: 'WELCOME', phone: phone(0), name: 'x' }],
			{},
			{
				baseUrl: sb.baseUrl,
				apiKey: 'wrong-key-abcdef',
			},
		);
		expect(out).toEqual([]);
		expect(error?.message).toBe('The API key is not valid (code 1401)');
		expect(JSON.stringify(error)).not.toContain('wrong-key-abcdef');
		expect(JSON.stringify(error?.description ?? '')).not.toContain('wrong-key-abcdef');
		expect(logLines.join('\n')).not.toContain('wrong-key-abcdef');
		expect(sb.requests).toHaveLength(1);
	});

	it('keeps what went out on Success when the account fails mid-run, and reports the rest as not sent', async () => {
		// Two sends go out, then the service answers "customer expired" (1405) to everything.
		const server = await startScripted((_req, index) =>
			index < 2 ? { body: { code: 0 } } : { status: 401, body: { code: 1405, message: 'expired' } },
		);
		try {
			const input = Array.from({ length: 5 }, (_, i) => ({
				campaign: 'WELCOME',
				phone: phone(i),
				name: 'x',
			}));
			const { out, error } = await send(
				input,
				{ options: { concurrency: 1 } },
				{ baseUrl: server.baseUrl, apiKey: 'scripted-key' },
			);
			expect(error).toBeUndefined();
			// No new send starts once the account failed.
			expect(server.seen).toHaveLength(3);
			expect(out[0].map((i) => i.json.phoneNumber)).toEqual([phone(0), phone(1)]);
			expect(out[1].map((i) => [i.json.phoneNumber, i.json.code])).toEqual(
				[2, 3, 4].map((n) => [phone(n), '1405']),
			);
			for (const item of out[1]) expect(String(item.json.message)).toMatch(/^Not sent: .*expired/i);
			expect(pairedIndexes(out[0])).toEqual([0, 1]);
			expect(pairedIndexes(out[1])).toEqual([2, 3, 4]);
		} finally {
			await server.close();
		}
	});

	it('gives error items under "On Error: Continue" for an account failure', async () => {
		const { out, error } = await runNode({
			type: 'campaignAlimtalk',
			parameters: {
				operation: 'send',
				campaignKey: 'WELCOME',
				phoneNumber: '={{$json.phone}}',
				options: FAST,
			},
			input: [{ phone: phone(0) }, { phone: phone(1) }],
			credentials: { baseUrl: sb.baseUrl, apiKey: 'expired-key' },
			onError: 'continueRegularOutput',
		});
		expect(error).toBeUndefined();
		expect(out[0].map((i) => i.json)).toEqual([
			expect.objectContaining({
				error: 'The customer account has expired (code 1405)',
				code: '1405',
			}),
			expect.objectContaining({
				error: 'The customer account has expired (code 1405)',
				code: '1405',
			}),
		]);
		expect(pairedIndexes(out[0])).toEqual([0, 1]);
	});

	it('does not repeat a send answered 2000 by default, and marks it delivery unknown', async () => {
		sb.configure({ faults: { kinds: ['code2000'], firstN: 1, phase: 'after' } });
		const { out } = await send([{ campaign: 'WELCOME', phone: phone(0), name: 'x' }]);
		expect(sb.requests).toHaveLength(1);
		expect(sb.state.sent).toHaveLength(1);
		expect(out[1][0].json).toMatchObject({
			code: '2000',
			deliveryUnknown: true,
			phoneNumber: phone(0),
		});
	});

	it('repeats a send answered 2000 when "Retry When Delivery Is Unknown" is on', async () => {
		sb.configure({ faults: { kinds: ['code2000'], firstN: 1, phase: 'before' } });
		const { out } = await send([{ campaign: 'WELCOME', phone: phone(0), name: 'x' }], {
			options: { retryUnknownDelivery: true },
		});
		expect(sb.requests).toHaveLength(2);
		expect(sb.state.sent).toHaveLength(1);
		expect(out[0][0].json).toMatchObject({ code: '0' });
	});

	it('retries an unreachable host (the request never left)', async () => {
		const closed = await startScripted(() => ({ body: '' }));
		const port = new URL(closed.baseUrl).port;
		await closed.close();
		const { error } = await send(
			[{ campaign: 'WELCOME', phone: phone(0), name: 'x' }],
			{ options: { maxRetries: 2 } },
			{
				baseUrl: `http://127.0.0.1:${port}`,
				apiKey: 'k-123456',
			},
		);
		expect(error?.message).toBe(
			'Could not get an answer from the campaign service: the connection was refused (after 3 attempts)',
		);
	});

	it('takes the variables from a JSON object, trims keys and refuses duplicates', async () => {
		const { out } = await send(
			[
				{ campaign: 'WELCOME', phone: phone(0), vars: { ' name ': 'Lee', coupon: 'C10' } },
				{ campaign: 'WELCOME', phone: phone(1), vars: '{"name": 1, " name": 2}' },
				{ campaign: 'WELCOME', phone: phone(2), vars: '[1,2]' },
			],
			{
				variablesInput: 'json',
				propertiesJson:
					'={{ typeof $json.vars === "string" ? $json.vars : JSON.stringify($json.vars) }}',
			},
		);
		expect(sb.state.sent).toHaveLength(1);
		expect(sb.state.sent[0].properties).toEqual({ name: 'Lee', coupon: 'C10' });
		expect(out[1].map((i) => i.json.code)).toEqual(['1203', '1203']);
		expect(String(out[1][0].json.message)).toContain('given twice');
		expect(String(out[1][1].json.message)).toContain('JSON object');
	});

	it('accepts the flat and the empty success body shapes', async () => {
		for (const shape of ['flat', 'empty'] as const) {
			sb.reset();
			sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
			sb.configure({ triggerResponse: shape });
			const { out } = await send([{ campaign: 'WELCOME', phone: phone(0), name: 'x' }]);
			expect(out[0]).toHaveLength(1);
			expect(sb.state.sent).toHaveLength(1);
		}
	});

	it('refuses a concurrency outside 1..50 with a clear error', async () => {
		const { error } = await send([{ campaign: 'WELCOME', phone: phone(0), name: 'x' }], {
			options: { concurrency: 0 },
		});
		expect(error?.message).toContain('Concurrency');
		expect(sb.requests).toHaveLength(0);
	});

	it.each(['fields', 'json'])(
		'sends template variables named __proto__, constructor and prototype as keys (given as %s)',
		async (variablesInput) => {
			const server = await startScripted(() => ({ body: { code: 0 } }));
			try {
				const parameters: IDataObject =
					variablesInput === 'fields'
						? {
								variablesInput,
								properties: {
									property: [
										['__proto__', 'p'],
										['constructor', 'c'],
										['prototype', 't'],
										['name', 'Kim'],
									].map(([key, value]) => ({ key, value })),
								},
							}
						: { variablesInput, propertiesJson: '={{ JSON.stringify($json.v) }}' };
				// JSON.parse makes "__proto__" an own key, as a webhook body does.
				const v = JSON.parse(
					'{"__proto__":"p","constructor":"c","prototype":"t","name":"Kim"}',
				) as IDataObject;
				const { out, error } = await send(
					[{ campaign: 'WELCOME', phone: phone(1), v }],
					parameters,
					{ baseUrl: server.baseUrl, apiKey: sb.apiKey },
				);
				expect(error).toBeUndefined();
				expect(out[0].map((item) => item.json.status)).toEqual(['sent']);
				const sent = JSON.parse(server.seen[0].body) as {
					users: Array<{ properties: Record<string, unknown> }>;
				};
				expect(Object.entries(sent.users[0].properties)).toEqual([
					['__proto__', 'p'],
					['constructor', 'c'],
					['prototype', 't'],
					['name', 'Kim'],
				]);
			} finally {
				await server.close();
			}
		},
	);
});
