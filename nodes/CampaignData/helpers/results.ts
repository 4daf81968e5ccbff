/**
 * What a write or delete answered: the count a v1 write or any delete gives (its exact form is
 * not documented: docs/service-rules.md#custom-data; failure rows are read by shared/answers.ts),
 * and a non-success code of one request turned into Failed items for each of its members.
 */
import type { IDataObject } from 'n8n-workflow';
import type { Outcome } from '../../shared/outcome';
import { failed, retryLater } from '../../shared/outcome';
import type { ApiResult } from '../../shared/transport';
import { resultWords } from '../../shared/transport';
import { isObject } from '../../shared/values';

/** A count answered by a v1 write or any delete: a number, numeric text, or an object with a count. */
export function readCount(processValue: unknown): number | undefined {
	const asCount = (value: unknown): number | undefined => {
		const n =
			typeof value === 'number'
				? value
				: typeof value === 'string' && /^\s*\d+\s*$/.test(value)
					? Number(value)
					: NaN;
		return Number.isInteger(n) && n >= 0 ? n : undefined;
	};
	const direct = asCount(processValue);
	if (direct !== undefined || !isObject(processValue)) return direct;
	for (const name of [
		'count',
		'storedCount',
		'savedCount',
		'changedCount',
		'deletedCount',
		'deleteCount',
		'totalCount',
	]) {
		const n = asCount(processValue[name]);
		if (n !== undefined) return n;
	}
	return undefined;
}

export interface ChunkMember {
	memberId: string;
	sources: readonly number[];
	/** Extra identifying fields of the row (e.g. the keys it was about). */
	fields?: IDataObject;
}

/**
 * A request the service refused as a whole (any code but success): each of its members fails
 * with the code and the code table's message, nothing is lost. A refused delete
 * (-1009/-1010) also carries `retryAfter`, 30 minutes on.
 */
export function failChunk(members: readonly ChunkMember[], result: ApiResult): Outcome[] {
	const message = resultWords(result);
	const retry = retryLater(result)?.retryAfter;
	return members.map((member) =>
		failed(
			{
				code: result.code,
				message,
				memberId: member.memberId,
				...(member.fields ?? {}),
				...(retry ? { retryAfter: retry } : {}),
			},
			member.sources,
		),
	);
}
