/**
 * The send when a request fails: a send that may have been delivered is not repeated (unless
 * asked), a wrong key or a failed account stops the node or the rest of the items, and an
 * unreachable host is retried.
 */
import { FAST, logLines, pairedIndexes, runNode } from '../support';
import { startScripted } from '../support/scripted-server';
import { phone, useSendFixture } from './support';

const { sb, send } = useSendFixture();

describe('Campaign Alimtalk send', () => {
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
});
