/**
 * Every result code of the service (docs/service-rules.md#codes) in one table: what it means in plain
 * words, what the user can do, and how the package reacts to it. Nodes never spell these
 * messages themselves; they look the code up here. Also the code an error carries
 * (`withServiceCode`, `serviceCodeOf`).
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

/** The code of a send ended early by a stopped execution (see CODES). */
export const STOPPED_CODE = 'EXECUTION_STOPPED';

const CHECK_KEY =
	'Check the API key in the Campaign API credential (site settings, key management).';
const CONTACT = 'Contact the service operator to resolve it.';
const FIX_TEMPLATE = 'Fix the campaign in the service, then send again.';

/** One code's entry, written on one line: `rejected(message, hint)`. */
const entry =
	(kind: CodeKind) =>
	(message: string, hint: string): CodeInfo => ({ kind, message, hint });
const success = entry('success');
const account = entry('account');
const transient = entry('transient');
const deliveryUnknown = entry('deliveryUnknown');
const rejected = entry('rejected');
const deleteRefused = entry('deleteRefused');
const limit = entry('limit');

const RETRY_DELETE = 'Run the delete again after the time in retryAfter.';
const TRY_LATER = 'Try again later.';
const CHECK_FIRST = 'Check in the service before sending again.';
const MAYBE_SENT = 'the message may or may not have been sent';
const AFTER_30 = 'request it again after 30 minutes';
const LOWER_BATCH = 'Lower the Batch Size option or wait before sending more.';
const WAIT_AND_RUN = 'Wait and run the workflow again.';
const SEND_CONSENT = 'Send isReceive as true or false.';
const MOBILE = 'Send a Korean mobile number such as 010-1234-5678.';
const SHORT_NAME = 'Shorten the name to at most 20 characters.';
const NODE_BUG = 'This is a bug in the node; please report it.';
const MISSING_PARAMETER =
	'A required send parameter is missing (campaign key or a template variable)';
const TWELVE_CHARACTERS =
	'Send the number in the 12-character form, e.g. 821012345678, or turn on Convert Phone Numbers.';
const STOPPED_SEND = `The execution was stopped while the send was under way: ${MAYBE_SENT}`;
const STOPPED_HINT = `${CHECK_FIRST} With a Deduplication Key, the key stays kept, so running the same key again does not send it.`;

