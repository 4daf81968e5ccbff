/**
 * A heartbeat counted twice: a count of the lock
 * row read by the holder (the streak's `stillHeld`, a release) between a heartbeat's write
 * landing and its answer adopts that beat (`Holder.counted`); the beat's own answer must not
 * count it again, or the holder expects one entry more than its row holds, takes the lock as
 * lost and leaves it to a takeover 30 s later.
 */
import { Holder, LOCK_ENTRY } from '../../../nodes/CampaignAlimtalk/store/holder';
import { release } from '../../../nodes/CampaignAlimtalk/store/lock';
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
		remove: async (values) => {
			for (const value of values) if (rows.includes(value)) rows.splice(rows.indexOf(value), 1);
		},
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

describe('a count read before a heartbeat landed and answered during that beat', () => {
	it('does not make the holder forget its own beat: the release finds the row as the holder left it', async () => {
		const { rows, store, gate, release: openBeat } = gatedStore();
		await store.record([LOCK_ENTRY, LOCK_ENTRY, LOCK_ENTRY]);
		const holder = new Holder(store, env, 3, env.now());
		// A count of the holder (the streak's `stillHeld`) reads the row now; its answer comes late.
		const read = rows.length;
		let answer: (count: number) => void = () => undefined;
		const early = new Promise<number>((resolve) => (answer = resolve));
		gate.held = true;
		const beat = (holder as unknown as { beat: () => Promise<void> }).beat();
		for (let i = 0; i < 1000 && rows.length < 4; i++) await Promise.resolve();
		expect(rows).toHaveLength(4); // the beat's write landed; its answer has not come
		answer(read);
		expect(holder.counted(await early)).toBe(3); // the late answer of the count read before it
		openBeat();
		await beat;
		await holder.stop();
		const node = { name: 'Send', type: 'campaignAlimtalk' } as never;
		// Before: the holder expected 3 where its row held 4, so the release answered `late` and the
		// round failed ("a database write that landed late"), its claims kept, with no fault at all.
		expect(await release(holder, store, env, node)).toBe('released');
		expect(rows).toEqual([]);
	});
});
