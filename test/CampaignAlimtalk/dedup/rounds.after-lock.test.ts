/**
 * Nothing is written to the row of keys after the lock is gone (docs/deduplication.md,
 * invariant 4), replayed on a fake clock with the race harness (support.ts). A round
 * that fails leaves what it may have written in place (a claim reads in flight, then
 * unconfirmed): no write of it is carried to a later round, and none is undone after its release.
 * The first two sent a message twice on the code before that change.
 */
import { REMOVE_TRIES } from '../../../nodes/CampaignAlimtalk/store/queue';
import type { KeyMarkers } from '../../../nodes/CampaignAlimtalk/key/markers';
import { finished, markersOf } from '../../../nodes/CampaignAlimtalk/key/markers';
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/lock';
import { ProcessedDataStore } from '../../support/dedup-store';
import { CONTEXT, failRemoves, keysRow, processCopy, race, raceFixture, settle } from './support';

raceFixture();

type Copy = ReturnType<typeof processCopy>;

/** The verdict of one ask, on the fake clock ('error' for a round that failed). */
async function verdictOf(copy: Copy, key: string): Promise<string> {
	const outcome = await settle(copy.ask(key));
	if (outcome.status !== 'fulfilled') throw new Error('an ask never rejects');
	return 'answer' in outcome.value ? outcome.value.answer.verdict : 'error';
}

async function claim(copy: Copy, key: string): Promise<KeyMarkers> {
	const asked = await settle(copy.ask(key));
	expect(asked).toMatchObject({ value: { answer: { verdict: 'send' } } });
	return (asked as { value: { answer: { markers: KeyMarkers } } }).value.answer.markers;
}

/**
 * Wraps `copy`'s store call `name` on the row of keys (scope "node"): `after` runs once the real
 * call landed, for the calls `when` picks; it may throw (a call that committed, then failed).
 */
function afterKeysCall(
	copy: Copy,
	name: 'removeProcessed' | 'checkProcessedAndRecord',
	after: (values: string[]) => Promise<void> | void,
) {
	const real = copy.ctx.helpers[name] as (...args: unknown[]) => Promise<unknown>;
	Object.assign(copy.ctx.helpers, {
		[name]: async (...args: unknown[]) => {
			const value = await real(...args);
			if (args[1] === 'node') await after(args[0] as string[]);
			return value;
		},
	});
}

