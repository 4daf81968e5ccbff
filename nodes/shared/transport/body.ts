/**
 * Reads an answer's body as text, up to a size limit: a broken or hostile endpoint must not make a
 * worker buffer any amount. The request helper hands the body over as a stream (client.ts asks for
 * one); a string, a Buffer or an object (what older request helpers may give) is measured too.
 */
import { isObject } from '../values';

export type BodyRead = { text: string } | { tooLargeBytes: number };

/**
 * Reads `body` to its end, or stops (and closes the stream) once it passed `limit` bytes.
 * `onChunk` hears of every piece as it arrives (the idle limit of deadline.ts).
 */
export async function readBody(
	body: unknown,
	limit: number,
	onChunk?: () => void,
): Promise<BodyRead> {
	if (body === undefined || body === null) return { text: '' };
	if (typeof body === 'string' || Buffer.isBuffer(body))
		return measured(Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), limit);
	if (!isAsyncIterable(body))
		return measured(Buffer.from(JSON.stringify(body) ?? '', 'utf8'), limit);
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		onChunk?.();
		const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8');
		size += bytes.length;
		if (size > limit) {
			close(body);
			return { tooLargeBytes: size };
		}
		chunks.push(bytes);
	}
	return { text: Buffer.concat(chunks, size).toString('utf8') };
}

function measured(bytes: Buffer, limit: number): BodyRead {
	return bytes.length > limit ? { tooLargeBytes: bytes.length } : { text: bytes.toString('utf8') };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
	return (
		isObject(value) &&
		typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
	);
}

/** Stops the transfer: the rest of the answer is never read (and the connection closes). */
export function close(stream: unknown): void {
	const destroy = (stream as { destroy?: () => void }).destroy;
	if (typeof destroy === 'function') destroy.call(stream);
}
