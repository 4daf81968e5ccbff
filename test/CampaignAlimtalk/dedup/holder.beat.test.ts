/**
 * A heartbeat counted twice (issue "Deduplication, round five", finding 5): a count of the lock
 * row read by the holder (the streak's `stillHeld`, a release) between a heartbeat's write
 * landing and its answer adopts that beat (`Holder.counted`); the beat's own answer must not
 * count it again, or the holder expects one entry more than its row holds, takes the lock as
 * lost and leaves it to a takeover 30 s later.
 */
import { Holder } from '../../../nodes/CampaignAlimtalk/store/holder';
import type { LockEnv, LockStore } from '../../../nodes/CampaignAlimtalk/store/store-calls';

function gatedStore() {
	const rows: string[] = [];
	let open: () => void = () => undefined;
	const gate = { held: false };
	const store: LockStore = {
		record: async (values) => {
			rows.push(...values); // the write lands now; its answer waits for the gate
			if (gate.held) await new Promise<void>((resolve) => (open = resolve));
			return { new: values };
		},
		remove: async () => undefined,
		clear: async () => void rows.splice(0),
		count: async () => rows.length,
	};
	return { rows, store, gate, release: () => open() };
}

/** The monotonic clock the store calls' deadlines are measured on (store-calls.ts). */
const env: LockEnv = {
	now: () => performance.now(),
	sleep: async () => undefined,
	random: () => 0.5,
};

describe('a heartbeat whose write landed before a count of the holder', () => {
	it('is counted once: the holder expects exactly what its row holds', async () => {
		const { rows, store, gate, release } = gatedStore();
		await store.record(['lock', 'lock', 'lock']);
		const holder = new Holder(store, env, 3, env.now());
		gate.held = true;
		const beat = (holder as unknown as { beat: () => Promise<void> }).beat();
		for (let i = 0; i < 1000 && rows.length < 4; i++) await Promise.resolve();
		expect(rows).toHaveLength(4); // the beat's write landed; its answer has not come
		expect(holder.counted(await store.count())).toBe(4); // a count of the holder meanwhile
		release();
		await beat;
		expect(holder.expected).toBe(rows.length);
		expect(holder.valid).toBe(true);
	});
});
