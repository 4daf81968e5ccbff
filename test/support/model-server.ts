/**
 * A scripted OpenAI-compatible chat model for the AI-agent tests (no network, no real model):
 * it answers `POST /v1/chat/completions` with the tool call its plan names for the turn, and
 * records every request, so a test reads exactly what the model was told. n8n's OpenAI Chat
 * Model (`lmChatOpenAi` typeVersion 1.2, Chat Completions) reaches it through the OpenAI
 * credential's Base URL (`<baseUrl>/v1`).
 *
 * The plan is stateless: the answer to a request is the plan's next turn after those whose tool
 * results the request already carries. A turn is one step or an array of steps (several tool
 * calls in one answer, as a model calling tools in parallel does). A step names a tool by a
 * pattern (the tool names n8n derives from node names) and its arguments; past the plan's end
 * the model answers in text.
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

/** One answer of the model: one tool call, or several in the same answer. */
export type Turn = ToolStep | readonly ToolStep[];

export interface ModelServer {
	/** The Base URL for the OpenAI credential. */
	baseUrl: string;
	/** The plan the next requests follow (replace it between runs). */
	plan: readonly Turn[];
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

/** The plan's turn after the tool results the request carries (undefined past the end). */
function nextTurn(plan: readonly Turn[], results: number): readonly ToolStep[] | undefined {
	let answered = 0;
	for (const turn of plan) {
		const steps = Array.isArray(turn) ? (turn as readonly ToolStep[]) : [turn as ToolStep];
		if (answered >= results) return steps;
		answered += steps.length;
	}
	return undefined;
}

function reply(body: Json, plan: readonly Turn[], turn: number): Json {
	const steps = nextTurn(plan, toolMessages(body).length);
	if (!steps) return { role: 'assistant', content: FINAL_TEXT };
	const names = ((body.tools ?? []) as Json[]).map((t) => t.function?.name as string);
	const calls = steps.map((step, i) => {
		const name = names.find((n) => step.tool.test(n));
		if (!name)
			throw new Error(`no offered tool matches ${step.tool}; offered: ${names.join(', ')}`);
		return {
			id: steps.length === 1 ? `call_${turn}` : `call_${turn}_${i}`,
			type: 'function',
			function: { name, arguments: JSON.stringify(step.args) },
		};
	});
	return { role: 'assistant', content: null, tool_calls: calls };
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
		? {
				role: 'assistant',
				tool_calls: (message.tool_calls as Json[]).map((call, index) => ({ index, ...call })),
			}
		: { role: 'assistant', content: message.content };
	const chunk = (choice: Json, extra: Json = {}) =>
		`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...extra })}\n\n`;
	res.write(chunk({ index: 0, delta, finish_reason: null }));
	res.write(chunk({ index: 0, delta: {}, finish_reason: finish }, { usage }));
	res.end('data: [DONE]\n\n');
}

export async function startModelServer(plan: readonly Turn[]): Promise<ModelServer> {
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
		set plan(next: readonly Turn[]) {
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
