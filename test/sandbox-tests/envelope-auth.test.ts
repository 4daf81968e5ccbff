/**
 * Conformance: the envelope (docs/service-rules.md#envelope), authentication (docs/service-rules.md#authentication), the Content-Type rule and
 * the HTTP status modes of the custom-data and member endpoints.
 */
import { call, get, post, useTestSandbox } from './support';

const sb = useTestSandbox();
beforeEach(() => {
	sb.registerKey('points', 'number');
});

/** One request per data/member endpoint and method, each valid apart from what a test changes. */
const ENDPOINTS: Array<[method: string, path: string, body: unknown]> = [
	['GET', '/v2/custom', undefined],
	['POST', '/v2/custom', { m1: { points: 1 } }],
	['PUT', '/v2/custom', { m1: { points: 1 } }],
	['DELETE', '/v2/custom', ['m1']],
	['DELETE', '/v2/custom/data-format-name', { m1: ['points'] }],
	['GET', '/v1/legacy', undefined],
	['POST', '/v1/legacy', { m1: { points: 1 } }],
	['PUT', '/v1/legacy', { m1: { points: 1 } }],
	['DELETE', '/v1/legacy', ['m1']],
	['DELETE', '/v1/legacy/data-format-name', { m1: ['points'] }],
	['GET', '/v1/users/sms?memberId=m1', undefined],
	['POST', '/v1/users/sms', [{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true }]],
	['POST', '/v1/users/sms?delete', { memberId: 'm1' }],
	['DELETE', '/v1/users/sms', ['m1']],
	['GET', '/v2/users/sms?memberId=m1', undefined],
	['POST', '/v2/users/sms', [{ memberId: 'm1', phoneNumber: '010-1234-5678' }]],
	['POST', '/v2/users/sms?delete', { phoneNumber: '010-1234-5678' }],
];

describe('envelope (spec 2.1)', () => {
	it('answers { httpStatus: { code, reasonPhrase }, processCode, processValue } with HTTP 200', async () => {
		const res = await get(sb, '/v2/custom');
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.body).toEqual({
			httpStatus: { code: 200, reasonPhrase: 'OK' },
			processCode: 0,
			processValue: { nextPageSeq: null, dataList: [] },
		});
	});

	it.each(ENDPOINTS)(
		'succeeds with processCode 0 on %s %s with a valid request',
		async (method, path, body) => {
			const res = await call(sb, method, path, { body });
			expect(res.status).toBe(200);
			expect(res.code).toBe(0);
		},
	);

	it('stringCodes: processCode and httpStatus.code are strings', async () => {
		sb.configure({ stringCodes: true });
		const res = await get(sb, '/v2/custom', { key: null });
		expect(res.body.processCode).toBe('-1000');
		expect(res.body.httpStatus.code).toBe('200');
	});
});

describe('authentication (spec 5, 7.1)', () => {
	it.each(ENDPOINTS)(
		'-1000 without x-api-key on %s %s, nothing applied',
		async (method, path, body) => {
			const res = await call(sb, method, path, { body, key: null });
			expect(res.status).toBe(200);
			expect(res.code).toBe(-1000);
			expect(
				sb.state.custom.size +
					sb.state.legacy.size +
					sb.state.membersV1.size +
					sb.state.membersV2.size,
			).toBe(0);
		},
	);

	it('-1000 when the x-api-key header is empty', async () => {
		expect((await get(sb, '/v2/custom', { key: '' })).code).toBe(-1000);
	});

	it('-1001 for an unknown key', async () => {
		expect((await get(sb, '/v1/legacy', { key: 'no-such-key' })).code).toBe(-1001);
	});

	it("-1001 for an 'unregistered' account", async () => {
		expect((await get(sb, '/v2/users/sms?memberId=a', { key: 'key-unregistered' })).code).toBe(
			-1001,
		);
	});

	it("-1002 for an 'unapproved' account", async () => {
		expect((await get(sb, '/v1/users/sms?memberId=a', { key: 'key-unapproved' })).code).toBe(-1002);
	});

	it("-1003 for an 'expired' account, and the write is not applied", async () => {
		const res = await post(sb, '/v2/custom', { m1: { points: 5 } }, { key: 'key-expired' });
		expect(res.code).toBe(-1003);
		expect(sb.state.custom.size).toBe(0);
	});

	it("a 'noPermission' account works like an active one here (1402 is a triggered-send code)", async () => {
		const res = await post(sb, '/v2/custom', { m1: { points: 5 } }, { key: 'key-no-permission' });
		expect(res.code).toBe(0);
		expect(sb.state.custom.get('m1')?.get('points')).toBe(5);
	});

	it('accounts and the api key can be changed at run time', async () => {
		sb.configure({ apiKey: 'rotated-key' });
		try {
			expect(sb.apiKey).toBe('rotated-key');
			expect((await get(sb, '/v2/custom', { key: 'sandbox-demo-key' })).code).toBe(-1001);
			expect((await get(sb, '/v2/custom', { key: 'rotated-key' })).code).toBe(0);
		} finally {
			sb.configure({ apiKey: undefined });
		}
		expect(sb.apiKey).toBe('sandbox-demo-key');
	});
});

