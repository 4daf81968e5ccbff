/**
 * Every answer a redelivered event can get from the Deduplication Key (README, "Sending once
 * across executions"), through the in-process engine and the faithful store: sent before,
 * unconfirmed, still in flight elsewhere (waited for), released, and a store that fails.
 */
import { REMOVE_TRIES } from '../../../nodes/CampaignAlimtalk/store/queue';
import { longestSendMs, markersOf } from '../../../nodes/CampaignAlimtalk/key/markers';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay } from '../../support/node';
import { KEYED, WF, dedupFixture, jsonOf, order, phone, sendsOf } from './support';

const NODE_ROW = { workflow: { id: WF }, node: { id: 'node-under-test' } } as never;
// One attempt of at most 1 s: a send can take at most longestSendMs of these settings.
const FAST_KEYED = { ...KEYED, timeoutMs: 1000, maxRetries: 0 };
const SETTINGS = { maxRetries: 0, retryDelayMs: 0, timeoutMs: 1000 };

const fx = dedupFixture();
const { send, sentPhones } = sendsOf(fx, FAST_KEYED);

/** What an execution killed during the send of `key` leaves in the store: its claim, its hour and (while it may still run) its minute. */
async function crashedClaim(key: string, inFlight: boolean, hour = true): Promise<number> {
	const at = Date.now() - (inFlight ? 0 : longestSendMs(SETTINGS) + 120000);
	const markers = markersOf(key, at);
	const values = [
		...(hour ? [markers.hour] : []),
		...(inFlight ? [markers.minute] : []),
		markers.claim,
	];
	await fx.store.checkProcessedAndRecord(values, 'node', NODE_ROW, { mode: 'entries' });
	return at;
}

/** What an unconfirmed send says when no start of its claim was found: what is known, no more. */
const NOT_FOUND =
	"claimed this Deduplication Key at a time not found in the last 48 hours of this worker's clock (longer ago, or on a worker whose clock runs ahead of this one's)";

/** The hour of `at` (when a claim was made), as an unconfirmed send's message and field give it. */
function hourOf(at: number): { iso: string; words: string } {
	const start = new Date(Math.floor(at / 3600000) * 3600000).toISOString();
	const end = new Date(Date.parse(start) + 3600000).toISOString();
	return {
		iso: start,
		words: `claimed this Deduplication Key between ${start.slice(11, 16)} and ${end.slice(11, 16)} UTC on ${start.slice(0, 10)}`,
	};
}

