/**
 * The sandbox: a faithful local HTTP simulator of the campaign service's API (its rules in
 * docs/service-rules.md), on node:http, listening on 127.0.0.1 only.
 *
 *   const sb = await startSandbox({ apiKey: 'k' });
 *   // ... requests to sb.baseUrl with header x-api-key: k ...
 *   await sb.close();
 *
 * Module map: types.ts (public types), context.ts (options, request context, paging cursors),
 * envelope.ts (response shapes), rules.ts (value rules), routes/* (one file per API area),
 * faults.ts (fault injection), state.ts (data), demo.ts (demo data), cli.ts (standalone run).
 */
import {
	clearTimer,
	createServer,
	setTimer,
	type IncomingMessage,
	type Server,
	type ServerResponse,
	type Socket,
} from './node';
import {
	CursorStore,
	defaultOptions,
	mergeOptions,
	parseBody,
	type RequestContext,
	type ResolvedOptions,
} from './context';
import { envelope, JSON_TYPE, type Reply } from './envelope';
import { FaultInjector, renderFault, type FaultAction } from './faults';
import { normalizePath, routeRequest, statusFieldFor } from './routes';
import { campaignDefaults, clearState, createState } from './state';
import type {
	CampaignConfig,
	FaultKind,
	KeyFormat,
	LoggedRequest,
	Sandbox,
	SandboxOptions,
	SandboxState,
} from './types';

export * from './types';

const REDACTED = '[redacted]';

function collectHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value === undefined) continue;
		headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

function collectQuery(url: URL): Record<string, string> {
	const query: Record<string, string> = {};
	// Decision: with a repeated parameter the first value counts.
	for (const [name, value] of url.searchParams) if (!(name in query)) query[name] = value;
	return query;
}

/** The body as logged: parsed JSON, else the raw string, undefined when empty. */
function loggedBody(raw: string): unknown {
	if (raw === '') return undefined;
	// The same parse the route gets (parseBody remembers it): a large body is parsed once.
	const parsed = parseBody(raw);
	return parsed.kind === 'json' ? parsed.value : raw;
}

class SandboxServer implements Sandbox {
	baseUrl = '';
	apiKey: string;
	readonly requests: LoggedRequest[] = [];
	inFlight = 0;
	maxInFlight = 0;
	readonly state: SandboxState = createState();

	private options: ResolvedOptions;
	private injector: FaultInjector;
	private readonly cursors = new CursorStore();
	private readonly server: Server;
	private readonly sockets = new Set<Socket>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private closing: Promise<void> | undefined;

