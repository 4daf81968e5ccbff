/**
 * A tiny scripted HTTP server for transport tests: each request is answered by the test's
 * handler, which can also drop the connection or never answer.
 */
import { http, type net } from './node';

export interface Seen {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export type Answer =
	| { status?: number; headers?: Record<string, string>; body?: string | object }
	| 'drop'
	| 'hang';

export interface ScriptedServer {
	baseUrl: string;
	seen: Seen[];
	close(): Promise<void>;
}

export async function startScripted(
	handler: (req: Seen, index: number) => Answer,
): Promise<ScriptedServer> {
	const seen: Seen[] = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c: Buffer) => (body += c.toString('utf8')));
		req.on('end', () => {
			const entry: Seen = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body,
			};
			seen.push(entry);
			const answer = handler(entry, seen.length - 1);
			if (answer === 'hang') return;
			if (answer === 'drop') {
				req.socket.destroy();
				return;
			}
			const payload =
				typeof answer.body === 'object' ? JSON.stringify(answer.body) : (answer.body ?? '');
			res.writeHead(answer.status ?? 200, {
				'content-type': typeof answer.body === 'object' ? 'application/json' : 'text/html',
				...answer.headers,
			});
			res.end(payload);
		});
	});
	return { ...(await listen(server)), seen };
}

/**
 * Starts `server` on a free 127.0.0.1 port; close() ends its open connections too (a test server
 * must not keep a hanging or keep-alive socket open after its test).
 */
export async function listen(
	server: http.Server,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
	const sockets = new Set<net.Socket>();
	server.on('connection', (socket: net.Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** The service's envelope. */
export function envelope(
	processCode: number | string,
	processValue?: unknown,
	extra: object = {},
): object {
	return { httpStatus: { code: 200, reasonPhrase: 'OK' }, processCode, processValue, ...extra };
}
