/**
 * The official MCP TypeScript client against n8n's MCP Server Trigger (test/e2e/mcp.e2e.ts,
 * guardrails.e2e.ts): connect over streamable HTTP with a bearer token, call a tool and read the
 * answer n8n puts in its one text part, and the file's log of each call's outcome (kept in
 * `<artifacts>/calls.json`). Each request of the client is bounded by the SDK's request timeout
 * (60 s).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as rt from '../../../scripts/runtime';
import { parseToolAnswers } from '../../support/agent-example';
import { fs, path } from '../../support/node';
import { MCP_PATH } from './agent';
import { ARTIFACTS, type Json } from './n8n';

export type { Client };

/** A client connected to `<baseUrl>/mcp/<path>`, with `token` as its bearer token (none: no header). */
export async function connectMcp(
	baseUrl: string,
	token: string | undefined,
	{ name = 'campaign-e2e', path = MCP_PATH } = {},
): Promise<Client> {
	const client = new Client({ name, version: '1.0.0' });
	const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
	const url = new URL(`${baseUrl}/mcp/${path}`);
	await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
	return client;
}

/** One tool call: the answer's items, its text as the client got it, and whether it was marked an error. */
export interface McpAnswer {
	answer: Json[];
	text: string;
	isError: boolean;
}

export async function callMcp(client: Client, name: string, args: Json): Promise<McpAnswer> {
	const result = (await client.callTool({ name, arguments: args })) as Json;
	const text = (result.content as Json[]).find((part) => part.type === 'text')?.text as string;
	const [answer] = parseToolAnswers([text]);
	return { answer: answer as Json[], text, isError: result.isError === true };
}

/** The outcomes of the file's tool calls, in order (jest loads this module once per file). */
const calls: Json[] = [];

/** Keeps and logs one call's outcome (the closing notes quote them). */
export function logCall(label: string, answer: Json[]): void {
	const outcomes = answer.map((a) => ({ outcome: a.outcome, code: a.code, message: a.message }));
	calls.push({ label, outcomes });
	rt.log(`${path.basename(ARTIFACTS)}: ${label}: ${JSON.stringify(outcomes)}`);
}

/** Writes the calls logged so far to `<artifacts>/calls.json`. */
export function writeCalls(): void {
	fs.writeFileSync(path.join(ARTIFACTS, 'calls.json'), `${JSON.stringify(calls, null, 2)}\n`);
}

/**
 * The MCP client of one describe block: connected in its beforeAll to `url()` (n8n's, known once
 * n8n runs) with `token`, closed in its afterAll. `call` calls a tool with a member ID or the
 * arguments, logs the outcome and expects the call not to be marked an MCP error.
 */
export function useMcpClient(url: () => string, token: string, name: string) {
	let client: Client | undefined;
	beforeAll(async () => {
		client = await connectMcp(url(), token, { name });
	});
	afterAll(async () => {
		await client?.close();
	});
	const connected = () => {
		if (!client) throw new Error(`the MCP client ${name} is not connected`);
		return client;
	};
	return {
		client: connected,
		async call(label: string, tool: string, args: string | Json): Promise<McpAnswer> {
			const given = typeof args === 'string' ? { memberId: args } : args;
			const answer = await callMcp(connected(), tool, given);
			logCall(`MCP ${label}`, answer.answer);
			expect(answer.isError).toBe(false);
			return answer;
		},
	};
}
