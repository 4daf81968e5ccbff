/**
 * Conformance: the triggered send (docs/service-rules.md#send) on POST `/messages/alimtalk/trigger`.
 */
import type { CampaignConfig } from '../../sandbox/types';
import { call, post, useTestSandbox, type CallOptions } from './support';

const PATH = '/messages/alimtalk/trigger';
const PHONE = '821012345678'; // 12 characters

const sb = useTestSandbox();
beforeEach(() => {
	sb.addCampaign('WELCOME', { requiredVariables: ['name', 'coupon'], dateVariables: ['expiry'] });
});

const send = (body: unknown, options?: CallOptions) => post(sb, PATH, body, options);
const one = (
	phoneNumber: unknown = PHONE,
	properties: unknown = { name: 'Kim', coupon: 'C1' },
) => ({ phoneNumber, properties });

describe('success (4.5)', () => {
	it('code 0 with HTTP 200; the message is recorded as sent', async () => {
		const res = await send({ campaignKey: 'WELCOME', users: [one()] });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			httpStatus: { code: 200, reasonPhrase: 'OK' },
			processCode: 0,
			processValue: null,
		});
		expect(sb.state.sent).toEqual([
			{
				campaignKey: 'WELCOME',
				phoneNumber: PHONE,
				properties: { name: 'Kim', coupon: 'C1' },
				at: expect.any(Number),
			},
		]);
	});

	it('properties are optional when the template has no required variables', async () => {
		sb.addCampaign('PLAIN');
		expect((await send({ campaignKey: 'PLAIN', users: [{ phoneNumber: PHONE }] })).status).toBe(
			200,
		);
		expect(sb.state.sent[0].properties).toEqual({});
	});

	it("triggerResponse 'flat': { code, message }", async () => {
		sb.configure({ triggerResponse: 'flat' });
		const ok = await send({ campaignKey: 'WELCOME', users: [one()] });
		expect(ok.body).toEqual({ code: 0, message: 'Success' });
		const bad = await send({ campaignKey: 'WELCOME', users: [one('010')] });
		expect(bad.status).toBe(400);
		expect(bad.body).toEqual({ code: 7012, message: expect.any(String) });
	});

	it("triggerResponse 'empty': no body, only the HTTP status", async () => {
		sb.configure({ triggerResponse: 'empty' });
		const ok = await send({ campaignKey: 'WELCOME', users: [one()] });
		expect(ok.status).toBe(200);
		expect(ok.text).toBe('');
		const bad = await send({ campaignKey: 'WELCOME', users: [one('010')] });
		expect(bad.status).toBe(400);
		expect(bad.text).toBe('');
		expect(sb.state.sent).toHaveLength(1);
	});

	it('stringCodes: the codes are strings', async () => {
		sb.configure({ stringCodes: true });
		const res = await send({ campaignKey: 'WELCOME', users: [one('1')] });
		expect(res.body.processCode).toBe('7012');
		expect(res.body.httpStatus.code).toBe('400');
	});

	it("errorHttpStatus 'mapped' does not change the send's own statuses", async () => {
		sb.configure({ errorHttpStatus: 'mapped' });
		expect((await send({ campaignKey: 'WELCOME', users: [one()] })).status).toBe(200);
		expect((await send({ campaignKey: 'NOPE', users: [one()] })).status).toBe(400);
	});
});

/** Each failing case: what to send, the code and HTTP status of 7.3. Nothing may be sent. */
const FAILURES: Array<
	[code: number, http: number, label: string, run: () => ReturnType<typeof call>]
