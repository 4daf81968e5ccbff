/**
 * A lock left by a process that died holding it, through a whole send: taken as abandoned after
 * the real STALE_LOCK_MS (30 s). The same takeover is replayed on a fake clock, with its races,
 * in dedup-lock-races.test.ts; this file waits for real, so the compatibility runs leave it out
 * (jest.compat.config.js).
 */
import { LOCK_ENTRY, STALE_LOCK_MS } from '../../../nodes/CampaignAlimtalk/store/lock';
import { KEYED, WF, dedupFixture, order, sendsOf } from './support';

const fx = dedupFixture();
const { send } = sendsOf(fx, KEYED);

describe('Alimtalk send with a Deduplication Key, after a process died holding the lock', () => {
	it(
		'takes a lock left by a process that died holding it as abandoned after STALE_LOCK_MS, then sends',
		async () => {
			await fx.store.checkProcessedAndRecord(
				[LOCK_ENTRY],
				'workflow',
				{ workflow: { id: WF } } as never,
				{ mode: 'entries' },
			);
			const { out, error } = await send([order(1)]);
			expect(error).toBeUndefined();
			expect(out[0][0].json.status).toBe('sent');
			expect(await fx.store.lockReleased(WF)).toBe(true);
		},
		STALE_LOCK_MS + 20000,
	);
});
