/**
 * Before a session uses n8n's deduplication store: that this n8n has one and the workflow is
 * saved. After a send: what its outcome means for its key and its place of the send limit.
 */
import type { DeduplicationHelperFunctions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { MIN_N8N_VERSION } from './errors';
import { serviceCodeOf } from '../../shared/codes';

/** What a send's outcome means for its key: sent, maybe sent (kept unconfirmed), certainly not sent. */
export type KeyFate = 'confirm' | 'keep' | 'release';

/**
 * Only a certain failure releases a key. Success confirms; an unknown delivery keeps the claim,
 * also when a later attempt was refused (the transport marks a send any attempt of which may
 * have reached the service `deliveryUnknown`, whatever the last attempt said). An answer of the
 * service that refused every attempt, or a failure that proves the request never left,
 * releases it. A thrown error that names no service code (a stopped execution aborting the
 * request, an unexpected failure) or that says an attempt may have left keeps the claim.
 */
export function keyFate(
	result: { code: string; deliveryUnknown: boolean } | Error | undefined,
): KeyFate {
	if (result === undefined) return 'release';
	if (result instanceof Error) {
		const context = (result as { context?: { deliveryUnknown?: unknown } }).context;
		const certain = serviceCodeOf(result) !== undefined && context?.deliveryUnknown !== true;
		return certain ? 'release' : 'keep';
	}
	if (result.code === '0') return 'confirm';
	return result.deliveryUnknown ? 'keep' : 'release';
}

const HELPERS: Array<keyof DeduplicationHelperFunctions> = [
	'checkProcessedAndRecord',
	'removeProcessed',
	'clearAllProcessedItems',
	'getProcessedDataCount',
];

/** Stops the node before anything is sent when this n8n has no store or the workflow is not saved. */
export function requireStore(ctx: IExecuteFunctions, what: string): void {
	const helpers = ctx.helpers as Partial<DeduplicationHelperFunctions>;
	if (HELPERS.some((name) => typeof helpers[name] !== 'function')) {
		throw new NodeOperationError(ctx.getNode(), `${what} needs n8n ${MIN_N8N_VERSION} or later`, {
			description: `This n8n gives nodes no deduplication store. Update n8n to ${MIN_N8N_VERSION} or later, or clear ${what} (nothing was sent).`,
		});
	}
	const workflowId = ctx.getWorkflow().id;
	if (workflowId === undefined || workflowId === null || String(workflowId) === '') {
		throw new NodeOperationError(ctx.getNode(), `${what} needs a saved workflow`, {
			description:
				'It is kept per workflow: save the workflow, then run it again (nothing was sent).',
		});
	}
}
