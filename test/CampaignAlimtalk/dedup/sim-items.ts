/**
 * The invariants of the deduplication simulation checked item by item, in every execution that
 * ended (the probe too), and those of executions that ended with an error instead of items.
 */
import type { Outcome, Played } from './sim-run';
import type { Facts } from './sim-facts';
import { DOUBT_CODES, INVARIANTS, itemsOf } from './sim-facts';
import { NODES } from './sim-schedule';

/** One execution's items, one by one. */
function itemViolations(outcome: Outcome, who: string, facts: Facts): string[] {
	const found: string[] = [];
	for (const { message, item } of itemsOf(outcome)) {
		const mine = `${outcome.id}|${message}`;
		const show = `${who}: ${message} ${JSON.stringify(item)}`;
		// Sent: the service answered this execution's request with success. A duplicate: it did
		// answer one of that message's requests with success (a confirmed send).
		if (item.status === 'sent' && !facts.answeredSentTo.has(mine))
			found.push(`${INVARIANTS.phantom}: ${show}`);
		if (item.duplicate === true && !facts.answeredSent.has(message))
			found.push(`${INVARIANTS.phantom}: ${show}`);
		// Certainly not sent (the limit, a refusal on every attempt): this execution sent nothing of it.
		if (item.deliveryUnknown === false && facts.acceptedBy.has(mine))
			found.push(`${INVARIANTS.notSent}: ${show}`);
		if (DOUBT_CODES.includes(String(item.code))) {
			if (facts.acceptedBy.has(mine)) found.push(`${INVARIANTS.notSent}: ${show}`);
			// Unconfirmed with no start found: the lookup found no marker of a claim. Such a claim must
			// still have stood in the store: someone requested the message, or a round of this process
			// found its claim standing (a claim an ask of the same round made and kept has markers the
			// lookup finds). A repeat of an earlier item says that item's answer.
			const founded =
				item.code !== 'earlierSendUnconfirmed' ||
				item.earlierSendStartedAt !== undefined ||
				item.duplicateOfItem !== undefined ||
				facts.requested(message) ||
				facts.claimFound(outcome.proc.name, message);
			if (!founded) found.push(`${INVARIANTS.doubtUnfounded}: ${show}`);
		}
	}
	return found;
}

/** A node's items, when it gave any, are one per input item (in a chain, per Success item of the node before). */
function countViolations(outcome: Outcome, orders: number, who: string, chain: boolean): string[] {
	return NODES.flatMap((n, i) => {
		const items = outcome.items[n.name];
		const inputs = chain && i > 0 ? (outcome.items[NODES[i - 1].name]?.ok.length ?? 0) : orders;
		if (!items || items.ok.length + items.failed.length === inputs) return [];
		return [
			`${INVARIANTS.lostItems}: ${who} ${n.name} gave ${items.ok.length} + ${items.failed.length} items for ${inputs}`,
		];
	});
}

/**
 * An execution that ended with an error instead of items: the node fails as a whole only when it
 * sent nothing (operations/send.ts), so the service answered none of its requests with success.
 * What it may have sent is checked by the probe (`doubtViolations`).
 */
function errorViolations(outcome: Outcome, who: string, played: Played): string[] {
	if (outcome.error === undefined || outcome.stopped) return [];
	const named =
		outcome.errorNamed !== undefined && outcome.errorNamed !== outcome.errorNode
			? [
					`${INVARIANTS.errorNamed}: ${who}: ${outcome.errorNode} failed, its error names ${outcome.errorNamed}`,
				]
			: [];
	const failing = NODES.slice(0, played.schedule.nodes).filter((n) =>
		outcome.errorNode === undefined ? !outcome.items[n.name] : n.name === outcome.errorNode,
	);
	return played.world.answers
		.filter((a) => a.execution === outcome.id && a.fault === 'ok' && a.delivered)
		.filter((a) => failing.some((n) => a.message.startsWith(`${n.campaign}|`)))
		.map(
			(a) =>
				`${INVARIANTS.errorAfterSent}: ${who} (${outcome.error}) was answered ${a.message} sent`,
		)
		.concat(named);
}

/**
 * Every message the service accepted but never answered sent to a live process (a dropped
 * connection, an internal error, no answer, a crash or an execution that failed as a whole) is
 * in doubt: the probe reads it as an earlier send unconfirmed, never as sent, and never sends it
 * again (`twice`). Unless its row forgot it (the History Size).
 */
function doubtViolations(played: Played, facts: Facts): string[] {
	const probeItems = itemsOf(played.probe);
	const found: string[] = [];
	for (const message of facts.counts.keys()) {
		if (facts.answeredSent.has(message) || facts.evicted(message)) continue;
		const read = probeItems.find((i) => i.message === message);
		if (read?.item.duplicate === true)
			found.push(
				`${INVARIANTS.doubtLost}: the probe answered ${message} ${JSON.stringify(read.item)}`,
			);
	}
	return found;
}

/** The item invariants of every execution that ended, and the doubts the probe must read. */
export function outcomeViolations(played: Played, facts: Facts): string[] {
	const { outcomes, probe } = played;
	const found: string[] = [];
	for (const outcome of [...outcomes, probe].filter((o) => o.done && !o.crashed)) {
		const who = outcome === probe ? 'the probe' : `execution ${outcome.id} of ${outcome.proc.name}`;
		found.push(...itemViolations(outcome, who, facts));
		if (!outcome.stopped)
			found.push(...countViolations(outcome, outcome.inputs, who, played.schedule.chain === true));
		found.push(...errorViolations(outcome, who, played));
	}
	if (probe.done && probe.error === undefined) found.push(...doubtViolations(played, facts));
	return found;
}
