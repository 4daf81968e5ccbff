/**
 * The codes a data row meets (docs/service-rules.md#codes): their words (`ROW_CODES`), the code
 * of each rule the node checks itself (`NODE_RULE_CODES`) and what to change for the codes data
 * writes meet most (`ADVICE`, the operations' `advice`: nodes/shared/advice.ts).
 */
import type { AdviceTable } from '../../shared/advice';
import type { RowCodes } from '../../shared/codes';
import { DELETE_LATER } from '../../shared/advice';

export const ADVICE: AdviceTable = {
	F01: {
		problem: 'key not registered',
		change:
			'register the key in the service first, or leave the field out with Options → Fields to Ignore.',
	},
	F02: {
		problem: "value not in the key's registered format",
		change:
			'send it in that format (dates as YYYY-MM-DD); null, objects and arrays are never sent.',
	},
	'-1009': DELETE_LATER,
	'-1010': DELETE_LATER,
};

/** The words of the row-level codes in this node's answers (docs/service-rules.md#codes). */
export const ROW_CODES: RowCodes = {
	F01: 'The custom data key is not registered in the service',
	F02: 'The value does not match the format registered for this key',
};

/**
 * Failed rows the node rejects itself carry the code the service uses for the same rule
 * (one set of codes whoever caught the problem: docs/service-rules.md#codes):
 * - a value that cannot be sent (null, object, array, invalid date): F02, "the value does not
 *   match the format"; also for legacy data, whose format rules are the same
 *   although its service answers with a count instead of rows;
 * - an empty key name: F01, "key not registered" (no key can be registered under an empty name);
 * - a missing, empty or unusable member id, an item with nothing to write, a deleteKeys item
 *   without key names: -9997, "data is not valid", which is what the custom data service
 *   answers for such a request (it has no row code for member ids; -1006 belongs to the member
 *   API).
 */
export const NODE_RULE_CODES = {
	badValue: 'F02',
	badKey: 'F01',
	badMemberId: '-9997',
	nothingToWrite: '-9997',
	noKeys: '-9997',
} as const;
