/**
 * The one contract between an operation and the node around it: an operation returns what
 * became of its input items as outcomes, and `run.ts` alone turns them into n8n's outputs
 * (Success and Failed, or the one output of a read), the answer an AI agent reads, and the
 * execution hints. An outcome names its input items by index; its fields are the item's fields.
 */
import type { IDataObject } from 'n8n-workflow';
import type { ApiResult } from './transport';

/** The input items an outcome is about: one index, or every item a merged row came from. */
export type Inputs = number | readonly number[];

/**
 * The one shape of a failure: a row the service or the node refused, or one whose fate is not
 * known. `code` is the service's code for the rule ("F02", "7012", "-1009") or one of the
 * package's own (codes.ts); `message` is plain words. The row's identity fields (member id,
 * keys, phone number) and its facts stand beside them, under their documented names:
 * `deliveryUnknown: true` says the message may have gone out, `retryAfter` when to try again.
 */
export interface Failure extends IDataObject {
	code: string;
	message: string;
	deliveryUnknown?: boolean;
}

/**
 * What became of some input items: `done` (a Success item, or a read's result; with `skipped:
 * 'duplicate'` a send skipped as sent before), `failed` (a Failed item; `ownMessage` when its
 * message also holds the service's own text: the message in the package's words alone, which is
 * what a model is told, tool.ts), or `error` (a failure of the call that reached these items
 * under "On Error: Continue": an error item each).
 */
export type Outcome =
	| { done: IDataObject; inputs: Inputs; skipped?: 'duplicate' }
	| { failed: Failure; inputs: Inputs; ownMessage?: string }
	| { error: unknown; inputs: readonly number[] };

/** The code of a row the node did not try because it stopped before reaching it. */
export const NOT_SENT_CODE = 'notSent';

export function done(json: IDataObject, inputs: Inputs): Outcome {
	return { done: json, inputs };
}

/** A send not made because its message was sent before: a Success item, skipped as a duplicate. */
export function duplicate(json: IDataObject, inputs: Inputs): Outcome {
	return { done: json, inputs, skipped: 'duplicate' };
}

export function failed(failure: Failure, inputs: Inputs, ownMessage?: string): Outcome {
	return ownMessage === undefined || ownMessage === failure.message
		? { failed: failure, inputs }
		: { failed: failure, inputs, ownMessage };
}

export function errored(error: unknown, inputs: readonly number[]): Outcome {
	return { error, inputs };
}

/** The first input index an outcome is about. */
export function firstIndex(outcome: Outcome): number {
	const { inputs } = outcome;
	return typeof inputs === 'number' ? inputs : (inputs[0] ?? 0);
}

/** Outcomes sorted by their first input index; outcomes of the same item keep their order. */
export function inInputOrder(outcomes: readonly Outcome[]): Outcome[] {
	return [...outcomes].sort((a, b) => firstIndex(a) - firstIndex(b));
}

/** The 30-minute wait the service asks for after a refused delete (docs/service-rules.md#limits). */
export const DELETE_RETRY_MINUTES = 30;

export function retryAfter(now: Date = new Date()): string {
	return new Date(now.getTime() + DELETE_RETRY_MINUTES * 60000).toISOString();
}

/**
 * The one "refused for now, retry in 30 minutes" rule: a request the service refused for now
 * (-1009/-1010, a delete) gives its rows `retryAfter`; any other answer, nothing.
 */
export function retryLater(
	result: Pick<ApiResult, 'info'>,
	now: Date = new Date(),
): { retryAfter: string } | undefined {
	return result.info.kind === 'deleteRefused' ? { retryAfter: retryAfter(now) } : undefined;
}
