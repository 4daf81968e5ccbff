/**
 * Two keyed nodes of one workflow share the deduplication lock (rounds.ts), and so may share one
 * lock round. An error of that round reaches each node's work as that node's own error: it names
 * the node it is given to, never the one whose work happened to be queued first (found by the
 * simulation, seeds 65 and 126, sim-suite.ts).
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import * as queue from '../../../nodes/CampaignAlimtalk/store/queue';
import { serviceCodeOf } from '../../../nodes/shared/codes';
import { delay } from '../../support/node';
import { processCopy, raceFixture, settle, underLockOf } from './support';

raceFixture();
const underLock = underLockOf(queue);

/** `ctx` as a node named `name` of the same workflow. */
function asNode(ctx: IExecuteFunctions, name: string): IExecuteFunctions {
	const node = { ...ctx.getNode(), id: `id-${name}`, name } as INode;
	return { ...ctx, getNode: () => node } as IExecuteFunctions;
}

describe('a lock round shared by two nodes', () => {
	it('each node is told with its own name when the lock cannot be taken', async () => {
		const copy = processCopy('A');
		const failing = async () =>
			await Promise.reject(new Error('Connection terminated unexpectedly'));
		const [a, b] = ['Send A', 'Send B'].map((name) => asNode(copy.ctx, name));
		const work = async () => 'ran';
		// A first round, longer than a streak allows, during which both nodes queue their work (one
		// round for the two) and the store starts failing: the next round must take the lock again.
		let both: Promise<Array<PromiseSettledResult<string>>> | undefined;
		const first = underLock(copy.ctx, 'node', async () => {
			both = Promise.allSettled([underLock(a, 'node', work), underLock(b, 'node', work)]);
			Object.assign(copy.ctx.helpers, { getProcessedDataCount: failing });
			await delay(500);
		});
		await settle(first);
		const settled = await settle(both as Promise<Array<PromiseSettledResult<string>>>);
		if (settled.status !== 'fulfilled') throw new Error('allSettled never rejects');
		const [fromA, fromB] = settled.value.map((outcome) =>
			outcome.status === 'rejected' ? (outcome.reason as NodeOperationError) : undefined,
		);
		expect(fromA).toBeInstanceOf(NodeOperationError);
		expect(fromB).toBeInstanceOf(NodeOperationError);
		expect(fromA?.node.name).toBe('Send A');
		expect(fromB?.node.name).toBe('Send B');
		expect(fromB?.message).toBe(fromA?.message);
		expect(fromB?.description).toBe(fromA?.description);
		expect(serviceCodeOf(fromB)).toBe(serviceCodeOf(fromA));
	});
});
