/**
 * No keyless send as a tool. A model (or a prompt injected into what it reads) can call a send
 * tool as often as it likes; without a Deduplication Key every call is a new billed message. As an
 * AI-agent or MCP tool the send therefore refuses to run without one, before anything is read or
 * sent: a failure of the whole call, which the model receives as `{ outcome: 'error', code:
 * 'deduplicationKeyRequired', message, details }` (shared/tool.ts). Outside tool mode nothing
 * changes. docs/ai-agents.md, "No keyless send as a tool".
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { withServiceCode } from '../../shared/codes';
import { KEY_REQUIRED_CODE, SEND_CODES, SET_KEY } from './send-codes';
import { keyIsSet } from '../key/key-options';
import { savedOptionsOf } from '../../shared/options';

/** Throws the refusal when the node has no Deduplication Key; called only in tool mode (send.ts). */
export function refuseKeylessTool(ctx: IExecuteFunctions): void {
	if (keyIsSet(savedOptionsOf(ctx.getNode()))) return;
	const { message } = SEND_CODES[KEY_REQUIRED_CODE];
	// The advice fits the Recipient: never a key the model fills (docs/ai-agents.md).
	const recipient = ctx.getNode().parameters.recipient === 'memberId' ? 'memberId' : 'phoneNumber';
	const error = new NodeOperationError(ctx.getNode(), message, { description: SET_KEY[recipient] });
	throw withServiceCode(error, KEY_REQUIRED_CODE);
}
