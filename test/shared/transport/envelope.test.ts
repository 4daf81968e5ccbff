/**
 * How the transport reads an answer, through the probe node in n8n's real engine: the envelope
 * read tolerantly, the envelope code deciding over the HTTP status, and the words of every code.
 * The parts on their own are in pure-parts.test.ts.
 */
import type { ScriptedServer } from '../../support/scripted-server';
import { envelope } from '../../support/scripted-server';
import { CODES } from '../../../nodes/shared/codes';
import { useProbe } from './support';

let server: ScriptedServer | undefined;
const probe = useProbe({ get: () => server, set: (started) => (server = started) });

describe('envelope parsing is tolerant', () => {
	it.each([
		['a number', 0],
		['a numeric string', '0'],
		['a padded numeric string', ' 0 '],
	])('reads processCode given as %s', async (_label, code) => {
		const { json } = await probe(() => ({ body: envelope(code, { ok: true }) }));
		expect(json).toMatchObject({ code: '0', kind: 'success', processValue: { ok: true } });
	});

	it('reads httpStatus.code as a string and its "col" misspelling without letting them decide', async () => {
		const asString = await probe(() => ({
			body: { httpStatus: { code: '200' }, processCode: '1', processValue: [] },
		}));
		expect(asString.json).toMatchObject({ code: '1', kind: 'success' });
		await server?.close();
		const col = await probe(() => ({
			body: { httpStatus: { col: 200, reasonPhrase: 'OK' }, processCode: 0 },
		}));
		expect(col.json).toMatchObject({ code: '0', processValue: null });
	});

	it('accepts a missing processValue', async () => {
		const { json } = await probe(() => ({ body: { processCode: 0 } }));
		expect(json).toMatchObject({ code: '0', processValue: null });
	});

	it('lets the envelope code decide over the HTTP status (a v1 -1006 sent as HTTP 503)', async () => {
		const { json, requests } = await probe(() => ({ status: 503, body: envelope(-1006) }));
		expect(json).toMatchObject({ code: '-1006', kind: 'rejected', httpStatus: 503 });
		expect(requests).toBe(1);
	});

	it('treats a send answered 200 with an empty body as success when the envelope is optional', async () => {
		const { json } = await probe(() => ({ status: 200, body: '' }), {
			method: 'POST',
			path: '/messages/alimtalk/trigger',
			body: {},
			repeatability: 'unsafe',
			envelope: 'optional',
		});
		expect(json).toMatchObject({ code: '0', kind: 'success' });
	});

	it('reads the flat {code, message} shape of the send', async () => {
		const { json } = await probe(() => ({ status: 400, body: { code: 7012, message: 'length' } }), {
			method: 'POST',
			path: '/messages/alimtalk/trigger',
			body: {},
			repeatability: 'unsafe',
			envelope: 'optional',
		});
		expect(json).toMatchObject({ code: '7012', kind: 'rejected', serviceMessage: 'length' });
	});

	it('reports an unknown code as unknown instead of guessing', async () => {
		const { json } = await probe(() => ({ body: envelope(-4242) }));
		expect(json).toMatchObject({ code: '-4242', kind: 'rejected' });
		expect(String(json?.message)).toContain('unknown code -4242');
	});
});

describe('the code table', () => {
	const spec = [
		0, 1, -1000, -1001, -1002, -1003, -1004, -1005, -1006, -1007, -1009, -1010, -1012, -1013, -9997,
		-9998, -9999, 1101, 1102, 1201, 1202, 1203, 1204, 1401, 1402, 1403, 1404, 1405, 2000, 7001,
		7002, 7003, 7004, 7005, 7006, 7007, 7008, 7009, 7010, 7011, 7012, 7997, 7998, 7999,
	];
	it('has plain words and a hint for every code of spec section 7', () => {
		for (const code of spec) {
			const info = CODES[String(code)];
			expect(info).toBeDefined();
			expect(info.message.length).toBeGreaterThan(5);
			if (info.kind !== 'success') expect(info.hint.length).toBeGreaterThan(5);
		}
	});
});
