/**
 * The sandbox itself: request log, in-flight counters, latency, reset/configure, lifecycle, demo data.
 */
import axios from 'axios';
import { seedDemoData } from '../../sandbox/demo';
import { startSandbox } from '../../sandbox/server';
import { call, get, post, until, useTestSandbox } from './support';

const sb = useTestSandbox();

describe('request log', () => {
	it('records every request in arrival order with method, path, query, headers, body, status, processCode, times', async () => {
		const before = Date.now();
		await get(sb, '/v2/custom?memberId=a%20b&seq=');
		await post(sb, '/v2/custom', { m1: { x: 1 } });
		expect(sb.requests).toHaveLength(2);
		const [read, write] = sb.requests;
		expect(read).toMatchObject({
			method: 'GET',
			path: '/v2/custom',
			query: { memberId: 'a b', seq: '' },
			body: undefined,
			status: 200,
			processCode: 0,
		});
		expect(write).toMatchObject({
			method: 'POST',
			path: '/v2/custom',
			query: {},
			body: { m1: { x: 1 } },
			status: 200,
			processCode: 1,
		});
		expect(write.headers['content-type']).toBe('application/json');
		expect(read.startedAt).toBeGreaterThanOrEqual(before);
		expect(read.endedAt).toBeGreaterThanOrEqual(read.startedAt);
		expect(write.startedAt).toBeGreaterThanOrEqual(read.startedAt);
	});

	it('the x-api-key value is replaced by [redacted]', async () => {
		await get(sb, '/v2/custom');
		expect(sb.requests[0].headers['x-api-key']).toBe('[redacted]');
		expect(JSON.stringify(sb.requests)).not.toContain(sb.apiKey);
	});

	it('a body that is not JSON is logged as the raw string', async () => {
		await call(sb, 'POST', '/v2/custom', {
			raw: 'a=1&b=2',
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(sb.requests[0].body).toBe('a=1&b=2');
	});

	it('the send logs its own code as processCode', async () => {
		await post(sb, '/messages/alimtalk/trigger', {
			campaignKey: 'NOPE',
			users: [{ phoneNumber: '821012345678' }],
		});
		expect(sb.requests[0]).toMatchObject({ status: 400, processCode: 7011 });
	});
});

describe('concurrency and latency', () => {
	it('latencyMs delays every response', async () => {
		sb.configure({ latencyMs: 120 });
		await get(sb, '/v2/custom');
		// The sandbox's own record of the request: answered no earlier than the latency asked.
		const [request] = sb.requests;
		expect(request.endedAt - request.startedAt).toBeGreaterThanOrEqual(120);
	});

	it('inFlight / maxInFlight count the requests being handled, latency included', async () => {
		// A latency far longer than the six requests take to arrive, even on a busy machine: the
		// count is read once all six are in (waited for, not timed), then after every answer.
		sb.configure({ latencyMs: 3000 });
		const all = Promise.all(Array.from({ length: 6 }, () => get(sb, '/v2/custom')));
		await until(() => sb.requests.length === 6);
		expect(sb.inFlight).toBe(6);
		await all;
		await until(() => sb.inFlight === 0);
		expect(sb.maxInFlight).toBe(6);
	});

	it('sequential requests never overlap: maxInFlight 1', async () => {
		for (let i = 0; i < 3; i++) await get(sb, '/v2/custom');
		expect(sb.maxInFlight).toBe(1);
	});
});

describe('reset and configure', () => {
	it('reset() clears state, log and counters but keeps the options', async () => {
		sb.configure({ stringCodes: true });
		sb.registerKey('k', 'string');
		sb.addCampaign('C');
		await post(sb, '/v2/custom', { m: { k: 'v' } });
		sb.reset();
		expect(sb.requests).toEqual([]);
		expect(sb.maxInFlight).toBe(0);
		expect(sb.state.customKeys.size + sb.state.custom.size + sb.state.campaigns.size).toBe(0);
		expect((await get(sb, '/v2/custom')).body.processCode).toBe('0');
	});

	it('reset() keeps the map objects, so references held by a test stay live', async () => {
		const custom = sb.state.custom;
		sb.reset();
		sb.registerKey('k', 'string');
		await post(sb, '/v2/custom', { m: { k: 'v' } });
		expect(custom.get('m')?.get('k')).toBe('v');
	});

	it('addCampaign fills the defaults of a campaign that can send', () => {
		sb.addCampaign('C', { requiredVariables: ['a'] });
		expect(sb.state.campaigns.get('C')).toEqual({
			profileState: 'active',
			templateState: 'approved',
			channelLinked: true,
			unitPriceSet: true,
			requiredVariables: ['a'],
			dateVariables: [],
		});
	});
});

describe('lifecycle', () => {
	it('baseUrl is http://127.0.0.1:PORT without a trailing slash; the port option is honoured', async () => {
		const probe = await startSandbox();
		const port = Number(new URL(probe.baseUrl).port);
		expect(probe.baseUrl).toBe(`http://127.0.0.1:${port}`);
		await probe.close();
		const fixed = await startSandbox({ port });
		try {
			expect(fixed.baseUrl).toBe(`http://127.0.0.1:${port}`);
			expect((await get(fixed, '/v2/custom')).code).toBe(0);
		} finally {
			await fixed.close();
		}
	});

	it('close() ends hanging requests, requests waiting on latency and keep-alive sockets', async () => {
		const other = await startSandbox({ apiKey: 'k2' });
		await get(other, '/v2/custom'); // leaves a keep-alive socket open
		// Ten minutes of latency: a close() that waited for it would outlive the test's time limit.
		other.configure({ faults: { kinds: ['hang'], firstN: 1 }, latencyMs: 600_000 });
		const hanging = get(other, '/v2/custom');
		const waiting = get(other, '/v2/custom');
		await until(() => other.requests.length === 3); // the first request, then these two
		expect(other.inFlight).toBe(2);
		await other.close();
		await expect(hanging).rejects.toThrow();
		await expect(waiting).rejects.toThrow();
		await other.close(); // a second close is harmless
	});

	it('after close() the port refuses connections', async () => {
		const other = await startSandbox();
		const url = other.baseUrl;
		await other.close();
		await expect(axios.get(`${url}/v2/custom`, { timeout: 1000 })).rejects.toThrow();
	});
});

describe('demo data', () => {
	beforeEach(() => seedDemoData(sb));

	it('registers the demo keys with their formats', () => {
		expect(Object.fromEntries(sb.state.customKeys)).toEqual({
			name: 'string',
			points: 'number',
			grade: 'string',
			birthday: 'date',
			lastOrderDate: 'date',
		});
	});

	it('holds a few dozen custom and legacy entries that read back through the API', async () => {
		const custom = (await get(sb, '/v2/custom')).value<{ dataList: unknown[] }>().dataList;
		const legacy = (await get(sb, '/v1/legacy')).value<{ dataList: unknown[] }>().dataList;
		expect(custom.length).toBeGreaterThanOrEqual(24);
		expect(legacy.length).toBeGreaterThanOrEqual(12);
	});

	it('holds v1 and v2 members', async () => {
		expect((await get(sb, '/v2/users/sms?memberId=member-03')).value<unknown[]>()).toHaveLength(2);
		expect((await get(sb, '/v1/users/sms?memberId=member-01')).value<unknown[]>()).toEqual([
			{ memberId: 'member-01', phoneNumber: '010-1234-5678', isReceive: true, name: 'Kim Minji' },
		]);
	});

	it('DEMO-WELCOME sends with name and coupon, and needs both', async () => {
		const path = '/messages/alimtalk/trigger';
		const users = (properties: Record<string, string>) => [
			{ phoneNumber: '821012345678', properties },
		];
		expect(
			(
				await post(sb, path, {
					campaignKey: 'DEMO-WELCOME',
					users: users({ name: 'Kim', coupon: 'WELCOME10' }),
				})
			).code,
		).toBe(0);
		expect(
			(await post(sb, path, { campaignKey: 'DEMO-WELCOME', users: users({ name: 'Kim' }) })).code,
		).toBe(7011);
		expect(sb.state.sent).toHaveLength(1);
	});

	it('DEMO-BLOCKED is refused with 7007', async () => {
		const res = await post(sb, '/messages/alimtalk/trigger', {
			campaignKey: 'DEMO-BLOCKED',
			users: [{ phoneNumber: '821012345678' }],
		});
		expect(res.status).toBe(400);
		expect(res.code).toBe(7007);
	});
});
