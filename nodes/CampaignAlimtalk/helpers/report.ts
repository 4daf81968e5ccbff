/** The one place that picks each item's outcome, once the sends are done and the keys recorded. */
import type { IDataObject } from 'n8n-workflow';
import type { Failure, Outcome } from '../../shared/outcome';
import { NOT_SENT_CODE, done, duplicate, failed } from '../../shared/outcome';
import type { ApiResult } from '../../shared/transport';
import { resultWords } from '../../shared/transport';
import type { Reading } from '../session/ledger';
import type { DedupSession } from '../session/session';
import type { Prepared, Read } from './prepare';
import type { Sent } from './sending';
import { serviceCodeOf } from '../../shared/codes';

const duplicateFields = (key: string | undefined): IDataObject => ({
	status: 'skipped',
	duplicate: true,
	deduplicationKey: key ?? null,
});

/** What a repeat of item `first` (same Deduplication Key, same execution) reports: that item's fate. */
function repeatOf(
	first: Outcome,
	firstIndex: number,
	base: IDataObject,
	key: string | undefined,
	i: number,
): Outcome {
	const fields = { ...base, deduplicationKey: key ?? null, duplicateOfItem: firstIndex };
	if (!('failed' in first)) return duplicate({ ...fields, status: 'skipped', duplicate: true }, i);
	const { code, message, deliveryUnknown } = first.failed;
	const words = (why: string) =>
		`Not sent: item ${firstIndex} has the same Deduplication Key and was not sent (${why})`;
	return failed(
		{
			...fields,
			code,
			message: words(message),
			...(deliveryUnknown ? { deliveryUnknown } : {}),
			deduplicationKeyKept: first.failed.deduplicationKeyKept === true,
		},
		i,
		first.ownMessage === undefined ? undefined : words(first.ownMessage),
	);
}

/** The outcome of an item whose send was attempted, or not reached because the node stopped. */
function sendOutcome(
	result: ApiResult | Error | undefined,
	stop: Error | undefined,
	identity: IDataObject,
	keyFields: IDataObject,
	i: number,
): Outcome {
	if (result === undefined || result instanceof Error) {
		// The node stopped after some messages went out: those stay on Success, the rest are
		// reported here instead of failing the node (a re-run would send the others twice).
		const reason = (stop ?? result) as (Error & { context?: IDataObject }) | undefined;
		const code = serviceCodeOf(reason) ?? NOT_SENT_CODE;
		// Its own failure after an attempt that may have reached the service (transport/client.ts).
		const own = result as (Error & { context?: IDataObject }) | undefined;
		const doubt = own?.context?.deliveryUnknown === true;
		const message = doubt
			? `Maybe sent: an earlier attempt may have reached the service, then: ${own?.message}`
			: `Not sent: ${reason?.message ?? 'the node stopped'}`;
		const unknown = doubt ? { deliveryUnknown: true } : {};
		return failed({ code, message, ...identity, ...keyFields, ...unknown }, i);
	}
	if (result.code === '0') {
		const response = (result.body ?? null) as IDataObject;
		return done({ ...identity, code: '0', status: 'sent', response }, i);
	}
	const failure: Failure = {
		code: result.code,
		message: resultWords(result),
		...identity,
		...(result.deliveryUnknown ? { deliveryUnknown: true } : {}),
		...keyFields,
	};
	// The service's own text stays on the Failed item; a model is told the package's words alone.
	return failed(failure, i, result.info.message);
}

/** Without a Deduplication Key or Send Limit: the item's own send, no key fields. */
const OWN: Reading = { kind: 'own', keyFields: {} };

/** Item `i`'s outcome: its failed check, else what the ledger (session/ledger.ts) says of it. */
function outcomeOf(
	entry: Prepared,
	i: number,
	earlier: readonly Outcome[],
	sent: Sent,
	dedup: DedupSession | undefined,
): Outcome {
	if (!('send' in entry)) return failed(entry.failure, i, entry.ownMessage);
	const { campaignKey, phoneNumber, memberId } = entry.send;
	const identity = { campaignKey, phoneNumber, ...(memberId !== undefined ? { memberId } : {}) };
	const state = dedup?.read(i) ?? OWN;
	switch (state.kind) {
		case 'repeat':
			return repeatOf(earlier[state.first], state.first, identity, state.key, i);
		case 'duplicate':
			return duplicate({ ...identity, ...duplicateFields(state.key) }, i);
		case 'keyless':
		case 'unconfirmed':
		case 'limited':
			return failed({ ...state.failure, ...identity }, i);
		case 'own':
			return sendOutcome(sent.results[i], sent.stop, identity, state.keyFields, i);
	}
}

/** Each item's outcome, in input order (a repeat reads the outcome of its earlier item). */
export function report(
	prepared: readonly Prepared[],
	sent: Sent,
	dedup: DedupSession | undefined,
): Outcome[] {
	const outcomes: Outcome[] = [];
	prepared.forEach((entry, i) => outcomes.push(outcomeOf(entry, i, outcomes, sent, dedup)));
	return outcomes;
}

/** As a tool once a bound is used up (session/session.ts `usedUp`): every item but a refused one alike. */
export function usedUpReport(read: readonly Read[], failure: Failure): Outcome[] {
	return read.map((entry, i) => {
		if ('failure' in entry) return failed(entry.failure, i, entry.ownMessage);
		const { campaignKey, memberId } = 'member' in entry ? entry.member : entry.send;
		const who = 'send' in entry ? { phoneNumber: entry.send.phoneNumber } : { memberId };
		return failed({ ...failure, campaignKey, ...who }, i);
	});
}
