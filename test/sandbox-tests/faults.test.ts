/**
 * Conformance of the fault injection (FaultConfig): every kind, phases, rate/firstN/seed/match.
 * Also produces -9999, -9998 and -1005 (docs/service-rules.md#codes), which a healthy service answers only in trouble.
 */
import axios from 'axios';
import type { FaultKind } from '../../sandbox/types';
import { get, post, until, useTestSandbox } from './support';

const sb = useTestSandbox();
beforeEach(() => {
	sb.registerKey('points', 'number');
});

const write = (points = 1) => post(sb, '/v2/custom', { m1: { points } });

/** Which of `n` sequential reads were faulted (as logged). */
async function pattern(n: number): Promise<string> {
	for (let i = 0; i < n; i++) await get(sb, '/v2/custom');
	return sb.requests.map((r) => (r.faulted ? 'x' : '.')).join('');
}

describe('fault kinds', () => {
	it.each([
		['http500html' as const, 500],
		['http502html' as const, 502],
		['http503html' as const, 503],
	])(
		'%s: an HTML page with HTTP %i, no envelope; the request has no effect (phase before)',
		async (kind, status) => {
			sb.configure({ faults: { kinds: [kind] } });
			const res = await write();
			expect(res.status).toBe(status);
			expect(res.headers['content-type']).toMatch(/^text\/html/);
			expect(res.text).toContain(`<h1>${status}`);
			expect(res.body).toBeUndefined();
			expect(sb.state.custom.size).toBe(0);
		},
	);

	it('emptyBody: HTTP 200 with no bytes', async () => {
		sb.configure({ faults: { kinds: ['emptyBody'] } });
		const res = await write();
		expect(res.status).toBe(200);
		expect(res.text).toBe('');
		expect(sb.state.custom.size).toBe(0);
	});

	it.each([
		['code-9999' as const, -9999, 500],
		['code-9998' as const, -9998, 400],
		['code-1005' as const, -1005, 409],
	])(
		'%s: the envelope with processCode %i (HTTP 200; mapped mode HTTP %i)',
		async (kind, code, mapped) => {
			sb.configure({ faults: { kinds: [kind] } });
			const res = await write();
			expect(res.status).toBe(200);
			expect(res.code).toBe(code);
			expect(sb.state.custom.size).toBe(0);
			sb.configure({ errorHttpStatus: 'mapped' });
			const again = await write();
			expect(again.status).toBe(mapped);
			expect(again.body.httpStatus.code).toBe(mapped);
		},
	);

	it('drop: the connection is closed without an answer', async () => {
		sb.configure({ faults: { kinds: ['drop'] } });
		await expect(write()).rejects.toThrow();
		expect(sb.requests[0]).toMatchObject({ status: 0, faulted: 'drop' });
		expect(sb.state.custom.size).toBe(0);
	});

	it('hang: no answer at all; the request stays in flight until the client gives up', async () => {
		sb.configure({ faults: { kinds: ['hang'] } });
		// The client gives up after 2 s; the request's arrival is waited for, not timed.
		const pending = get(sb, '/v2/custom', { timeout: 2000 });
		await until(() => sb.requests.length === 1);
		expect(sb.inFlight).toBe(1);
		await expect(pending).rejects.toMatchObject({ code: 'ECONNABORTED' });
		await until(() => sb.inFlight === 0); // the sandbox notices the client gave up
		expect(sb.requests[0]).toMatchObject({ status: 0, faulted: 'hang' });
		expect(sb.requests[0].endedAt).toBeGreaterThan(0);
	});

	it('truncatedJson: HTTP 200 with the first half of a JSON body, which does not parse', async () => {
		sb.configure({ faults: { kinds: ['truncatedJson'] } });
		const res = await get(sb, '/v2/custom');
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.text.startsWith('{"httpStatus"')).toBe(true);
		expect(() => JSON.parse(res.text) as unknown).toThrow();
	});

	it('the faulted kind is logged with the request', async () => {
		sb.configure({ faults: { kinds: ['http502html'] } });
		await write();
		expect(sb.requests[0]).toMatchObject({ status: 502, faulted: 'http502html' });
	});
});

