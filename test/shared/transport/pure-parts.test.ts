/**
 * The pure parts of the transport, each on its own: envelope parsing, the outcome classifier
 * and the retry policy (no server, no engine).
 */
import {
	classify,
	networkCodeOf,
	readEnvelope,
	retryStep,
	textNestsDeeperThan,
	toCode,
	type RawOutcome,
	type Redactor,
} from '../../../nodes/shared/transport';
import type { CodeKind } from '../../../nodes/shared/codes';
import { cutServiceText, MAX_SERVICE_TEXT } from '../../../nodes/shared/codes';

const plain: Redactor = { text: (t) => t, body: (parsed) => parsed };
const answer = (status: number, body: unknown): RawOutcome => ({
	status,
	text: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('envelope', () => {
	it('reads codes as numbers or numeric text, and nothing else', () => {
		expect([
			toCode(-1009),
			toCode(' -1009 '),
			toCode('0'),
			toCode(0.5),
			toCode('abc'),
			toCode(null),
		]).toEqual(['-1009', '-1009', '0', undefined, undefined, undefined]);
	});

	it('takes processCode first, then the send family fields, with the first non-blank message', () => {
		expect(
			readEnvelope({ processCode: '7012', code: 1, message: ' ', processMessage: 'bad' }),
		).toEqual({ code: '7012', processValue: undefined, message: 'bad' });
		expect(readEnvelope({ resultCode: 1401 })?.code).toBe('1401');
		expect(readEnvelope({ httpStatus: { code: 200 } })).toBeUndefined();
		expect(readEnvelope([{ processCode: 0 }])).toBeUndefined();
	});
});

describe('outcome classifier', () => {
	it('lets an envelope decide over the HTTP status', () => {
		const result = classify({}, answer(503, { processCode: -1006 }), 1, plain);
		expect([result.code, result.info.kind, result.httpStatus]).toEqual(['-1006', 'rejected', 503]);
	});

	it('turns a passing fault answered to a send into an unknown delivery, except "not processed"', () => {
		expect(
			classify({ repeatability: 'unsafe' }, answer(200, { processCode: -9999 }), 1, plain).info
				.kind,
		).toBe('deliveryUnknown');
		expect(
			classify({ repeatability: 'unsafe' }, answer(200, { processCode: -1005 }), 1, plain).info
				.kind,
		).toBe('transient');
		expect(
			classify({ repeatability: 'idempotent' }, answer(200, { processCode: -9999 }), 1, plain).info
				.kind,
		).toBe('transient');
	});

	it('accepts any JSON or an empty body only where the envelope is optional', () => {
		expect(classify({ envelope: 'optional' }, answer(200, ''), 1, plain).code).toBe('0');
		expect(classify({ envelope: 'optional' }, answer(200, { sent: true }), 1, plain).code).toBe(
			'0',
		);
		const required = classify({}, answer(200, { sent: true }), 1, plain);
		expect([required.code, required.info.kind, required.info.message]).toEqual([
			'HTTP_200',
			'transient',
			expect.stringMatching(/JSON without a processCode/),
		]);
		expect(
			classify({ envelope: 'optional' }, answer(200, { processCode: 'abc' }), 1, plain).info
				.message,
		).toMatch(/processCode that is not a code/);
	});

	it('refuses JSON nested too deep, from its text, without parsing it', () => {
		const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
		const result = classify({}, answer(200, deep), 1, plain);
		expect(result).toMatchObject({ code: 'RESPONSE_TOO_DEEP', body: undefined });
		expect(result.info).toMatchObject({
			kind: 'account',
			message: expect.stringMatching(/nested deeper than 64 levels/),
		});
		// Unterminated, 8 million levels: refused at level 65, long before the end of the text.
		expect(classify({}, answer(200, '['.repeat(8_000_000)), 1, plain).code).toBe(
			'RESPONSE_TOO_DEEP',
		);
	});

	it('counts only the brackets outside strings, escapes included', () => {
		const nest = (levels: number, inner = '0') =>
			`${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
		expect(textNestsDeeperThan(nest(64), 64)).toBe(false);
		expect(textNestsDeeperThan(nest(65), 64)).toBe(true);
		expect(textNestsDeeperThan(nest(3, JSON.stringify('[[[[{{{{ \\" [[[[')), 4)).toBe(false);
		expect(textNestsDeeperThan(`{"a":"\\\\",${nest(5)}}`, 5)).toBe(true);
		expect(textNestsDeeperThan('', 64)).toBe(false);
	});

	it('cuts a service message to MAX_SERVICE_TEXT characters, never inside a surrogate pair', () => {
		expect(cutServiceText('short')).toBe('short');
		const cut = cutServiceText('x'.repeat(10_000));
		expect(cut).toBe(`${'x'.repeat(MAX_SERVICE_TEXT)}…`);
		const emoji = cutServiceText(`${'x'.repeat(MAX_SERVICE_TEXT - 1)}😀😀`);
		expect(emoji).toBe(`${'x'.repeat(MAX_SERVICE_TEXT - 1)}…`);
		const message = { processCode: -1001, message: 'y'.repeat(5000) };
		expect(classify({}, answer(200, message), 1, plain).serviceMessage).toBe(
			`${'y'.repeat(MAX_SERVICE_TEXT)}…`,
		);
	});

	it('maps statuses without an envelope', () => {
		const kinds = [401, 403, 404, 429, 500, 400].map(
			(status) => classify({}, answer(status, '<html>'), 1, plain).info.kind,
		);
		expect(kinds).toEqual(['account', 'account', 'account', 'transient', 'transient', 'rejected']);
		expect(classify({ repeatability: 'unsafe' }, answer(502, ''), 2, plain)).toMatchObject({
			code: 'HTTP_502',
			deliveryUnknown: true,
			attempts: 2,
		});
	});

	it('says a send may have gone out after a network failure, unless the request never left', () => {
		expect(
			classify({ repeatability: 'unsafe' }, { networkCode: 'ECONNRESET' }, 1, plain).info.kind,
		).toBe('deliveryUnknown');
		expect(
			classify({ repeatability: 'unsafe' }, { networkCode: 'ECONNREFUSED' }, 1, plain).info.kind,
		).toBe('transient');
		expect(classify({}, { networkCode: 'ETIMEDOUT' }, 1, plain).info.message).toMatch(/timed out/);
	});

	it('hands the body and the service message through the redactor', () => {
		const redactor: Redactor = {
			text: (t) => t.replace('SECRET', '[redacted]'),
			body: () => ({ processCode: 0, message: 'SECRET said' }),
		};
		const result = classify({}, answer(200, { processCode: 0 }), 1, redactor);
		expect(result.serviceMessage).toBe('[redacted] said');
		expect(result.body).toEqual({ processCode: 0, message: 'SECRET said' });
	});

	it('finds the network code inside the wrapped error, and only a network one', () => {
		expect(networkCodeOf({ message: 'x', cause: { code: 'ECONNREFUSED' } })).toBe('ECONNREFUSED');
		expect(networkCodeOf({ code: 'ECONNABORTED', message: 'timeout of 1000ms exceeded' })).toBe(
			'ETIMEDOUT',
		);
		expect(networkCodeOf({ code: 'ECONNABORTED', message: 'aborted' })).toBe('ECONNRESET');
		expect(networkCodeOf({ message: 'socket hang up' })).toBe('ECONNRESET');
		expect(networkCodeOf({ code: 'ERR_CANCELED', message: 'timeout' })).toBeUndefined();
		expect(networkCodeOf(new Error('Credentials not found'))).toBeUndefined();
	});
});

describe('retry policy', () => {
	const idempotent = { repeatability: 'idempotent' as const, maxRetries: 2 };
	const unsafe = { repeatability: 'unsafe' as const, maxRetries: 2 };

	it('retries passing faults while retries are left, then stops the node', () => {
		expect([1, 2, 3].map((attempt) => retryStep('transient', idempotent, attempt))).toEqual([
			'retry',
			'retry',
			'throw',
		]);
		expect(retryStep('transient', { ...idempotent, maxRetries: 0 }, 1)).toBe('throw');
	});

	it('never retries an account failure, and hands rows and successes back', () => {
		expect(retryStep('account', idempotent, 1)).toBe('throw');
		expect(
			['success', 'rejected', 'deleteRefused', 'limit'].map((kind) =>
				retryStep(kind as CodeKind, idempotent, 1),
			),
		).toEqual(['return', 'return', 'return', 'return']);
	});

	it('repeats an unknown delivery only when harmless or accepted; otherwise the node reports it', () => {
		expect(retryStep('deliveryUnknown', idempotent, 1)).toBe('retry');
		expect(retryStep('deliveryUnknown', idempotent, 3)).toBe('throw');
		expect(retryStep('deliveryUnknown', unsafe, 1)).toBe('return');
		expect(retryStep('deliveryUnknown', { ...unsafe, retryUnknownDelivery: true }, 1)).toBe(
			'retry',
		);
		expect(retryStep('deliveryUnknown', { ...unsafe, retryUnknownDelivery: true }, 3)).toBe(
			'return',
		);
	});
});
