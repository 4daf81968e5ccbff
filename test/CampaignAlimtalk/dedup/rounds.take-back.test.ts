/**
 * What a failed round takes back in a later round (batch.ts `failed`), replayed on a fake clock
 * (support.ts): never a value that may, by then, be another execution's; and a take-back that
 * fails is tried again (simulation seeds 247 and 77).
 */
import { REMOVE_TRIES } from '../../../nodes/CampaignAlimtalk/dedup/batch';
import type { KeyMarkers } from '../../../nodes/CampaignAlimtalk/dedup/markers';
import { finished, markersOf } from '../../../nodes/CampaignAlimtalk/dedup/markers';
import { ProcessedDataStore } from '../../support/dedup-store';
import { LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/dedup/lock';
import { CONTEXT, failRemoves, keysRow, processCopy, race, raceFixture, settle } from './support';

raceFixture();

type Copy = ReturnType<typeof processCopy>;

async function claim(copy: Copy, key: string): Promise<KeyMarkers> {
	const asked = await settle(copy.ask(key));
	expect(asked).toMatchObject({ value: { answer: { verdict: 'send' } } });
	return (asked as { value: { answer: { markers: KeyMarkers } } }).value.answer.markers;
}

describe('a failed round takes back what it added, in a later round', () => {
	it("never another execution's confirmation: a `sent` found new beside a claim that stood stays", async () => {
		const [a, b, c] = ['A', 'B', 'C'].map(processCopy);
		// A, an earlier version of the node, is sending order-1: its claim has no `sent` beside it,
		// and its confirmation records `sent` (this version's claims carry their own `sent`).
		const markers = markersOf('order-1', Date.now());
		const legacy = [markers.hour, markers.minute, markers.claim];
		expect(await settle(a.write(legacy, []))).toMatchObject({ status: 'fulfilled' });
		// B asks about order-1: its record call lands (the claim stood; its `sent` probe is new),
		// its remove call fails on every try, and B stalls, so A confirms before B's next round.
		const fault = failRemoves(b, REMOVE_TRIES, 3000);
		const asked = b.ask('order-1');
		const confirmed = a.write([markers.sent], legacy);
		expect(await settle(asked)).toMatchObject({ value: { error: expect.anything() } });
		expect(await settle(confirmed)).toMatchObject({ status: 'fulfilled', value: {} });
		await settle(b.write([], [])); // B's next round, with its take-back, has run
		expect(fault.count).toBe(REMOVE_TRIES); // the fault fired
		expect(keysRow()).toContain(ProcessedDataStore.hash(markers.sent));
		const again = await settle(c.ask('order-1'));
		expect(again).toMatchObject({ value: { answer: { verdict: 'sent' } } });
	});

	it('its own claim and probes: the key is free again, even when the first take-back fails too', async () => {
		const [a, b] = ['A', 'B'].map(processCopy);
		const sent = markersOf('order-1', Date.now()).sent;
		expect(await settle(a.write([sent], []))).toMatchObject({ status: 'fulfilled' });
		const fault = failRemoves(a, 2 * REMOVE_TRIES);
		// One round of A claims order-2 and finds order-1 sent (its probes to take back): its remove
		// call fails on every try; its take-back round's too.
		const asked = [a.ask('order-1'), a.ask('order-2')];
		for (const ask of asked)
			expect(await settle(ask)).toMatchObject({ value: { error: expect.anything() } });
		await settle(a.write([], []));
		await settle(a.write([], []));
		expect(fault.count).toBe(2 * REMOVE_TRIES); // both faults fired
		expect(await claim(b, 'order-2')).toBeDefined(); // nothing of A's is left: B may send
		const again = await settle(b.ask('order-1'));
		expect(again).toMatchObject({ value: { answer: { verdict: 'sent' } } });
	});
});

describe('a round that failed after it wrote what it carried', () => {
	it('does not carry it again: a release it wrote never removes the claim another execution made since', async () => {
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
		const release = finished(markers, 'release');
		const released = await settle(a.write(release.facts, release.removals));
		expect(fault.fired).toBe(true); // the fault fired
		expect(released).toEqual({ status: 'fulfilled', value: {} }); // written: its owner is not told it was lost
		await claim(b, 'order-3'); // the key was free: B claims it and sends
		await settle(a.write([], [])); // A's next round
		const again = await settle(c.ask('order-3'));
		expect(again).toMatchObject({ status: 'fulfilled' });
		expect((again as { value: { answer?: { verdict: string } } }).value.answer?.verdict).not.toBe(
			'send',
		);
	});
});