> = [
	[
		1101,
		400,
		'x-api-key header missing',
		() => send({ campaignKey: 'WELCOME', users: [one()] }, { key: null }),
	],
	[
		1102,
		400,
		'Content-Type header missing',
		() => send({ campaignKey: 'WELCOME', users: [one()] }, { contentType: null }),
	],
	[
		1102,
		400,
		'Content-Type not JSON',
		() => send({ campaignKey: 'WELCOME', users: [one()] }, { contentType: 'text/plain' }),
	],
	[
		1201,
		400,
		'request body empty',
		() => call(sb, 'POST', PATH, { raw: '', contentType: 'application/json' }),
	],
	[1201, 400, 'request body {}', () => send({})],
	[
		1202,
		400,
		'two users',
		() => send({ campaignKey: 'WELCOME', users: [one(), one('821099998888')] }),
	],
	[
		1203,
		400,
		'body not JSON',
		() => call(sb, 'POST', PATH, { raw: '{"campaignKey":', contentType: 'application/json' }),
	],
	[1203, 400, 'body an array', () => send([{ campaignKey: 'WELCOME' }])],
	[1203, 400, 'users not an array', () => send({ campaignKey: 'WELCOME', users: one() })],
	[
		1203,
		400,
		'properties not an object',
		() => send({ campaignKey: 'WELCOME', users: [one(PHONE, ['Kim'])] }),
	],
	[
		1203,
		400,
		'phoneNumber not a string',
		() => send({ campaignKey: 'WELCOME', users: [one(821012345678)] }),
	],
	[1203, 400, 'campaignKey not a string', () => send({ campaignKey: 5, users: [one()] })],
	[
		1204,
		400,
		'date variable not YYYY-MM-DD',
		() =>
			send({
				campaignKey: 'WELCOME',
				users: [one(PHONE, { name: 'a', coupon: 'b', expiry: '2024/12/31' })],
			}),
	],
	[
		1204,
		400,
		'date variable not a real date',
		() =>
			send({
				campaignKey: 'WELCOME',
				users: [one(PHONE, { name: 'a', coupon: 'b', expiry: '2024-02-30' })],
			}),
	],
	[
		1401,
		401,
		'unknown API key',
		() => send({ campaignKey: 'WELCOME', users: [one()] }, { key: 'nope' }),
	],
	[
		1402,
		401,
		'no permission',
		() => send({ campaignKey: 'WELCOME', users: [one()] }, { key: 'key-no-permission' }),
	],
	[
		1403,
		401,
		'customer not registered',
		() => send({ campaignKey: 'WELCOME', users: [one()] }, { key: 'key-unregistered' }),
	],
	[
		1404,
		401,
		'customer not approved',
		() => send({ campaignKey: 'WELCOME', users: [one()] }, { key: 'key-unapproved' }),
	],
	[
		1405,
		401,
		'customer expired',
		() => send({ campaignKey: 'WELCOME', users: [one()] }, { key: 'key-expired' }),
	],
	[7011, 400, 'campaignKey missing', () => send({ users: [one()] })],
	[7011, 400, 'campaignKey unknown', () => send({ campaignKey: 'NOPE', users: [one()] })],
	[7011, 400, 'users empty', () => send({ campaignKey: 'WELCOME', users: [] })],
	[7011, 400, 'users missing', () => send({ campaignKey: 'WELCOME' })],
	[
		7011,
		400,
		'phoneNumber missing',
		() => send({ campaignKey: 'WELCOME', users: [{ properties: { name: 'a', coupon: 'b' } }] }),
	],
	[
		7011,
		400,
		'required variable missing',
		() => send({ campaignKey: 'WELCOME', users: [one(PHONE, { name: 'Kim' })] }),
	],
	[
		7011,
		400,
		'required variable empty',
		() => send({ campaignKey: 'WELCOME', users: [one(PHONE, { name: 'Kim', coupon: '' })] }),
	],
	[
		7012,
		400,
		'phone of 13 characters',
		() => send({ campaignKey: 'WELCOME', users: [one('010-1234-5678')] }),
	],
	[
		7012,
		400,
		'phone of 11 characters',
		() => send({ campaignKey: 'WELCOME', users: [one('01012345678')] }),
	],
];

describe('failure codes (7.3)', () => {
	it.each(FAILURES)('%i (HTTP %i): %s; nothing sent', async (code, http, _label, run) => {
		const res = await run();
		expect(res.status).toBe(http);
		expect(res.code).toBe(code);
		expect(res.body.httpStatus.code).toBe(http);
		expect(sb.state.sent).toEqual([]);
	});

	const CAMPAIGN_STATES: Array<[code: number, label: string, config: Partial<CampaignConfig>]> = [
		[7001, 'channel link required', { channelLinked: false }],
		[7002, 'sender profile blocked', { profileState: 'blocked' }],
		[7003, 'sender profile dormant', { profileState: 'dormant' }],
		[7004, 'template waiting', { templateState: 'waiting' }],
		[7005, 'template review requested', { templateState: 'reviewRequested' }],
		[7006, 'template dormant', { templateState: 'dormant' }],
		[7007, 'template blocked', { templateState: 'blocked' }],
		[7008, 'template suspended', { templateState: 'suspended' }],
		[7009, 'template review rejected', { templateState: 'rejected' }],
		[7010, 'template expired', { templateState: 'expired' }],
		[7997, 'unit price not applied', { unitPriceSet: false }],
	];

	it.each(CAMPAIGN_STATES)('%i (HTTP 400): %s; nothing sent', async (code, _label, config) => {
		sb.addCampaign('STATE', config);
		const res = await send({ campaignKey: 'STATE', users: [one()] });
		expect(res.status).toBe(400);
		expect(res.code).toBe(code);
		expect(sb.state.sent).toEqual([]);
	});

	it('the phone length is checked before the campaign state, the campaign state before the variables', async () => {
		sb.addCampaign('BLOCKED', { templateState: 'blocked', requiredVariables: ['x'] });
		expect((await send({ campaignKey: 'BLOCKED', users: [one('1')] })).code).toBe(7012);
		expect((await send({ campaignKey: 'BLOCKED', users: [one(PHONE, {})] })).code).toBe(7007);
	});

	it('the key is checked before the Content-Type, the Content-Type before the body', async () => {
		expect((await call(sb, 'POST', PATH, { key: null, contentType: null })).code).toBe(1101);
		expect((await call(sb, 'POST', PATH, { contentType: null })).code).toBe(1102);
	});

	it.each([
		[2000, 'code2000' as const],
		[7998, 'code7998' as const],
		[7999, 'code7999' as const],
	])('%i (HTTP 500) through the fault injection', async (code, kind) => {
		sb.configure({ faults: { kinds: [kind] } });
		const res = await send({ campaignKey: 'WELCOME', users: [one()] });
		expect(res.status).toBe(500);
		expect(res.code).toBe(code);
		expect(res.body.httpStatus.code).toBe(500);
		expect(sb.state.sent).toEqual([]);
	});

	it("7999 with phase 'after': the message WAS sent although the answer is a server error (delivery unknown)", async () => {
		sb.configure({ faults: { kinds: ['code7999'], phase: 'after' } });
		const res = await send({ campaignKey: 'WELCOME', users: [one()] });
		expect(res.code).toBe(7999);
		expect(sb.state.sent).toHaveLength(1);
	});
});