describe('Content-Type and body parsing (spec 5.2)', () => {
	const memberWrites = ENDPOINTS.filter(
		([method, path]) => method !== 'GET' && path.includes('/users/'),
	);

	it.each(memberWrites)(
		'-9998 without Content-Type on member %s %s, nothing applied',
		async (method, path, body) => {
			const res = await call(sb, method, path, { body, contentType: null });
			expect(res.code).toBe(-9998);
			expect(sb.state.membersV1.size + sb.state.membersV2.size).toBe(0);
		},
	);

	it('-9998 on a member write with a Content-Type other than JSON', async () => {
		const body = [{ memberId: 'm1', phoneNumber: '010-1234-5678' }];
		expect((await post(sb, '/v2/users/sms', body, { contentType: 'text/plain' })).code).toBe(-9998);
	});

	it('accepts application/json with parameters on member writes', async () => {
		const body = [{ memberId: 'm1', phoneNumber: '010-1234-5678' }];
		const res = await post(sb, '/v2/users/sms', body, {
			contentType: 'application/json; charset=UTF-8',
		});
		expect(res.code).toBe(0);
		expect(sb.state.membersV2.size).toBe(1);
	});

	it('custom data writes do not require a Content-Type (only members and the send do)', async () => {
		const res = await post(sb, '/v2/custom', { m1: { points: 3 } }, { contentType: null });
		expect(res.code).toBe(0);
		expect(sb.state.custom.get('m1')?.get('points')).toBe(3);
	});

	it.each([
		['POST', '/v2/custom'],
		['POST', '/v1/legacy'],
		['POST', '/v1/users/sms'],
		['POST', '/v2/users/sms'],
		['DELETE', '/v2/custom'],
	])('-9997 for a body that is not JSON on %s %s', async (method, path) => {
		const res = await call(sb, method, path, { raw: '{"m1": {', contentType: 'application/json' });
		expect(res.code).toBe(-9997);
	});
});

describe('HTTP status modes (spec 7.2: mapping not shown)', () => {
	it("'ok' (default): failures are HTTP 200 with the envelope", async () => {
		const res = await get(sb, '/v2/custom', { key: 'nope' });
		expect(res.status).toBe(200);
		expect(res.body.httpStatus).toEqual({ code: 200, reasonPhrase: 'OK' });
	});

	it("'mapped': key failures are HTTP 401 with the envelope, httpStatus.code matching", async () => {
		sb.configure({ errorHttpStatus: 'mapped' });
		const res = await get(sb, '/v2/custom', { key: 'nope' });
		expect(res.status).toBe(401);
		expect(res.body.httpStatus).toEqual({ code: 401, reasonPhrase: 'Unauthorized' });
		expect(res.code).toBe(-1001);
	});

	it("'mapped': -9997 is HTTP 400, success and partial success stay HTTP 200", async () => {
		sb.configure({ errorHttpStatus: 'mapped' });
		expect((await post(sb, '/v2/custom', [])).status).toBe(400);
		expect((await post(sb, '/v2/custom', { m1: { points: 1 } })).status).toBe(200);
		const partial = await post(sb, '/v2/custom', { m1: { points: 'x' } });
		expect(partial.code).toBe(1);
		expect(partial.status).toBe(200);
	});
});

describe('routing', () => {
	it('an unknown path is HTTP 404', async () => {
		const res = await get(sb, '/v3/custom');
		expect(res.status).toBe(404);
	});

	it('a method the path does not have is HTTP 405', async () => {
		expect((await call(sb, 'PATCH', '/v2/custom', { body: {} })).status).toBe(405);
		expect((await get(sb, '/messages/alimtalk/trigger')).status).toBe(405);
	});

	it('a trailing slash is ignored', async () => {
		expect((await get(sb, '/v2/custom/')).code).toBe(0);
	});
});
