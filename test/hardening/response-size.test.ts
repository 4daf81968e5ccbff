/**
 * The response-size cap (MAX_RESPONSE_BYTES): an endpoint that answers without end is read up to
 * the cap and no further (the connection is closed), the whole call stops with a clear error, and
 * a send answered that way is "delivery unknown". An answer under the cap but nested deeper than
 * MAX_JSON_DEPTH is refused from its text, before any parsing, and not asked again. The largest
 * real answer, a read page of 1,000 entries with long values, is read as before.
 */
import { MAX_JSON_DEPTH, MAX_RESPONSE_BYTES } from '../../nodes/shared/transport';
import { FAST, runNode, useSandbox } from '../support';
import { readAll, sendOnce } from './support';
import { http } from '../support/node';
import { listen } from '../support/scripted-server';

const API_KEY = ['size', 'test', 'key', '5e21'].join('-');
const CHUNK = Buffer.alloc(64 * 1024, 'x');
/** What the endless server would send if nobody stopped reading: far more than the cap. */
const ENDLESS = 8 * MAX_RESPONSE_BYTES;

/** A server whose every answer is a 200 of ENDLESS bytes, written as fast as the client reads. */
async function endless() {
	const written: number[] = [];
	const server = http.createServer((_req, res) => {
		const index = written.push(0) - 1;
		res.writeHead(200, { 'content-type': 'application/json' });
		const pump = () => {
			while (written[index] < ENDLESS) {
				written[index] += CHUNK.length;
				if (!res.write(CHUNK)) return void res.once('drain', pump);
			}
			res.end();
		};
		res.on('close', () => res.removeAllListeners('drain'));
		pump();
	});
	return { ...(await listen(server)), written };
}

describe('an answer larger than the cap', () => {
	it('stops a read with a clear error after reading about the cap, not the whole answer, and does not retry', async () => {
		const server = await endless();
		try {
			const result = await readAll(server.baseUrl, API_KEY);
			expect((result.error as unknown as { message: string }).message).toContain(
				`The service answered with more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB (HTTP 200); the answer was not read`,
			);
			expect(server.written).toHaveLength(1);
			// The client closed the connection: the server wrote the cap plus what the sockets buffer, not 256 MB.
			expect(server.written[0]).toBeLessThan(2 * MAX_RESPONSE_BYTES);
		} finally {
			await server.close();
		}
	});

	it('puts a send answered that way on Failed as delivery unknown (it reached something)', async () => {
		const server = await endless();
		try {
			const result = await sendOnce(server.baseUrl, API_KEY, FAST);
			expect(result.error).toBeUndefined();
			expect(result.out[1].map((item) => item.json)).toEqual([
				expect.objectContaining({
					code: 'RESPONSE_TOO_LARGE',
					deliveryUnknown: true,
					message: expect.stringContaining('may or may not have been sent'),
				}),
			]);
			expect(server.written).toHaveLength(1);
		} finally {
			await server.close();
		}
	});
});

/** A server whose every answer is a 200 of `body`; counts the requests. */
async function answering(body: string) {
	let requests = 0;
	const server = http.createServer((_req, res) => {
		requests++;
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(body);
	});
	return { ...(await listen(server)), requests: () => requests };
}

describe('an answer nested too deep', () => {
	// Valid JSON, 3 million arrays deep: 6 MB, under the cap. Parsing it would hold the event loop
	// for seconds and build millions of arrays; its text alone shows it is no answer of the service.
	const levels = 3_000_000;
	const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;

	it('stops a read with a clear error from the text alone, and does not ask again', async () => {
		expect(deep.length).toBeLessThan(MAX_RESPONSE_BYTES);
		const server = await answering(deep);
		try {
			const result = await runNode({
				type: 'campaignCustomData',
				parameters: { operation: 'getAll', returnAll: true, options: { ...FAST, maxRetries: 3 } },
				input: [{}],
				credentials: { baseUrl: server.baseUrl, apiKey: API_KEY },
			});
			const error = result.error as unknown as { message: string; description?: string };
			expect(error.message).toContain(
				`The service answered HTTP 200 with JSON nested deeper than ${MAX_JSON_DEPTH} levels; the answer was not read`,
			);
			expect(server.requests()).toBe(1);
		} finally {
			await server.close();
		}
	}, 20_000);

	it('puts a send answered that way on Failed as delivery unknown, asked once', async () => {
		const server = await answering(deep);
		try {
			const result = await sendOnce(server.baseUrl, API_KEY, { ...FAST, maxRetries: 3 });
			expect(result.error).toBeUndefined();
			expect(result.out[1].map((item) => item.json)).toEqual([
				expect.objectContaining({
					code: 'RESPONSE_TOO_DEEP',
					deliveryUnknown: true,
					message: expect.stringContaining('may or may not have been sent'),
				}),
			]);
			expect(server.requests()).toBe(1);
		} finally {
			await server.close();
		}
	}, 20_000);
});

describe('the largest real answer', () => {
	const sb = useSandbox({});

	it('reads a page of 1,000 entries with 1,000-character values as before (far under the cap)', async () => {
		sb.configure({ pageSize: 1000 });
		const value = '가'.repeat(1000);
		for (let i = 0; i < 1000; i++)
			sb.state.custom.set(`m${String(i).padStart(4, '0')}`, new Map([['note', value]]));
		const result = await readAll(sb.baseUrl, sb.apiKey);
		expect(result.error).toBeUndefined();
		expect(result.out[0]).toHaveLength(1000);
		expect(result.out[0][999].json).toMatchObject({ memberId: 'm0999' });
		expect(JSON.stringify(result.out[0][999].json)).toContain(value);
		expect(sb.requests.filter((r) => r.path === '/v2/custom')).toHaveLength(1);
		// The page itself, as the service sends it: 3 bytes a Korean character, about 3 MB: the cap
		// leaves more than twice that.
		const page = await new Promise<number>((resolve, reject) => {
			http
				.get(`${sb.baseUrl}/v2/custom`, { headers: { 'x-api-key': sb.apiKey } }, (res) => {
					let bytes = 0;
					res.on('data', (chunk: Buffer) => (bytes += chunk.length));
					res.on('end', () => resolve(bytes));
				})
				.on('error', reject);
		});
		expect(page).toBeGreaterThan(3_000_000);
		expect(page).toBeLessThan(MAX_RESPONSE_BYTES / 2);
	});
});