export const CODES: Readonly<Record<string, CodeInfo>> = {
	// Custom data and member endpoints (docs/service-rules.md#codes)
	'0': success('Success', ''),
	'1': success('Partial success: some rows were rejected', 'See the Failed output.'),
	'-1000': account('The x-api-key header is missing', CHECK_KEY),
	'-1001': account('The customer does not exist (wrong API key?)', CHECK_KEY),
	'-1002': account('The customer account is not approved yet', CONTACT),
	'-1003': account('The customer contract period has expired', CONTACT),
	'-1004': limit('Data limit exceeded: too many data or requests', LOWER_BATCH),
	'-1005': transient('A process is already in progress on the service', WAIT_AND_RUN),
	'-1006': rejected('Member ID is not valid', 'Send a non-empty member ID.'),
	'-1007': rejected('Phone number is not valid', MOBILE),
	'-1009': deleteRefused(`Deletion is refused right now; ${AFTER_30}`, RETRY_DELETE),
	'-1010': deleteRefused(`Data deletion error; ${AFTER_30}`, RETRY_DELETE),
	'-1012': rejected('The SMS receive-consent field (isReceive) is missing', SEND_CONSENT),
	'-1013': rejected('Member name is longer than 20 characters', SHORT_NAME),
	'-9997': rejected('The service says the data is not valid', 'Check the values sent.'),
	'-9998': transient('HTTP-related error on the service', TRY_LATER),
	'-9999': transient('The service API server had an error', TRY_LATER),
	// The triggered send (docs/service-rules.md#codes, docs/service-rules.md#send)
	'1101': account('The x-api-key header is missing', CHECK_KEY),
	'1102': account('The Content-Type header is missing', NODE_BUG),
	'1201': rejected('The request body is empty', 'Set a campaign key and a phone number.'),
	'1202': rejected('Too many request data rows', 'Send one recipient per request.'),
	'1203': rejected('The request format is wrong', 'Check the template variables.'),
	'1204': rejected('A date value is not in a valid format', 'Send dates as YYYY-MM-DD.'),
	'1401': account('The API key is not valid', CHECK_KEY),
	'1402': account('This key has no permission to use the API', CONTACT),
	'1403': account('The customer is not registered', CHECK_KEY),
	'1404': account('The customer account is not approved yet', CONTACT),
	'1405': account('The customer account has expired', CONTACT),
	'2000': deliveryUnknown(`Internal server error: ${MAYBE_SENT}`, CHECK_FIRST),
	'7001': rejected('The campaign needs a channel link', FIX_TEMPLATE),
	'7002': rejected('The sender profile is blocked', FIX_TEMPLATE),
	'7003': rejected('The sender profile is dormant', FIX_TEMPLATE),
	'7004': rejected('The campaign template is waiting', FIX_TEMPLATE),
	'7005': rejected('The campaign template review is requested', FIX_TEMPLATE),
	'7006': rejected('The campaign template is dormant', FIX_TEMPLATE),
	'7007': rejected('The campaign template is blocked', FIX_TEMPLATE),
	'7008': rejected('The campaign template is suspended', FIX_TEMPLATE),
	'7009': rejected('The campaign template review was rejected', FIX_TEMPLATE),
	'7010': rejected('The campaign template has expired', FIX_TEMPLATE),
	'7011': rejected(MISSING_PARAMETER, 'Check the campaign key and the template variables.'),
	'7012': rejected('The phone number is not 12 characters long', TWELVE_CHARACTERS),
	'7997': rejected('No message unit price is applied to the account', CONTACT),
	'7998': deliveryUnknown(`The messaging provider API call failed: ${MAYBE_SENT}`, CONTACT),
	'7999': deliveryUnknown(`Internal server error: ${MAYBE_SENT}`, CHECK_FIRST),
	// Not a code of the service: an execution stopped (n8n's Stop button, or its execution timeout)
	// while a send was under way (docs/service-rules.md#retries).
	[STOPPED_CODE]: deliveryUnknown(STOPPED_SEND, STOPPED_HINT),
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
 * `text` cut to `max` characters (never splitting a surrogate pair) and followed by `mark` of its
 * whole length; unchanged when it is no longer. The one way text is cut (tool answers: bounds.ts).
 */
export function cutText(
	text: string,
	max: number,
	mark: (length: number) => string = () => '…',
): string {
	if (text.length <= max) return text;
	let end = max;
	const last = text.charCodeAt(end - 1);
	if (last >= 0xd800 && last <= 0xdbff) end--;
	return `${text.slice(0, end)}${mark(text.length)}`;
}

/**
 * A text the service supplied, cut to MAX_SERVICE_TEXT characters with an ellipsis: applied where
 * such text enters (the envelope's message in transport/classify.ts, a failure row's message in
 * answers.ts), so errors, Failed items, hints and tool answers never carry more.
 */
export function cutServiceText(text: string): string {
	return cutText(text, MAX_SERVICE_TEXT);
}

/** An error n8n shows, with its `context`, where the package keeps what an error carries. */
type WithContext = { context: Record<string, unknown> };

/** What an error carries in n8n's `context` under `name`: set and read through these alone. */
const carried = (name: string) => ({
	set: <E extends WithContext>(error: E, value: string): E => {
		error.context[name] = value;
		return error;
	},
	get: (error: unknown): unknown => (error as Partial<WithContext> | null)?.context?.[name],
});

/**
 * The result code an error carries: gives `error` the service's (or the package's) result code,
 * read back by `serviceCodeOf`. It is kept under `campaignCode`, where code that predates these
 * two functions also reads it.
 */
const SERVICE_CODE = carried('campaignCode');
export const withServiceCode = SERVICE_CODE.set;

/** The result code an error carries (see `withServiceCode`), if any. */
export function serviceCodeOf(error: unknown): string | undefined {
	const code = SERVICE_CODE.get(error);
	return code === undefined || code === null ? undefined : String(code);
}

/**
 * An error whose description holds the service's own text also carries the description without
 * it: what a model is told (tool.ts), which is never the service's text.
 */
const OWN_DESCRIPTION = carried('ownDescription');
export const withOwnDescription = OWN_DESCRIPTION.set;

/** An error's description without the service's text (see `withOwnDescription`), if it holds some. */
export function ownDescriptionOf(error: unknown): string | undefined {
	const own = OWN_DESCRIPTION.get(error);
	return typeof own === 'string' ? own : undefined;
}
