/**
 * The one chunked write loop of every write that sends rows in batches (Batch Size): rows in
 * requests of at most `size`, in order, and what each request did kept as outcomes. When a call
 * fails as a whole, the rows of that request and of every later one carry the error, as one
 * `errored` outcome, and nothing more is sent: what earlier requests stored stays on Success. Whether that error stops the node (saying what was stored) or becomes error items is
 * decided in run.ts, which reads "On Error".
 */
import type { Outcome } from './outcome';
import { errored } from './outcome';
import { chunk } from './values';

export interface ChunkedWrite<Row> {
	rows: readonly Row[];
	/** The most rows one request carries (Batch Size). */
	size: number;
	/** The input items a row came from. */
	inputsOf(row: Row): readonly number[];
	/**
	 * Sends one chunk and gives the outcomes of its rows. It throws when the call fails as a whole;
	 * a chunk sent in several requests (a refused row isolated) gives an `errored` outcome for the
	 * rows it could not send, and the loop stops there too.
	 */
	send(rows: Row[]): Promise<Outcome[]>;
}

/** The input items of some rows, each once, in row order. */
function inputsOfRows<Row>(write: ChunkedWrite<Row>, rows: readonly Row[]): number[] {
	return [...new Set(rows.flatMap((row) => [...write.inputsOf(row)]))];
}

/** Sends every chunk until one fails as a whole; no rows, no request. */
export async function writeInChunks<Row>(write: ChunkedWrite<Row>): Promise<Outcome[]> {
	const chunks = chunk(write.rows, write.size);
	const outcomes: Outcome[] = [];
	for (const [n, rows] of chunks.entries()) {
		let sent: Outcome[];
		try {
			sent = await write.send(rows);
		} catch (error) {
			sent = [errored(error, inputsOfRows(write, rows))];
		}
		const stop = sent.find((outcome) => 'error' in outcome);
		if (stop === undefined || !('error' in stop)) {
			outcomes.push(...sent);
			continue;
		}
		const later = inputsOfRows(write, chunks.slice(n + 1).flat());
		outcomes.push(...sent.filter((outcome) => outcome !== stop));
		outcomes.push(errored(stop.error, [...new Set([...stop.inputs, ...later])]));
		break;
	}
	return outcomes;
}