describe("phase 'after' (delivery unknown)", () => {
	it.each(['drop', 'http502html', 'emptyBody', 'code-9999'] as FaultKind[])(
		'%s: the write is applied before the faulty answer',
		async (kind) => {
			sb.configure({ faults: { kinds: [kind], phase: 'after' } });
			await write(7).catch(() => undefined);
			expect(sb.state.custom.get('m1')?.get('points')).toBe(7);
		},
	);

	it('hang: the write is applied, no answer comes', async () => {
		sb.configure({ faults: { kinds: ['hang'], phase: 'after' } });
		const pending = post(sb, '/v2/custom', { m1: { points: 3 } }, { timeout: 2000 });
		await until(() => sb.state.custom.get('m1')?.get('points') === 3); // applied
		await expect(pending).rejects.toMatchObject({ code: 'ECONNABORTED' }); // and never answered
	});

	it('truncatedJson: the real answer cut in half', async () => {
		sb.configure({ faults: { kinds: ['truncatedJson'], phase: 'after' } });
		const res = await post(sb, '/v2/custom', { m1: { points: 'x' } });
		expect(
			res.text.startsWith('{"httpStatus":{"code":200,"reasonPhrase":"OK"},"processCode":1'),
		).toBe(true);
		expect(() => JSON.parse(res.text) as unknown).toThrow();
	});

	it('a retry after an "after" fault repeats an idempotent write without harm', async () => {
		sb.configure({ faults: { kinds: ['http503html'], phase: 'after', firstN: 1 } });
		expect((await write(9)).status).toBe(503);
		expect((await write(9)).code).toBe(0);
		expect(sb.state.custom.get('m1')?.get('points')).toBe(9);
	});
});

describe('which requests are faulted', () => {
	it('without rate and firstN every matching request is faulted', async () => {
		sb.configure({ faults: { kinds: ['emptyBody'] } });
		expect(await pattern(5)).toBe('xxxxx');
	});

	it('firstN: the first N matching requests, then none', async () => {
		sb.configure({ faults: { kinds: ['http500html'], firstN: 2 } });
		expect(await pattern(5)).toBe('xx...');
	});

	it('rate with a seed: a deterministic sequence, the same after reset(), another with another seed', async () => {
		sb.configure({ faults: { kinds: ['emptyBody'], rate: 0.5, seed: 42 } });
		const first = await pattern(40);
		sb.reset();
		const second = await pattern(40);
		expect(second).toBe(first);
		const hits = first.split('').filter((c) => c === 'x').length;
		// Seed 42 gives this sequence (20 of 40, the rate asked for), on every run.
		expect(first).toBe('..xx.x.x.x..xx.xxxx.xx..xx....xx.x...x.x');
		expect(hits).toBe(20);
		sb.configure({ faults: { kinds: ['emptyBody'], rate: 0.5, seed: 7 } });
		sb.requests.length = 0;
		expect(await pattern(40)).not.toBe(first);
	});

	it('the kind is picked by the seeded PRNG among `kinds`, deterministically', async () => {
		const kinds: FaultKind[] = ['http500html', 'emptyBody', 'code-9999'];
		sb.configure({ faults: { kinds, seed: 3 } });
		await pattern(30);
		const picked = sb.requests.map((r) => r.faulted);
		expect(new Set(picked)).toEqual(new Set(kinds));
		sb.configure({ faults: { kinds, seed: 3 } });
		sb.requests.length = 0;
		await pattern(30);
		expect(sb.requests.map((r) => r.faulted)).toEqual(picked);
	});

	it('firstN with rate: the rate decides inside the first N only', async () => {
		sb.configure({ faults: { kinds: ['emptyBody'], firstN: 10, rate: 0.5, seed: 5 } });
		const p = await pattern(30);
		expect(p.slice(10)).toBe('.'.repeat(20));
		expect(p.slice(0, 10)).toContain('x');
		expect(p.slice(0, 10)).toContain('.');
	});

	it('match: only the requests it selects are faulted (and counted for firstN)', async () => {
		sb.configure({
			faults: { kinds: ['http503html'], firstN: 1, match: (req) => req.method === 'POST' },
		});
		expect((await get(sb, '/v2/custom')).status).toBe(200);
		expect((await write()).status).toBe(503);
		expect((await write()).status).toBe(200);
	});

	it('configure({ faults: undefined }) stops the faults', async () => {
		sb.configure({ faults: { kinds: ['drop'] } });
		sb.configure({ faults: undefined });
		expect((await write()).code).toBe(0);
	});

	it('a new fault configuration starts a new sequence (firstN counts again)', async () => {
		sb.configure({ faults: { kinds: ['emptyBody'], firstN: 1 } });
		expect(await pattern(2)).toBe('x.');
		sb.configure({ faults: { kinds: ['emptyBody'], firstN: 1 } });
		sb.requests.length = 0;
		expect(await pattern(2)).toBe('x.');
	});

	it('faults apply to plain axios calls as well (no helper involved)', async () => {
		sb.configure({ faults: { kinds: ['http502html'] } });
		const res = await axios.get(`${sb.baseUrl}/v2/custom`, {
			headers: { 'x-api-key': sb.apiKey },
			validateStatus: () => true,
		});
		expect(res.status).toBe(502);
	});
});
