/**
 * The human-review workflow of test/e2e/review.e2e.ts, built as the editor saves it: a Webhook
 * starts n8n's AI Agent 3.1 (the scripted model) whose one tool, Campaign Alimtalk send, is
 * connected through n8n's Send Email review node (`emailSendHitlTool`, Send and Wait for
 * Approval): each call of the send mails an approval request through the SMTP credential and
 * waits; Approve runs the send, Decline tells the model it was rejected.
 */
import { agentWorkflow, toolNode, withWebhook, type ToolNode } from './agent';
import type { Json } from './n8n';

export const SMTP_CREDENTIAL = { id: 'e2eLocalSmtp', name: 'Local SMTP' };
export const REVIEW_NODE = 'Approve by email';
export const REVIEW_NODE_ID = 'a9e00000-0000-4000-8000-0000000000e1';

/** The local SMTP server as n8n's SMTP credential (no login, no TLS). */
export function smtpCredential(host: string, port: number) {
	return {
		...SMTP_CREDENTIAL,
		type: 'smtp',
		data: { user: '', password: '', host, port, secure: false, disableStartTls: true },
	};
}

/** Webhook (POST `path`) -> AI Agent 3.1 <- review node <- `tool`. */
export function reviewWorkflow(id: string, path: string, tool: ToolNode): Json {
	const base = withWebhook(agentWorkflow(id, 3.1, []), path, 1);
	const agent = 'AI Agent';
	const review = {
		parameters: {
			fromEmail: 'n8n@example.test',
			toEmail: 'reviewer@example.test',
			subject: 'Approve this Alimtalk send?',
			// The default message prints the parameters as [object Object] (n8n 2.41.1).
			message:
				'=The agent wants to run {{ $tool.name }} with:\n{{ JSON.stringify($tool.parameters) }}',
			approvalOptions: { values: { approvalType: 'double' } },
			options: {},
		},
		id: REVIEW_NODE_ID,
		name: REVIEW_NODE,
		type: 'n8n-nodes-base.emailSendHitlTool',
		typeVersion: 2.1,
		position: [400, 250],
		webhookId: 'a9e00000-0000-4000-8000-0000000000f1',
		credentials: { smtp: SMTP_CREDENTIAL },
	};
	const nodes = [...(base.nodes as Json[]), review, toolNode(tool, 1)];
	const connections: Json = {
		...base.connections,
		[tool.name]: { ai_tool: [[{ node: REVIEW_NODE, type: 'ai_tool', index: 0 }]] },
		[REVIEW_NODE]: { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] },
	};
	return { ...base, name: 'e2e human review', nodes, connections };
}
