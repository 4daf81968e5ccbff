/**
 * Every result code of the service (docs/service-rules.md#codes) in one table: what it means in plain
 * words, what the user can do, and how the package reacts to it. Nodes never spell these
 * messages themselves; they look the code up here.
 */

/**
 * How a code is handled:
 * - `success`: the call worked (0, and 1 = partial success whose rows are reported).
 * - `account`: the key or the customer account is unusable; every call would fail the same
 *   way, so the whole node fails (or gives error items under "On Error: Continue").
 * - `transient`: a passing fault; retried with backoff when the request is safe to repeat.
 * - `deliveryUnknown`: a server error on a send: the message may or may not have gone out.
 * - `rejected`: the service refused this request's data; the rows go to the `Failed` output.
 * - `deleteRefused`: a delete the service asks to repeat after 30 minutes.
 * - `limit`: a request larger than the service allows (a package bug if it ever happens).
 */
export type CodeKind =
	| 'success'
	| 'account'
	| 'transient'
	| 'deliveryUnknown'
	| 'rejected'
	| 'deleteRefused'
	| 'limit';

export interface CodeInfo {
	kind: CodeKind;
	/** What happened, in plain words. */
	message: string;
	/** What the user can do about it. */
	hint: string;
}

/** The code of a send cut short by a stopped execution (see CODES). */
export const STOPPED_CODE = 'EXECUTION_STOPPED';

const CHECK_KEY =
	'Check the API key in the Campaign API credential (site settings, key management).';
const CONTACT = 'Contact the service operator to resolve it.';
const FIX_TEMPLATE = 'Fix the campaign in the service, then send again.';

export const CODES: Readonly<Record<string, CodeInfo>> = {
	// Custom data and member endpoints (docs/service-rules.md#codes)
	'0': { kind: 'success', message: 'Success', hint: '' },
	'1': {
		kind: 'success',
		message: 'Partial success: some rows were rejected',
		hint: 'See the Failed output.',
	},
	'-1000': { kind: 'account', message: 'The x-api-key header is missing', hint: CHECK_KEY },
	'-1001': {
		kind: 'account',
		message: 'The customer does not exist (wrong API key?)',
		hint: CHECK_KEY,
	},
	'-1002': { kind: 'account', message: 'The customer account is not approved yet', hint: CONTACT },
	'-1003': { kind: 'account', message: 'The customer contract period has expired', hint: CONTACT },
	'-1004': {
		kind: 'limit',
		message: 'Data limit exceeded: too many data or requests',
		hint: 'Lower the Batch Size option or wait before sending more.',
	},
	'-1005': {
		kind: 'transient',
		message: 'A process is already in progress on the service',
		hint: 'Wait and run the workflow again.',
	},
	'-1006': {
		kind: 'rejected',
		message: 'Member ID is not valid',
		hint: 'Send a non-empty member ID.',
	},
	'-1007': {
		kind: 'rejected',
		message: 'Phone number is not valid',
		hint: 'Send a Korean mobile number such as 010-1234-5678.',
	},
	'-1009': {
		kind: 'deleteRefused',
		message: 'Deletion is refused right now; request it again after 30 minutes',
		hint: 'Run the delete again after the time in retryAfter.',
	},
	'-1010': {
		kind: 'deleteRefused',
		message: 'Data deletion error; request it again after 30 minutes',
		hint: 'Run the delete again after the time in retryAfter.',
	},
	'-1012': {
		kind: 'rejected',
		message: 'The SMS receive-consent field (isReceive) is missing',
		hint: 'Send isReceive as true or false.',
	},
	'-1013': {
		kind: 'rejected',
		message: 'Member name is longer than 20 characters',
		hint: 'Shorten the name to at most 20 characters.',
	},
	'-9997': {
		kind: 'rejected',
		message: 'The service says the data is not valid',
		hint: 'Check the values sent.',
	},
	'-9998': {
		kind: 'transient',
		message: 'HTTP-related error on the service',
		hint: 'Try again later.',
	},
	'-9999': {
		kind: 'transient',
		message: 'The service API server had an error',
		hint: 'Try again later.',
	},
	// The triggered send (docs/service-rules.md#codes, docs/service-rules.md#send)
	'1101': { kind: 'account', message: 'The x-api-key header is missing', hint: CHECK_KEY },
	'1102': {
		kind: 'account',
		message: 'The Content-Type header is missing',
		hint: 'This is a bug in the node; please report it.',
	},
	'1201': {
		kind: 'rejected',
		message: 'The request body is empty',
		hint: 'Set a campaign key and a phone number.',
	},
	'1202': {
		kind: 'rejected',
		message: 'Too many request data rows',
		hint: 'Send one recipient per request.',
	},
	'1203': {
		kind: 'rejected',
		message: 'The request format is wrong',
		hint: 'Check the template variables.',
	},
	'1204': {
		kind: 'rejected',
		message: 'A date value is not in a valid format',
		hint: 'Send dates as YYYY-MM-DD.',
	},
	'1401': { kind: 'account', message: 'The API key is not valid', hint: CHECK_KEY },
	'1402': { kind: 'account', message: 'This key has no permission to use the API', hint: CONTACT },
	'1403': { kind: 'account', message: 'The customer is not registered', hint: CHECK_KEY },
	'1404': { kind: 'account', message: 'The customer account is not approved yet', hint: CONTACT },
	'1405': { kind: 'account', message: 'The customer account has expired', hint: CONTACT },
	'2000': {
		kind: 'deliveryUnknown',
		message: 'Internal server error: the message may or may not have been sent',
		hint: 'Check in the service before sending again.',
	},
	'7001': { kind: 'rejected', message: 'The campaign needs a channel link', hint: FIX_TEMPLATE },
	'7002': { kind: 'rejected', message: 'The sender profile is blocked', hint: FIX_TEMPLATE },
	'7003': { kind: 'rejected', message: 'The sender profile is dormant', hint: FIX_TEMPLATE },
	'7004': { kind: 'rejected', message: 'The campaign template is waiting', hint: FIX_TEMPLATE },
	'7005': {
		kind: 'rejected',
		message: 'The campaign template review is requested',
		hint: FIX_TEMPLATE,
	},
	'7006': { kind: 'rejected', message: 'The campaign template is dormant', hint: FIX_TEMPLATE },
	'7007': { kind: 'rejected', message: 'The campaign template is blocked', hint: FIX_TEMPLATE },
	'7008': { kind: 'rejected', message: 'The campaign template is suspended', hint: FIX_TEMPLATE },
	'7009': {
		kind: 'rejected',
		message: 'The campaign template review was rejected',
		hint: FIX_TEMPLATE,
	},
	'7010': { kind: 'rejected', message: 'The campaign template has expired', hint: FIX_TEMPLATE },
	'7011': {
		kind: 'rejected',
		message: 'A required send parameter is missing (campaign key or a template variable)',
		hint: 'Check the campaign key and the template variables.',
	},
	'7012': {
		kind: 'rejected',
		message: 'The phone number is not 12 characters long',
		hint: 'Send the number in the 12-character form, e.g. 821012345678, or turn on Convert Phone Numbers.',
	},
	'7997': {
		kind: 'rejected',
		message: 'No message unit price is applied to the account',
		hint: CONTACT,
	},
	'7998': {
		kind: 'deliveryUnknown',
		message: 'The messaging provider API call failed: the message may or may not have been sent',
		hint: CONTACT,
	},
	'7999': {
		kind: 'deliveryUnknown',
		message: 'Internal server error: the message may or may not have been sent',
		hint: 'Check in the service before sending again.',
	},
	// Not a code of the service: an execution stopped (n8n's Stop button, or its execution timeout)
	// while a send was under way (docs/service-rules.md#retries).
	[STOPPED_CODE]: {
		kind: 'deliveryUnknown',
		message:
			'The execution was stopped while the send was under way: the message may or may not have been sent',
		hint: 'Check in the service before sending again. With a Deduplication Key, the key stays kept, so running the same key again does not send it.',
	},
};