	constructor(options: SandboxOptions) {
		this.options = mergeOptions(defaultOptions(), options);
		this.apiKey = this.options.apiKey;
		this.injector = new FaultInjector(this.options.faults);
		this.server = createServer((req, res) => this.handle(req, res));
		this.server.on('connection', (socket: Socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
	}

	listen(port: number): Promise<void> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, '127.0.0.1', () => {
				this.server.off('error', reject);
				const address = this.server.address();
				const actualPort = typeof address === 'object' && address !== null ? address.port : port;
				this.baseUrl = `http://127.0.0.1:${actualPort}`;
				resolve();
			});
		});
	}

	registerKey(key: string, format: KeyFormat): void {
		this.state.customKeys.set(key, format);
	}

	addCampaign(key: string, config: Partial<CampaignConfig> = {}): void {
		const merged: CampaignConfig = { ...campaignDefaults(), ...config };
		merged.requiredVariables = [...merged.requiredVariables];
		merged.dateVariables = [...merged.dateVariables];
		this.state.campaigns.set(key, merged);
	}

	/** Requests already in progress keep the options they arrived with. */
	configure(options: Partial<SandboxOptions>): void {
		this.options = mergeOptions(this.options, options);
		this.apiKey = this.options.apiKey;
		if ('faults' in options) this.injector = new FaultInjector(this.options.faults);
	}

	/** Requests still in flight stay counted in inFlight; maxInFlight restarts from that number. */
	reset(): void {
		clearState(this.state);
		this.requests.length = 0;
		this.maxInFlight = this.inFlight;
		this.cursors.clear();
		this.injector = new FaultInjector(this.options.faults);
	}

	/** Ends every open socket (keep-alive, hanging or waiting on latency) so the process can exit. */
	close(): Promise<void> {
		if (!this.closing) {
			this.closing = new Promise<void>((resolve) => {
				for (const timer of this.timers) clearTimer(timer);
				this.timers.clear();
				this.server.close(() => resolve());
				for (const socket of this.sockets) socket.destroy();
				this.server.closeAllConnections();
			});
		}
		return this.closing;
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimer(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}

	private handle(req: IncomingMessage, res: ServerResponse): void {
		if (this.closing) {
			req.socket.destroy();
			return;
		}
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);

		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const method = (req.method ?? 'GET').toUpperCase();
		const path = normalizePath(url.pathname);
		const query = collectQuery(url);
		const headers = collectHeaders(req);
		const entry: LoggedRequest = {
			method,
			path,
			query: { ...query },
			headers: 'x-api-key' in headers ? { ...headers, 'x-api-key': REDACTED } : { ...headers },
			body: undefined,
			status: 0,
			startedAt: Date.now(),
			endedAt: 0,
		};
		this.requests.push(entry);

		// The fault decision is taken on arrival, so its sequence follows the arrival order.
		const fault = this.injector.decide({ method, path });
		const phase = this.injector.phase;
		if (fault) entry.faulted = fault;

		let ended = false;
		const end = (): void => {
			if (ended) return;
			ended = true;
			this.inFlight--;
			entry.endedAt = Date.now();
		};
		res.on('finish', end);
		res.on('close', end);

		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('error', () => undefined); // the client went away; 'close' on res does the bookkeeping
		req.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			entry.body = loggedBody(rawBody);
			const ctx: RequestContext = {
				method,
				path,
				query,
				headers,
				rawBody,
				options: this.options,
				state: this.state,
				cursors: this.cursors,
				statusField: statusFieldFor(method, path, this.options),
			};
			void this.process(ctx, res, entry, fault, phase);
		});
	}

	private async process(
		ctx: RequestContext,
		res: ServerResponse,
		entry: LoggedRequest,
		fault: FaultKind | undefined,
		phase: 'before' | 'after',
	): Promise<void> {
		// Latency is spent before the request takes effect, so it holds the request in flight.
		if (ctx.options.latencyMs > 0) await this.sleep(ctx.options.latencyMs);
		if (this.closing) return;
		let action: FaultAction;
		if (!fault) action = { action: 'reply', reply: this.route(ctx) };
		else action = renderFault(fault, ctx, phase === 'after' ? this.route(ctx) : undefined);
		switch (action.action) {
			case 'drop':
				res.socket?.destroy();
				return;
			case 'hang':
				return; // close() (or the client giving up) ends it
			case 'stall':
			case 'drip':
				await this.trickle(action.action, action.reply, res, entry);
				return;
			case 'reply':
				this.send(action.reply, res, entry);
		}
	}

	/**
	 * Headers, then the first half of the body and nothing more (stall), or one space every 500 ms
	 * (drip), until the client closes the connection or close() ends it.
	 */
	private async trickle(
		how: 'stall' | 'drip',
		reply: Reply,
		res: ServerResponse,
		entry: LoggedRequest,
	): Promise<void> {
		if (res.destroyed) return;
		entry.status = reply.status;
		entry.processCode = reply.processCode;
		res.writeHead(reply.status, { 'content-type': reply.contentType ?? JSON_TYPE });
		if (how === 'stall') {
			res.write(reply.body.slice(0, Math.max(1, Math.floor(reply.body.length / 2))));
			return;
		}
		while (!res.destroyed && !this.closing) {
			res.write(' ');
			await this.sleep(500);
		}
	}

	/** A bug in the sandbox answers -9999 with HTTP 500 (and the message), never crashes the server. */
	private route(ctx: RequestContext): Reply {
		try {
			return routeRequest(ctx);
		} catch (error) {
			const reply = envelope(
				ctx,
				-9999,
				`sandbox error: ${error instanceof Error ? error.message : String(error)}`,
			);
			return { ...reply, status: 500 };
		}
	}

	private send(reply: Reply, res: ServerResponse, entry: LoggedRequest): void {
		if (res.destroyed) return;
		entry.status = reply.status;
		entry.processCode = reply.processCode;
		const headers: Record<string, string | number> = {
			'content-length': Buffer.byteLength(reply.body),
		};
		if (reply.contentType) headers['content-type'] = reply.contentType;
		res.writeHead(reply.status, headers);
		res.end(reply.body);
	}
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sandbox = new SandboxServer(options);
	await sandbox.listen(options.port ?? 0);
	return sandbox;
}
