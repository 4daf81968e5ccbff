/**
 * The AI-agent example (examples/agent-tools.json) as the end-to-end and queue-mode tests run it:
 * the scripted model's plan (send the shipping notice by member ID, send it again), the OpenAI credential the example names pointed at the scripted model, and what the
 * model must have been told.
 */
import type { IDataObject } from 'n8n-workflow';
import type { ToolStep } from './model-server';
import { ROOT, fs, path } from './node';

export const AGENT_EXAMPLE = { file: 'agent-tools.json', id: 'cmExampleAgentTools' };

/** The parameters of the example's send tool, as the file ships them. */
export function agentExampleSend(): IDataObject {
	const file = path.join(ROOT, 'examples', AGENT_EXAMPLE.file);
	const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: IDataObject[] };
	const send = workflow.nodes.find((node) => String(node.type).endsWith('.campaignAlimtalkTool'));
	return send?.parameters as IDataObject;
}

/** The model names the member only: the send looks the number up and keys on the day and that number. */
const SEND_STEP: ToolStep = { tool: /^Send_shipping_notice$/, args: { memberId: 'member-01' } };

export const AGENT_EXAMPLE_PLAN: ToolStep[] = [SEND_STEP, SEND_STEP];

/** The example's OpenAI credential (examples/agent-tools.json), pointed at a scripted model. */
export function agentExampleCredential(modelBaseUrl: string) {
	return {
		id: 'openAiExample1',
		name: 'OpenAI account',
		type: 'openAiApi',
		data: { apiKey: 'sk-scripted', url: modelBaseUrl },
	};
}

/** The tool answers (JSON text as the model got it) of one run of the example, parsed. */
export function parseToolAnswers(contents: string[]): Array<Array<Record<string, unknown>>> {
	return contents.map((content) => {
		const parsed = JSON.parse(content) as unknown;
		return (typeof parsed === 'string' ? JSON.parse(parsed) : parsed) as Array<
			Record<string, unknown>
		>;
	});
}

/** What the model of the example must have been told, call by call. */
export const AGENT_EXAMPLE_ANSWERS = [
	// A send to a member ID names the member and never tells the model the number (sent to 821012345678).
	[{ outcome: 'sent', memberId: 'member-01' }],
	// The key's day is n8n's ($now in the instance's time zone).
	[
		{
			outcome: 'duplicate',
			duplicate: true,
			deduplicationKey: expect.stringMatching(/^shipped-\d{4}-\d{2}-\d{2}$/),
		},
	],
];

/** Every string of a parsed tool answer, field names among them (what a bound on strings must cover). */
export function answerStrings(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(answerStrings);
	if (value !== null && typeof value === 'object')
		return Object.entries(value).flatMap(([name, field]) => [name, ...answerStrings(field)]);
	return [];
}