/** A stopped execution ends its reads and writes (and a send not under way yet) with these words. */
export const STOPPED_INFO: CodeInfo = {
	kind: 'account',
	message: 'The execution was stopped; the request was not completed',
	hint: 'Nothing more is sent or read once an execution is stopped. Run the workflow again to finish the work.',
};

/** The words of row-level codes in one node's answers: their meaning depends on the endpoint (docs/service-rules.md#codes). */
export type RowCodes = Readonly<Record<string, string>>;

/** How `serviceWords` reads the service's message: trimmed or as given, and kept when it repeats the words. */
export interface ServiceMessageStyle {
	trim: boolean;
	keepSame: boolean;
}

/**
 * The one way a code's words and the service's own message are put together: the words, then the
 * message in brackets when it is a text with something in it (and, unless `keepSame`, not the
 * same text as the words).
 */
export function serviceWords(
	words: string,
	serviceMessage: unknown,
	style: ServiceMessageStyle = { trim: true, keepSame: false },
): string {
	if (typeof serviceMessage !== 'string') return words;
	const text = style.trim ? serviceMessage.trim() : serviceMessage;
	if (text === '' || (!style.keepSame && serviceMessage === words)) return words;
	return `${words} (${text})`;
}

/** Plain words for a row-level code, with the service's own detail when it sent one. */
export function describeRowCode(table: RowCodes, code: string, serviceMessage?: unknown): string {
	const known = table[code] ?? `The service rejected this row with code ${code}`;
	return serviceWords(known, serviceMessage);
}

/** Codes that mean the key or the account is unusable (the credential test fails on these). */
export const ACCOUNT_CODES: readonly string[] = Object.keys(CODES).filter(
	(code) => CODES[code].kind === 'account' && code !== '1102',
);

/** Looks a code up; an unknown code is reported as such, never guessed. */
export function describeCode(code: string): CodeInfo {
	return (
		CODES[code] ?? {
			kind: 'rejected',
			message: `The service answered with an unknown code ${code}`,
			hint: 'Check the service documentation for this code.',
		}
	);
}

/** The most characters of a service-supplied text (a message) that reach errors, items and hints. */
export const MAX_SERVICE_TEXT = 500;

/**
 * A text the service supplied, cut to MAX_SERVICE_TEXT characters with an ellipsis: applied where
 * such text enters (the envelope's message in transport/outcome.ts, a failure row's message in
 * answers.ts), so errors, Failed items, hints and tool answers never carry more.
 */
export function cutServiceText(text: string): string {
	if (text.length <= MAX_SERVICE_TEXT) return text;
	let end = MAX_SERVICE_TEXT;
	const last = text.charCodeAt(end - 1);
	if (last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
	return `${text.slice(0, end)}…`;
}