describe('a round that fails writes nothing after the lock is gone', () => {
	it('a release whose remove call committed and then failed on every try is not written again later', async () => {
		const [a, b, c] = ['A', 'B', 'C'].map(processCopy);
		const markers = await claim(a, 'order-1');
		// A's release lands on every try and reports an error each time (a connection dropped after
		// the commit); after the last try A stalls, so B's rounds run before A's next one.
		const fault = { count: 0 };
		afterKeysCall(a, 'removeProcessed', () => {
			if (fault.count >= REMOVE_TRIES) return;
			fault.count++;
			if (fault.count === REMOVE_TRIES) a.stallFor(3000);
			throw new Error('Connection terminated unexpectedly');
		});
		const released = await settle(a.write(finished(markers, 'release')));
		expect(fault.count).toBe(REMOVE_TRIES); // the fault fired
		expect(released.status).toBe('rejected'); // its owner hears the release may not be written
		// The key is free again (the release landed): B claims it and its message goes out.
		const b1 = await claim(b, 'order-1');
		await settle(b.write(finished(b1, 'confirm')));
		await settle(a.write([])); // A's next round
		expect(await verdictOf(c, 'order-1')).toBe('sent');
	});

	it('a round judged "landed late" is not undone after its release, nor taken back later', async () => {
		const [a, b, c] = ['A', 'B', 'C'].map(processCopy);
		// During A's round, another process's late write rewrites the lock row with lock entries:
		// the release finds it grown by lock entries only ("landed late").
		const late = { fired: false, stalled: false };
		afterKeysCall(a, 'checkProcessedAndRecord', async () => {
			if (late.fired) return;
			late.fired = true;
			const copies = Array.from({ length: 30 }, () => LOCK_ENTRY);
			await race.store.clearAllProcessedItems('workflow', CONTEXT);
			await race.store.checkProcessedAndRecord(copies, 'workflow', CONTEXT, { mode: 'entries' });
		});
		// A write of A to the row of keys after that stalls A, so B's rounds run meanwhile.
		afterKeysCall(a, 'removeProcessed', () => {
			if (!late.fired || late.stalled) return;
			late.stalled = true;
			a.stallFor(3000);
		});
		expect(await verdictOf(a, 'order-5')).toBe('error'); // not exclusive: nothing of it is sent
		expect(late.fired).toBe(true); // the fault fired
		// Its claim stays (nothing written after the lock): it reads in flight, not free.
		const claim = ProcessedDataStore.hash(markersOf('order-5', Date.now()).claim);
		expect(keysRow()).toContain(claim);
		const verdicts: string[] = [];
		const asked = await settle(b.ask('order-5'));
		if (asked.status === 'fulfilled' && 'answer' in asked.value) {
			const answer = asked.value.answer;
			verdicts.push(answer.verdict);
			const confirm = finished(answer.markers as KeyMarkers, 'confirm');
			if (answer.verdict === 'send') await settle(b.write(confirm));
		}
		await settle(a.write([])); // A's next round
		verdicts.push(await verdictOf(c, 'order-5'));
		// Whoever sent order-5 (B, or nobody: A's claim may stand), it goes out at most once.
		expect(verdicts.filter((verdict) => verdict === 'send').length).toBeLessThanOrEqual(1);
	});

	it("a `sent` probe beside an earlier version's claim stays: once that claim is confirmed the message reads sent", async () => {
		const [a, b, c] = ['A', 'B', 'C'].map(processCopy);
		// A, an earlier version of the node, is sending order-1: its claim has no `sent` beside it,
		// and its confirmation records `sent` (this version's claims carry their own `sent`).
		const markers = markersOf('order-1', Date.now());
		const legacy = [markers.hour, markers.minute, markers.claim];
		expect(await settle(a.writeAsBefore(legacy, []))).toMatchObject({ status: 'fulfilled' });
		// B asks about order-1: its record call lands (the claim stood; its `sent` probe is new),
		// its remove call fails on every try, and B stalls, so A confirms before B's next round.
		const fault = failRemoves(b, REMOVE_TRIES, 3000);
		const asked = b.ask('order-1');
		const confirmed = a.writeAsBefore([markers.sent], legacy);
		expect(await settle(asked)).toMatchObject({ value: { error: expect.anything() } });
		expect(await settle(confirmed)).toMatchObject({ status: 'fulfilled' });
		await settle(b.write([])); // B's next round, with its take-back, has run
		expect(fault.count).toBe(REMOVE_TRIES); // the fault fired
		expect(keysRow()).toContain(ProcessedDataStore.hash(markers.sent));
		const again = await settle(c.ask('order-1'));
		expect(again).toMatchObject({ value: { answer: { verdict: 'sent' } } });
	});

	it('a `sent` probe left beside a kept claim (delivery unknown) never outlives it: once the History Size forgets the claim, the message does not read as sent', async () => {
		const [a, b, c] = ['A', 'B', 'C'].map(processCopy);
		const markers = await claim(a, 'order-7');
		await settle(a.write(finished(markers, 'keep'))); // delivery unknown: the claim stays
		// B asks about order-7: its record call lands, its remove call (the take-back of its probes)
		// fails on every try, so whatever the record call added new stays in the row.
		const fault = failRemoves(b, REMOVE_TRIES);
		expect(await verdictOf(b, 'order-7')).toBe('error');
		expect(fault.count).toBe(REMOVE_TRIES); // the fault fired
		// B's minute probe (the kept claim gave its own back) is what its failed round left.
		expect(keysRow()).toContain(ProcessedDataStore.hash(markers.minute));
		// Newer entries push everything up to the claim out, as the History Size does.
		const row = keysRow();
		const kept = row.length - row.indexOf(ProcessedDataStore.hash(markers.claim)) - 1;
		const newer = Array.from({ length: 5 }, (_, n) => `other-${n}`);
		const maxEntries = kept + newer.length;
		const options = { mode: 'entries' as const, maxEntries };
		await settle(race.store.checkProcessedAndRecord(newer, 'node', CONTEXT, options));
		expect(keysRow()).not.toContain(ProcessedDataStore.hash(markers.claim));
		// Forgotten, the message may be sent again (as the History Size says); never read as sent.
		expect(await verdictOf(c, 'order-7')).toBe('send');
	});

	it('a round that failed after it wrote its writes does not write them again: a release never removes the claim another execution made since', async () => {
		const [a, b, c] = ['A', 'B', 'C'].map(processCopy);
		const markers = await claim(a, 'order-3');
		// A's round with the release of order-3: its remove call lands, then the lock row is
		// rewritten by another process's late write, so the round fails; A stalls meanwhile.
		const remove = a.ctx.helpers.removeProcessed;
		const fault = { fired: false };
		Object.assign(a.ctx.helpers, {
			removeProcessed: async (...args: Parameters<typeof remove>) => {
				await remove(...args);
				if (fault.fired || args[1] !== 'node') return;
				fault.fired = true;
				const copies = Array.from({ length: 30 }, () => LOCK_ENTRY);
				await race.store.clearAllProcessedItems('workflow', CONTEXT);
				await race.store.checkProcessedAndRecord(copies, 'workflow', CONTEXT, { mode: 'entries' });
				a.stallFor(3000);
			},
		});
		const released = await settle(a.write(finished(markers, 'release')));
		expect(fault.fired).toBe(true); // the fault fired
		expect(released).toEqual({ status: 'fulfilled', value: undefined }); // written: its owner is not told it was lost
		await claim(b, 'order-3'); // the key was free: B claims it and sends
		await settle(a.write([])); // A's next round
		const again = await settle(c.ask('order-3'));
		expect(again).toMatchObject({ status: 'fulfilled' });
		expect((again as { value: { answer?: { verdict: string } } }).value.answer?.verdict).not.toBe(
			'send',
		);
	});
});

describe('a round that found a key sent and failed before its remove call (docs/deduplication.md, window 4)', () => {
	it('leaves its probes beside `sent`: the message, which was sent, reads in flight, then unconfirmed, never free', async () => {
		const [a, b] = ['A', 'B'].map(processCopy);
		const markers = await claim(a, 'order-1');
		await settle(a.write(finished(markers, 'confirm')));
		expect(await verdictOf(b, 'order-1')).toBe('sent');
		// B asks again: its record call lands, its remove call fails on every try.
		const fired = failRemoves(b, REMOVE_TRIES);
		expect(await verdictOf(b, 'order-1')).toBe('error');
		expect(fired.count).toBe(REMOVE_TRIES);
		expect(keysRow()).toEqual(
			expect.arrayContaining(
				[markers.sent, markers.claim].map((value) => ProcessedDataStore.hash(value)),
			),
		);
		expect(await verdictOf(a, 'order-1')).toBe('inFlight');
		await jest.advanceTimersByTimeAsync(60000 + 3 * 60000); // past the longest send (60 s) and the margin
		expect(await verdictOf(a, 'order-1')).toBe('unconfirmed');
	});
});
