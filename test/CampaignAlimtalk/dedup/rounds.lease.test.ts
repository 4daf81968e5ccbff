/**
 * The lease (store/lease.ts `Lease.call`): a store call answered within its bound but after the
 * holder's lease ran out ends the round: nothing more is written (the lock may be another
 * process's by then, docs/deduplication.md invariant 4) and the round's items are told it failed.
 * Replayed on a fake clock (support.ts): the holder's heartbeats fail, so its lease runs out
 * LEASE_MS after it took the lock, while its calls on the row of keys are slow.
 */
import type { DeduplicationScope } from 'n8n-workflow';
import { LEASE_LOST } from '../../../nodes/CampaignAlimtalk/store/queue';
import { LEASE_MS } from '../../../nodes/CampaignAlimtalk/store/lock';
import { delay } from '../../support/node';
import { processCopy, raceFixture, settle } from './support';

raceFixture();

/**
 * Once `copy`'s next round took the lock, its heartbeats fail (its lease runs out LEASE_MS after
 * it took the lock), and its calls on the row of keys take `slowMs`, one after the other; every
 * such call is noted.
 */
function beatsFailKeysSlow(copy: ReturnType<typeof processCopy>, slowMs: number[]) {
	const { checkProcessedAndRecord, removeProcessed } = copy.ctx.helpers;
	const calls: Array<{ name: string; at: number; answeredAt?: number }> = [];
	const keysCall = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
		const call: { name: string; at: number; answeredAt?: number } = { name, at: Date.now() };
		calls.push(call);
		await delay(slowMs.shift() ?? 0);
		const value = await work();
		call.answeredAt = Date.now();
		return value;
	};
	Object.assign(copy.ctx.helpers, {
		checkProcessedAndRecord: async (...args: Parameters<typeof checkProcessedAndRecord>) => {
			const scope: DeduplicationScope = args[1];
			if (scope === 'workflow' && calls.length > 0)
				throw new Error('Connection terminated unexpectedly');
			if (scope === 'workflow') return await checkProcessedAndRecord(...args);
			return await keysCall('record', async () => await checkProcessedAndRecord(...args));
		},
		removeProcessed: async (...args: Parameters<typeof removeProcessed>) => {
			const scope: DeduplicationScope = args[1];
			if (scope === 'workflow') return await removeProcessed(...args);
			return await keysCall('remove', async () => await removeProcessed(...args));
		},
	});
	return calls;
}

describe('a store call answered after the lease ran out', () => {
	it('ends the round: nothing more is written, and the round is reported as failed', async () => {
		const a = processCopy('A');
		const first = await settle(a.ask('order-1')); // claimed, its send never ends
		expect(first).toMatchObject({ value: { answer: { verdict: 'send' } } });
		await settle(delay(61000)); // a redelivery's minute probe is new: its round has a remove call
		// The redelivery: its record call takes 3 s, its remove call (the minute probe back) 7.5 s,
		// within the 8 s bound of one call but past the lease; the start lookup of the claim found
		// would follow.
		const calls = beatsFailKeysSlow(a, [3000, 7500]);
		const redelivery = await settle(a.ask('order-1'));
		expect(calls.length).toBeGreaterThanOrEqual(2);
		const leaseEnd = calls[0].at + LEASE_MS; // the lock was taken before the first call
		expect(calls[1].answeredAt).toBeGreaterThan(leaseEnd); // the fault fired as meant
		expect(calls.map((call) => call.name)).toEqual(['record', 'remove']);
		expect(calls.filter((call) => call.at >= leaseEnd)).toEqual([]);
		expect(redelivery).toMatchObject({
			status: 'fulfilled',
			value: { error: { message: expect.stringContaining(LEASE_LOST) }, claimMayRemain: true },
		});
	});
});
