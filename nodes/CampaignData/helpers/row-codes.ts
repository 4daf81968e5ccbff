/** What to change for the codes data writes meet most (nodes/shared/advice.ts; docs/service-rules.md#codes). */
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
