/**
 * Overlapping executions on the faithful store (dedup-fx.store.ts), in two "processes" (separate
 * copies of the package's modules, as two queue-mode workers): 20 executions in flight.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';
import { KEYED, WF, alimtalkCopy, dedupFixture, inFlight, phone, runSend } from './support';

const EVENTS = 120;
const IN_FLIGHT = 20;

const fx = dedupFixture();
let processes: INodeType[];
beforeAll(() => {
	processes = [alimtalkCopy(), alimtalkCopy()];
});
beforeEach(() => fx.sb.configure({ latencyMs: 2 }));

const event = (n: number): IDataObject => ({
	orderId: `order-${n}`,
	campaign: 'WELCOME',
	phone: phone(n),
	name: `Kim ${n}`,
});

/** One execution per event, spread over the two processes, IN_FLIGHT at a time. */
async function deliver(events: IDataObject[]) {
	const credentials = { baseUrl: fx.sb.baseUrl, apiKey: fx.sb.apiKey };
	return await inFlight(
		IN_FLIGHT,
		events.map(
			(e, index) => async () =>
				await runSend({ input: [e], options: KEYED, credentials, copy: processes[index % 2] }),
		),
	);
}

const sendsPerPhone = () => {
	const counts = new Map<string, number>();
	for (const m of fx.sb.state.sent) counts.set(m.phoneNumber, (counts.get(m.phoneNumber) ?? 0) + 1);
	return counts;
};

describe('the faithful store, used naively, loses keys as n8n 2.41.1 does', () => {
	it('overlapping calls lose keys and the first inserts collide', async () => {
		const ctx = { workflow: { id: 'naive' } } as never;
		const results = await Promise.allSettled(
			Array.from({ length: 40 }, (_, i) =>
				fx.store.checkProcessedAndRecord([`k${i}`], 'workflow', ctx, { mode: 'entries' }),
			),
		);
		expect(
			results.some((r) => r.status === 'rejected' && /UNIQUE constraint/.test(String(r.reason))),
		).toBe(true);
		expect((fx.store.entries('naive', '') ?? []).length).toBeLessThan(40);
	});
});

describe('Deduplication Key with overlapping executions in two processes', () => {
	it('redelivery: the same events delivered again after the first round send nothing more', async () => {
		const events = Array.from({ length: EVENTS }, (_, n) => event(n));
		const first = await deliver(events);
		expect(first.filter((r) => r.error)).toEqual([]);
		expect(fx.sb.state.sent).toHaveLength(EVENTS);
		expect(fx.store.keys(WF, 'n:node-under-test')).toHaveLength(EVENTS);
		const second = await deliver(events);
		expect(second.filter((r) => r.error)).toEqual([]);
		expect(fx.sb.state.sent).toHaveLength(EVENTS);
		expect(second.every((r) => r.out[0][0]?.json.duplicate === true)).toBe(true);
		expect(await fx.store.lockReleased(WF)).toBe(true);
	});

	it('concurrent copies: every event delivered twice at the same moment is sent once', async () => {
		const events = Array.from({ length: EVENTS }, (_, n) => event(n));
		const runs = await deliver(events.flatMap((e) => [e, e]));
		expect(runs.filter((r) => r.error)).toEqual([]);
		const counts = sendsPerPhone();
		expect(counts.size).toBe(EVENTS);
		expect([...counts.values()].filter((c) => c > 1)).toEqual([]);
		expect(runs.filter((r) => r.out[0][0]?.json.duplicate === true)).toHaveLength(EVENTS);
	});

	it('a slow store (calls of up to 30 ms) changes nothing', async () => {
		fx.store.latency = { min: 0, max: 30 };
		const events = Array.from({ length: 40 }, (_, n) => event(n));
		await deliver(events.flatMap((e) => [e, e]));
		expect(fx.sb.state.sent).toHaveLength(40);
		expect(sendsPerPhone().size).toBe(40);
	});
});