describe('what a redelivered event is answered', () => {
	it('a claim whose execution died (never confirmed, its send long over): Failed, delivery unknown, when it started; nothing sent', async () => {
		const claimedAt = await crashedClaim('order-1', false);
		await crashedClaim('order-3', false, false); // its hour is older than the node looks back
		const { out, error } = await send([order(1), order(2), order(3)]);
		expect(error).toBeUndefined();
		const hour = hourOf(claimedAt);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({
				code: 'earlierSendUnconfirmed',
				deliveryUnknown: true,
				deduplicationKey: 'order-1',
				phoneNumber: phone(1),
				earlierSendStartedAt: hour.iso,
				message: expect.stringContaining(hour.words),
			}),
			expect.objectContaining({
				code: 'earlierSendUnconfirmed',
				deduplicationKey: 'order-3',
				message: expect.stringContaining(NOT_FOUND),
			}),
		]);
		expect(out[1][1].json.earlierSendStartedAt).toBeUndefined();
		expect(jsonOf(out[0])).toEqual([
			expect.objectContaining({ phoneNumber: phone(2), status: 'sent' }),
		]);
		expect(sentPhones()).toEqual([phone(2)]);
		expect(fx.store.keys(WF, 'n:node-under-test')).toHaveLength(1 + 2 + 1); // the two claims with their hours, order-2 sent
	});

	it('a claim made seconds ago by a worker whose clock runs two hours ahead is not said to be more than 48 hours old', async () => {
		// The claimer's minute and hour lie ahead of every start this worker looks for.
		const markers = markersOf('order-1', Date.now() + 2 * 3600000);
		const values = [markers.hour, markers.minute, markers.claim];
		await fx.store.checkProcessedAndRecord(values, 'node', NODE_ROW, { mode: 'entries' });
		const { out } = await send([order(1)]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({
				code: 'earlierSendUnconfirmed',
				deliveryUnknown: true,
				message: expect.stringContaining(NOT_FOUND),
			}),
		]);
		expect(out[1][0].json.message).not.toMatch(/more than 48 hours/);
		expect(out[1][0].json.earlierSendStartedAt).toBeUndefined();
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('a message in flight holds 4 entries in the row of keys (hour, minute, its own sent, claim); a confirmed one 1 (sent)', async () => {
		// The request's arrival is waited for (at most 10 s, not timed), then the row is read
		// while the sandbox holds the answer back (400 ms, under the send's Timeout).
		fx.sb.configure({ latencyMs: 400 });
		const running = send([order(1)]);
		const row = () => fx.store.keys(WF, 'n:node-under-test');
		for (let i = 0; i < 2000 && fx.sb.requests.length === 0; i++) await delay(5);
		expect(fx.sb.requests).toHaveLength(1); // its request is in flight
		expect(row()).toHaveLength(4);
		await running;
		expect(row()).toEqual([ProcessedDataStore.hash(markersOf('order-1', Date.now()).sent)]);
	});

	it('a keyed send rewrites the row of keys twice: its claim (one record call) and its confirmation (one remove call)', async () => {
		const { out } = await send([order(1)]);
		expect(jsonOf(out[0])).toEqual([expect.objectContaining({ status: 'sent' })]);
		// n8n rewrites the whole row on every call: at 100,000 keys about 2.7 MB a call.
		expect(fx.store.writesOf(WF, 'n:node-under-test')).toBe(2);
		expect(fx.store.keys(WF, 'n:node-under-test')).toEqual([
			ProcessedDataStore.hash(markersOf('order-1', Date.now()).sent),
		]);
	});

	it('a claim left by a crash reads in flight no longer than the longest send plus the clock margin', async () => {
		// Claimed (with its minute) 2.5 minutes longer ago than a send of these settings can last.
		const markers = markersOf('order-1', Date.now() - longestSendMs(SETTINGS) - 150000);
		const values = [markers.hour, markers.minute, markers.claim];
		await fx.store.checkProcessedAndRecord(values, 'node', NODE_ROW, { mode: 'entries' });
		const { out } = await send([order(1)]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({ code: 'earlierSendUnconfirmed', deliveryUnknown: true }),
		]);
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('a claim of an execution that may still be sending: waited for up to the timeout, then Failed, delivery unknown', async () => {
		await crashedClaim('order-1', true);
		const { out } = await send([order(1)]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({
				code: 'earlierSendInProgress',
				deliveryUnknown: true,
				deduplicationKeyKept: true,
				message: expect.stringMatching(
					/claimed this Deduplication Key at \d\d:\d\d UTC on \d{4}-\d\d-\d\d and had not confirmed it after 1 s of waiting/,
				),
			}),
		]);
		expect(out[0]).toHaveLength(0);
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('a copy arriving while the first is in flight waits for its answer and reports it as sent', async () => {
		fx.sb.configure({ latencyMs: 300 });
		const [first, second] = await Promise.all([
			send([order(1)]),
			delay(50).then(async () => await send([order(1)])),
		]);
		expect(first.out[0][0].json).toMatchObject({ status: 'sent' });
		expect(second.out[0][0].json).toMatchObject({
			status: 'skipped',
			duplicate: true,
			deduplicationKey: 'order-1',
		});
		expect(sentPhones()).toEqual([phone(1)]);
	});

	it('a copy arriving while the first is in flight sends it itself when the first certainly failed', async () => {
		fx.sb.configure({ latencyMs: 300 });
		const [first, second] = await Promise.all([
			send([order(1, { campaign: 'NO-SUCH-CAMPAIGN' })]),
			delay(50).then(async () => await send([order(1)])),
		]);
		expect(first.out[1][0].json).toMatchObject({ deduplicationKeyKept: false });
		expect(first.out[1][0].json.deliveryUnknown).toBeUndefined();
		expect(second.out[0][0].json).toMatchObject({ status: 'sent' });
		expect(sentPhones()).toEqual([phone(1)]);
	});

	it('a repeat within one execution reports its first item: sent (Success) or not sent (Failed, naming it)', async () => {
		const { out } = await send([
			order(1),
			order(2, { campaign: 'NO-SUCH-CAMPAIGN' }),
			order(1),
			order(2),
		]);
		expect(jsonOf(out[0])).toEqual([
			expect.objectContaining({ phoneNumber: phone(1), status: 'sent' }),
			expect.objectContaining({
				phoneNumber: phone(1),
				status: 'skipped',
				duplicate: true,
				duplicateOfItem: 0,
			}),
		]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({ phoneNumber: phone(2), deduplicationKeyKept: false }),
			expect.objectContaining({
				phoneNumber: phone(2),
				duplicateOfItem: 1,
				message: expect.stringMatching(/^Not sent: item 1 has the same Deduplication Key/),
			}),
		]);
		expect(out[1].map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 3 }]);
		expect(sentPhones()).toEqual([phone(1)]);
	});

	it('at the smallest History Size, the claims of 50 sends in flight are not pushed out: a copy sends nothing twice', async () => {
		fx.sb.configure({ latencyMs: 100 });
		const events = Array.from({ length: 100 }, (_, n) => order(n));
		const options = {
			...FAST_KEYED,
			timeoutMs: 5000,
			concurrency: 50,
			deduplicationHistorySize: 1000,
		};
		await send(
			Array.from({ length: 1000 }, (_, n) => order(1000 + n)),
			{ ...options, timeoutMs: 30000 },
		); // a full history
		fx.sb.reset();
		fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		const [a, b] = await Promise.all([
			send(events, options),
			delay(30).then(async () => await send(events, options)),
		]);
		const counts = new Map<string, number>();
		for (const m of fx.sb.state.sent)
			counts.set(m.phoneNumber, (counts.get(m.phoneNumber) ?? 0) + 1);
		expect([...counts.values()].filter((c) => c > 1)).toEqual([]);
		expect(counts.size).toBe(100);
		expect([...a.out[1], ...b.out[1]]).toEqual([]);
	});

	it('a store that fails while claiming stops the node with the store named, not the account; nothing sent', async () => {
		const real = fx.store.checkProcessedAndRecord.bind(fx.store);
		fx.store.checkProcessedAndRecord = async () => {
			throw new Error('Connection terminated unexpectedly');
		};
		try {
			const { error } = await send([order(1), order(2)]);
			expect(error?.message).toMatch(
				/deduplication store failed: Connection terminated unexpectedly/,
			);
			expect(error?.message).not.toMatch(/account|customer/i);
		} finally {
			fx.store.checkProcessedAndRecord = real;
		}
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it("another node writing into the lock's row during a round: its data is kept, nothing sent, the round's claim stays (nothing is written after the lock)", async () => {
		const real = fx.store.checkProcessedAndRecord.bind(fx.store);
		let wrote = false;
		fx.store.checkProcessedAndRecord = async (items, scope, context, options) => {
			const result = await real(items, scope, context, options);
			if (scope === 'node' && !wrote) {
				wrote = true; // n8n's Remove Duplicates (scope "Workflow") in the same workflow, right now
				await real(
					['order-from-remove-duplicates'],
					'workflow',
					{ workflow: { id: WF } } as never,
					{ mode: 'entries' },
				);
			}
			return result;
		};
		try {
			const { error } = await send([order(1)]);
			expect(error?.message).toMatch(
				/another node of this workflow keeps deduplication data with scope "Whole Workflow"/,
			);
		} finally {
			fx.store.checkProcessedAndRecord = real;
		}
		expect(fx.sb.state.sent).toHaveLength(0);
		expect(fx.store.entries(WF, '')).toEqual([
			ProcessedDataStore.hash('order-from-remove-duplicates'),
		]);
		const claim = ProcessedDataStore.hash(markersOf('order-1', Date.now()).claim);
		expect(fx.store.keys(WF, 'n:node-under-test')).toContain(claim);
	});

	it('a round cut short after its record call landed (the process killed) never makes a message read as sent', async () => {
		const realRecord = fx.store.checkProcessedAndRecord.bind(fx.store);
		const realRemove = fx.store.removeProcessed.bind(fx.store);
		const died = { records: 0 };
		fx.store.checkProcessedAndRecord = async (...args) => {
			const answer = await realRecord(...args);
			if (args[1] !== 'node') return answer;
			died.records++; // the claim (with its own `sent`) landed, its answer never came
			throw new Error('the process died here');
		};
		fx.store.removeProcessed = async (...args) => {
			if (args[1] !== 'node') return await realRemove(...args);
			// no remove call of this process ever runs
			throw new Error('the process died here');
		};
		try {
			const { error } = await send([order(5)]);
			expect(error?.message).toMatch(/deduplication store failed/);
		} finally {
			fx.store.checkProcessedAndRecord = realRecord;
			fx.store.removeProcessed = realRemove;
		}
		expect(died.records).toBe(1);
		const { sent, claim } = markersOf('order-5', Date.now());
		expect(fx.store.keys(WF, 'n:node-under-test')).toEqual(
			expect.arrayContaining([sent, claim].map((value) => ProcessedDataStore.hash(value))),
		);
		expect(fx.sb.state.sent).toHaveLength(0);
		const { out } = await send([order(5)]);
		expect(out[0]).toEqual([]);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({ deliveryUnknown: true, deduplicationKey: 'order-5' }),
		]);
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('a round whose remove call failed in a process that lives on: its claim stays, a redelivery is not sent and says why', async () => {
		// With a Send Limit the claiming round gives back the places it looked at and did not need:
		// a remove call after its record call.
		const limit = { ...FAST_KEYED, sendLimit: 100, sendLimitPeriod: 'hour' };
		const real = fx.store.removeProcessed.bind(fx.store);
		let failures = 0;
		fx.store.removeProcessed = async (...args) => {
			if (args[1] !== 'node' || failures >= REMOVE_TRIES) return await real(...args);
			failures++; // every try of the round's remove call
			throw new Error('Connection terminated unexpectedly');
		};
		try {
			const { error } = await send([order(6)], limit);
			expect(error?.message).toMatch(/deduplication store failed/);
		} finally {
			fx.store.removeProcessed = real;
		}
		expect(failures).toBe(REMOVE_TRIES);
		// Taking the claim back after the lock could remove another execution's claim made since:
		// it stays, and reads as an earlier send not confirmed (never sent twice).
		const { out } = await send([order(6)], limit);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({
				code: expect.stringMatching(/^earlierSend(InProgress|Unconfirmed)$/),
			}),
		]);
		expect(fx.sb.state.sent).toHaveLength(0);
	});
});
