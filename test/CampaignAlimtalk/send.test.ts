/**
 * The Alimtalk send through the real engine: one request per item with its variables, the checks
 * made on each item before sending, the answers read, and what the node's description tells a
 * workflow author or an AI model. How many requests are in flight and the output order are in
 * send-concurrency.test.ts; failed, refused and unknown deliveries in send-failures.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { loadPackage, pairedIndexes } from '../support';
import { startScripted } from '../support/scripted-server';
import { phone, useSendFixture } from './support';

const { sb, send } = useSendFixture();

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
