/**
 * n8n's execution hints after a write (the note above a node's output in the editor): one hint
 * per run counting what happened (done, skipped as duplicates, failed by code) and, for the
 * codes users meet most, one line saying what to change. Nothing when every item succeeded.
 * The plain words of each code are in codes.ts, what to change in the operation's `advice`
 * (advice.ts). Tool mode has no hints: run.ts calls this only outside it.
 */
import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import type { WriteOperation } from './operation';
import type { Outcome } from './outcome';

/** Codes listed one by one in the count line; the rest are summed up. */
const MAX_CODES = 8;

/** A code as printed: the service's codes are short words; anything else is not echoed. */
function codeOf(failure: IDataObject): string {
	const code = failure.code;
	const text = typeof code === 'number' ? String(code) : code;
	return typeof text === 'string' && /^[\w-]{1,24}$/.test(text) ? text : 'unknown';
}

function failuresByCode(failed: readonly IDataObject[]): Array<[string, number]> {
	const counts = new Map<string, number>();
	for (const item of failed) {
		const code = codeOf(item);
		counts.set(code, (counts.get(code) ?? 0) + 1);
	}
	return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function countLine(done: string, success: number, skipped: number, failed: IDataObject[]): string {
	const parts = [`${success - skipped} ${done}`];
	if (skipped > 0) parts.push(`${skipped} skipped as duplicates`);
	if (failed.length === 0) return `${parts.join(', ')}.`;
	const codes = failuresByCode(failed);
	const listed = codes.slice(0, MAX_CODES).map(([code, n]) => `${n} with code ${code}`);
	const others = codes.slice(MAX_CODES).reduce((sum, [, n]) => sum + n, 0);
	if (others > 0) listed.push(`${others} with other codes`);
	parts.push(`${failed.length} failed (${listed.join(', ')})`);
	return `${parts.join(', ')}. See the Failed output.`;
}

/**
 * The hints of one run of a write: none when every item succeeded, else one hint whose first
 * line counts the outcomes and whose next lines (joined by `<br>`, which the editor renders)
 * say what to change for each common code among the failures. Error items are not counted.
 */
export function writeHints(
	source: Pick<WriteOperation, 'done' | 'advice'>,
	outcomes: readonly Outcome[],
): NodeExecutionHint[] {
	let success = 0;
	let skipped = 0;
	const failed: IDataObject[] = [];
	for (const outcome of outcomes) {
		if ('done' in outcome) {
			success++;
			if (outcome.skipped === 'duplicate') skipped++;
		} else if ('failed' in outcome) failed.push(outcome.failed);
	}
	if (failed.length === 0 && skipped === 0) return [];
	const advice = source.advice ?? {};
	const lines = failuresByCode(failed)
		.filter(([code]) => advice[code] !== undefined)
		.map(([code]) => `Code ${code}, ${advice[code].problem}: ${advice[code].change}`);
	return [
		{
			message: [countLine(source.done.verb, success, skipped, failed), ...lines].join('<br>'),
			type: failed.length > 0 ? 'warning' : 'info',
			location: 'outputPane',
		},
	];
}

/**
 * Adds the hints of a finished write to the node's run. Never fails the node: its messages may
 * already have gone out, and a failed node invites a re-run that would send them again.
 */
export function addWriteHints(
	ctx: IExecuteFunctions,
	source: Pick<WriteOperation, 'done' | 'advice'>,
	outcomes: readonly Outcome[],
): void {
	try {
		// Every supported line (1.123 to 2.41) offers addExecutionHints; a runner without it gets none.
		if (typeof ctx.addExecutionHints !== 'function') return;
		const hints = writeHints(source, outcomes);
		if (hints.length > 0) ctx.addExecutionHints(...hints);
	} catch {
		return;
	}
}
