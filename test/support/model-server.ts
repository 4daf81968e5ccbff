/**
 * A scripted OpenAI-compatible chat model for the AI-agent tests (no network, no real model):
 * it answers `POST /v1/chat/completions` with the tool call its plan names for the turn, and
 * records every request, so a test reads exactly what the model was told. n8n's OpenAI Chat
 * Model (`lmChatOpenAi` typeVersion 1.2, Chat Completions) reaches it through the OpenAI
 * credential's Base URL (`<baseUrl>/v1`).
 *
 * The plan is stateless: the answer to a request is step k of the plan, k being how many tool
 * results the request already carries. A step names a tool by a pattern (the tool names n8n
 * derives from node names) and its arguments; past the plan's end the model answers in text.
 */
import { http } from './node';
import { listen } from './scripted-server';

export interface ToolStep {
	/** Matched against the names of the tools the request offers; the first match is called. */
	tool: RegExp;
	args: Record<string, unknown>;
}

// The chat requests are untyped JSON; the tests check what they need.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

export interface ModelServer {
	/** The Base URL for the OpenAI credential. */
	baseUrl: string;
	/** The plan the next requests follow (replace it between runs). */
	plan: readonly ToolStep[];
	requests: Json[];
	/** What each tool call of the last conversation returned to the model, in call order. */
	toolResults(): Array<{ tool: string; args: Json; content: string }>;
	/** The tool names (and their JSON schemas) the last request offered. */
	tools(): Array<{ name: string; parameters: Json }>;
	close(): Promise<void>;
}

const FINAL_TEXT = 'All requested actions are done.';

function toolMessages(body: Json): Json[] {
	return ((body.messages ?? []) as Json[]).filter((m) => m.role === 'tool');
}

function reply(body: Json, plan: readonly ToolStep[], turn: number): Json {
	const step = plan[toolMessages(body).length];
	if (!step) return { role: 'assistant', content: FINAL_TEXT };
	const names = ((body.tools ?? []) as Json[]).map((t) => t.function?.name as string);
	const name = names.find((n) => step.tool.test(n));
	if (!name) throw new Error(`no offered tool matches ${step.tool}; offered: ${names.join(', ')}`);
	return {
		role: 'assistant',
		content: null,
		tool_calls: [
			{
				id: `call_${turn}`,
				type: 'function',
				function: { name, arguments: JSON.stringify(step.args) },
			},
		],
	};
}

function send(res: http.ServerResponse, body: Json, message: Json): void {
	const base = { id: 'chatcmpl-scripted', created: 1, model: body.model ?? 'scripted' };
	const finish = message.tool_calls ? 'tool_calls' : 'stop';
	const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
	if (!body.stream) {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message, finish_reason: finish }],
				usage,
			}),
		);
		return;
	}
	res.writeHead(200, { 'content-type': 'text/event-stream' });
	const delta = message.tool_calls
		? { role: 'assistant', tool_calls: [{ index: 0, ...message.tool_calls[0] }] }
		: { role: 'assistant', content: message.content };
	const chunk = (choice: Json, extra: Json = {}) =>
		`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...extra })}\n\n`;
	res.write(chunk({ index: 0, delta, finish_reason: null }));
	res.write(chunk({ index: 0, delta: {}, finish_reason: finish }, { usage }));
	res.end('data: [DONE]\n\n');
}

export async function startModelServer(plan: readonly ToolStep[]): Promise<ModelServer> {
	const requests: Json[] = [];
	const current = { plan };
	const server = http.createServer((req, res) => {
		let text = '';
		req.on('data', (c: Buffer) => (text += c.toString('utf8')));
		req.on('end', () => {
			if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
				res.writeHead(404, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: `not scripted: ${req.method} ${req.url}` } }));
				return;
			}
			try {
				const body = JSON.parse(text) as Json;
				requests.push(body);
				send(res, body, reply(body, current.plan, requests.length));
			} catch (error) {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: (error as Error).message } }));
			}
		});
	});
	const { baseUrl, close } = await listen(server);
	const last = () => requests[requests.length - 1] ?? {};
	return {
		baseUrl: `${baseUrl}/v1`,
		get plan() {
			return current.plan;
		},
		set plan(next: readonly ToolStep[]) {
			current.plan = next;
		},
		requests,
		toolResults() {
			const messages = (last().messages ?? []) as Json[];
			const calls = new Map<string, Json>();
			for (const m of messages) {
				for (const call of (m.tool_calls ?? []) as Json[]) calls.set(call.id as string, call);
			}
			return toolMessages(last()).map((m) => {
				const call = calls.get(m.tool_call_id as string);
				return {
					tool: (call?.function?.name as string) ?? '?',
					args: JSON.parse((call?.function?.arguments as string) ?? '{}') as Json,
					content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
				};
			});
		},
		tools() {
			return ((last().tools ?? []) as Json[]).map((t) => ({
				name: t.function?.name as string,
				parameters: (t.function?.parameters ?? {}) as Json,
			}));
		},
		close,
	};
}
