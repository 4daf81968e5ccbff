/**
 * What to change when a code comes back: each write operation names its table (`advice` of its
 * `Operation`, operation.ts), the one source of the execution hints after a run (hints.ts) and
 * the `whatToDo` of an AI agent's answer (tool.ts). The codes' plain words and their generic
 * hints are in codes.ts.
 */
import { CODES } from './codes';

/** A common code: the problem in a few words, and what to change (options by name). */
export interface Advice {
	problem: string;
	change: string;
	/**
	 * What an AI agent's model is told instead of `change`, when `change` is the owner's (an option
	 * to change, another recipient): a model is never shown a way around a guard rail (tool.ts).
	 */
	model?: string;
}

/** The end of every answer to a model about a guard rail: the rule is the owner's, not the model's to get around. */
export const ASK_OWNER =
	"This is a rule the workflow's owner set: do not try another way; tell the user, or ask the workflow's owner.";

/** What to change for the codes users of one node meet most (docs/service-rules.md#codes). */
export type AdviceTable = Readonly<Record<string, Advice>>;

/** The advice for a delete the service refuses for now (-1009, -1010). */
export const DELETE_LATER: Advice = {
	problem: 'a delete the service refuses for now',
	change: 'run it again for the Failed items after their retryAfter time (30 minutes on).',
};

/** What to change for `code`: its advice in `table`, else the code table's hint; '' when none. */
export function whatToChange(code: string, table: AdviceTable | undefined): string {
	const change = table?.[code]?.change ?? CODES[code]?.hint ?? '';
	return change.charAt(0).toUpperCase() + change.slice(1);
}
