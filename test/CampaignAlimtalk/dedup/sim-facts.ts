/**
 * What the invariants of the deduplication simulation (sim-check.ts) are checked against, read
 * once per schedule from what the service and the store saw (sim-world.ts, sim-watch.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { storedKey } from '../../../nodes/CampaignAlimtalk/key/key-options';
import { STALE_LOCK_MS } from '../../../nodes/CampaignAlimtalk/store/lock';
import { ProcessedDataStore } from '../../support/dedup-store';
import { phone, WF } from './support';
import type { Played } from './sim-run';
import type { Outcome } from './sim-execute';
import { orderOfPhone } from './sim-execute';
import { NODES } from './sim-schedule';
import type { SentMessage } from './sim-world';

/** The invariant names, as violations start with them. */
export const INVARIANTS = {
	twice: 'a key sent twice',
	phantom: 'an item answered sent or duplicate for a message the service never answered sent',
	notSent: 'an item answered certainly not sent for a message its execution got accepted',
	doubtUnfounded:
		'an item answered unconfirmed for a message nobody requested, whose claim nobody found standing',
	doubtLost: 'a message maybe sent (never answered sent) read as sent for certain',
	errorAfterSent: 'a whole-node error after the service answered a message of that node sent',
	errorNamed: 'a whole-node error that names another node than the one that failed',
	lostItems: "a node's items not one per input item",
	overLimit: 'more messages than the Send Limit in one period',
	limitUntested: 'a Send Limit never reached before the probe',
	idle: 'nothing sent before the probe',
	blocked: 'a key blocked after the longest send and the margin, with nothing in flight',
	stuckLimit: 'a Send Limit used up by places nothing took',
	hung: 'an execution of a live process that never ended',
	emptyRow: 'an empty row left in the store',
	conflict: 'a conflict reported with no other node writing into the lock row',
	afterForeign: 'a message sent after another node wrote into the lock row',
	claimAfterForeign:
		"a message sent whose claim was written after another node's data landed in the lock row",
	notRefused:
		'an execution after another node wrote into the lock row that did not refuse with the conflict',
	afterLock: 'a row of keys written by a process that did not hold the lock',
	lateWrite: 'a row of keys written after a takeover by a call made 30 s or more before',
	probeFailed: 'the healthy check after the schedule failed',
	miscounted:
		"a round failed as 'a write that landed late' with nothing but its holder's own writes in the lock's row",
	failedClean: 'a round failed with no fault of any kind',
	takeoverClean: 'a lock row left to a takeover with no fault of any kind',
	keptClean: 'a claim kept with no fault of any kind',
	uncleanAnswer: 'a copy answered neither sent nor duplicate with no fault of any kind',
} as const;

/** The invariants a write that landed after a takeover may break (docs/deduplication.md, window 1). */
export const WINDOW_ONE: ReadonlyArray<string> = [
	INVARIANTS.twice,
	INVARIANTS.phantom,
	INVARIANTS.overLimit,
	INVARIANTS.doubtUnfounded,
	INVARIANTS.doubtLost,
	INVARIANTS.stuckLimit,
	INVARIANTS.lateWrite,
];

/**
 * What a lock-row write that landed after the row was made again (a lock create that lost the
 * race writing back the row it read: docs/deduplication.md, window 5) may break with no fault:
 * the round under that lock fails or the row is left to a takeover 30 s later, so copies wait.
 */
export const WINDOW_FIVE: ReadonlyArray<string> = [
	INVARIANTS.failedClean,
	INVARIANTS.takeoverClean,
	INVARIANTS.keptClean,
	INVARIANTS.uncleanAnswer,
];

export const messageOf = (campaign: string, item: IDataObject) => {
	const order = String(item.deduplicationKey ?? '').replace(/^order-/, '');
	const number = typeof item.phoneNumber === 'string' ? item.phoneNumber : phone(Number(order));
	return `${campaign}|${number}`;
};

export interface Item {
	campaign: string;
	message: string;
	item: IDataObject;
	failed: boolean;
}

/** Every item of a finished execution, with its node's campaign and its message. */
export function itemsOf(outcome: Outcome): Item[] {
	return NODES.flatMap((n) => {
		const items = outcome.items[n.name];
		if (!items) return [];
		const of = (item: IDataObject, failed: boolean) => ({
			campaign: n.campaign,
			message: messageOf(n.campaign, item),
			item,
			failed,
		});
		return [
			...items.ok.map((item) => of(item, false)),
			...items.failed.map((item) => of(item, true)),
		];
	});
}

export const DOUBT_CODES = ['earlierSendUnconfirmed', 'earlierSendInProgress'];

/** What the service and the store saw in one schedule. */
export interface Facts {
	/** The acceptances that count: one per message and execution with Retry When Delivery Is Unknown. */
	accepted: SentMessage[];
	/** Per message, how many of them. */
	counts: Map<string, number>;
	/** Messages the service answered sent to a live process; and `<execution>|<message>` of those. */
	answeredSent: Set<string>;
	answeredSentTo: Set<string>;
	/** `<execution>|<message>` of every acceptance. */
	acceptedBy: Set<string>;
	/** A write landed after the lock was taken over, STALE_LOCK_MS or more after its call was made (window 1). */
	windowOne: boolean;
	/** A write of the lock's row landed after the row was made again since its call read it (window 5). */
	windowFive: boolean;
	/** Whether the History Size pushed the message's `sent` or claim out of its row before `atMs`. */
	evicted: (message: string, atMs?: number) => boolean;
	/** Whether a request for the message reached the service. */
	requested: (message: string) => boolean;
	/** Whether a record call of process `proc` found the message's claim standing. */
	claimFound: (proc: string, message: string) => boolean;
}

export function factsOf(played: Played): Facts {
	const { world, schedule: s } = played;
	const accepted: SentMessage[] = [];
	const counts = new Map<string, number>();
	const acceptedBy = new Set<string>();
	for (const m of world.sent) {
		const once = `${m.execution}|${m.message}`;
		if (s.retryUnknown && acceptedBy.has(once)) continue;
		acceptedBy.add(once);
		accepted.push(m);
		counts.set(m.message, (counts.get(m.message) ?? 0) + 1);
	}
	const sentAnswers = world.answers.filter((a) => a.fault === 'ok' && a.delivered);
	const { watch } = world.sim;
	const rowOf = (campaign: string) =>
		`${WF}\u0000n:${NODES.find((n) => n.campaign === campaign)?.id}`;
	return {
		accepted,
		counts,
		answeredSent: new Set(sentAnswers.map((a) => a.message)),
		answeredSentTo: new Set(sentAnswers.map((a) => `${a.execution}|${a.message}`)),
		acceptedBy,
		windowOne: watch.late.some((w) => w.at - w.startedAt >= STALE_LOCK_MS),
		windowFive: watch.late.some((w) => w.row === `${WF}\u0000`),
		evicted: (message, atMs = Infinity) => {
			const [campaign, number] = message.split('|');
			const sent = storedKey(`order-${orderOfPhone(number)}`);
			return [sent, `claim:${sent}`].some((value) => {
				const at = watch.evicted.get(`${rowOf(campaign)}|${ProcessedDataStore.hash(value)}`);
				return at !== undefined && at < atMs;
			});
		},
		requested: (message) => world.requested.has(message),
		claimFound: (proc, message) => {
			const [campaign, number] = message.split('|');
			const claim = `claim:${storedKey(`order-${orderOfPhone(number)}`)}`;
			return world.sim.claimsFound.has(`${proc}|${rowOf(campaign)}|${claim}`);
		},
	};
}
