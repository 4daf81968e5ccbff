/**
 * The rows of a send: what each item reports on Success or Failed once the sends are done.
 */
import type { IDataObject } from 'n8n-workflow';
import type { ApiResult } from '../../shared/transport';
import { resultWords } from '../../shared/transport';

/** The outcome of one item: a Success or a Failed row. */
export type Row = { ok: IDataObject } | { fail: IDataObject & { code: string; message: string } };

/** What a repeat of item `first` (same Deduplication Key, same execution) reports: that item's fate. */
export function repeatRow(
	first: Row,
	firstIndex: number,
	base: IDataObject,
	key: string | undefined,
): Row {
	const fields = { ...base, deduplicationKey: key ?? null, duplicateOfItem: firstIndex };
	if ('ok' in first) return { ok: { ...base, status: 'skipped', duplicate: true, ...fields } };
	const { code, message, deliveryUnknown } = first.fail;
	return {
		fail: {
			...fields,
			code,
			message: `Not sent: item ${firstIndex} has the same Deduplication Key and was not sent (${message})`,
			...(deliveryUnknown ? { deliveryUnknown } : {}),
			deduplicationKeyKept: first.fail.deduplicationKeyKept === true,
		},
	};
}

/** The row of an item whose send was attempted, or not reached because the node stopped. */
export function sendRow(
	result: ApiResult | Error | undefined,
	stopError: Error | undefined,
	fields: IDataObject,
): Row {
	const { campaignKey, phoneNumber } = fields;
	if (result === undefined || result instanceof Error) {
		// The node stopped after some messages went out: those stay on Success, the rest are
		// reported here instead of failing the node (a re-run would send the others twice).
		const reason = (stopError ?? result) as (Error & { context?: IDataObject }) | undefined;
		const code = String((reason?.context?.campaignCode as string) ?? 'notSent');
		return {
			fail: { code, message: `Not sent: ${reason?.message ?? 'the node stopped'}`, ...fields },
		};
	}
	if (result.code === '0') {
		return {
			ok: {
				campaignKey,
				phoneNumber,
				code: '0',
				status: 'sent',
				response: (result.body ?? null) as IDataObject,
			},
		};
	}
	return {
		fail: {
			code: result.code,
			message: resultWords(result),
			campaignKey,
			phoneNumber,
			...(result.deliveryUnknown ? { deliveryUnknown: true } : {}),
			...fields,
		},
	};
}
