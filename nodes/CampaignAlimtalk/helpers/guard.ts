/** Why a keyless tool send is refused: docs/ai-agents.md, "No keyless send as a tool". */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { withServiceCode } from '../../shared/codes';
import { KEY_REQUIRED_CODE, SEND_CODES, SET_KEY } from './send-codes';
import { keyIsSet } from '../key/key-options';
import { savedOptionsOf } from '../../shared/options';

export function refuseKeylessTool(ctx: IExecuteFunctions): void {
	if (keyIsSet(savedOptionsOf(ctx.getNode()))) return;
	const { message } = SEND_CODES[KEY_REQUIRED_CODE];
	const recipient = ctx.getNode().parameters.recipient === 'memberId' ? 'memberId' : 'phoneNumber';
	const error = new NodeOperationError(ctx.getNode(), message, { description: SET_KEY[recipient] });
	throw withServiceCode(error, KEY_REQUIRED_CODE);
}
