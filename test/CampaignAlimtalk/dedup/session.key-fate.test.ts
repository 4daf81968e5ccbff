/**
 * The Deduplication Key in the layouts and faults docs/deduplication.md describes, through
 * the in-process engine and the faithful store: two keyed sends in one workflow, a stray `sent`
 * probe, the longest settings, nodes sharing a record, a failed round carrying another
 * execution's release, clocks that disagree, a store call that stalls. Each test failed on the
 * Deduplication Key before this round.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { REMOVE_TRIES } from '../../../nodes/CampaignAlimtalk/store/queue';
import { claimed, markersOf } from '../../../nodes/CampaignAlimtalk/key/markers';
import { storedKey } from '../../../nodes/CampaignAlimtalk/key/key-options';
import { withServiceCode } from '../../../nodes/shared/codes';
import { keyFate } from '../../../nodes/CampaignAlimtalk/key/fate';
import { ProcessedDataStore } from '../../support/dedup-store';
import { delay } from '../../support/node';
import {
	ALIMTALK_TYPE,
	KEYED,
	WF,
	dedupFixture,
	inFlight,
	order,
	phone,
	runSend,
	sendsOf,
} from './support';

const fx = dedupFixture();
const { good, send, sentPhones } = sendsOf(fx, KEYED);
const NODE_ROW = { workflow: { id: WF }, node: { id: 'node-under-test' } } as never;
const sentTo = (n: number) => fx.sb.state.sent.filter((m) => m.phoneNumber === phone(n)).length;

/** Resolves once the claim of `key` is in the node's row of keys. */
async function claimedInStore(key: string): Promise<void> {
	const claim = ProcessedDataStore.hash(markersOf(key, Date.now()).claim);
	for (let i = 0; i < 500; i++) {
		if ((fx.store.entries(WF, 'n:node-under-test') ?? []).includes(claim)) return;
		await delay(10);
	}
	throw new Error(`no claim of ${key} in the store`);
}

describe('the Deduplication Key in layouts and faults', () => {
	it('two keyed sends in one workflow, events delivered twice at once: each node sends each message once', async () => {
		fx.sb.configure({ latencyMs: 100 });
		const events = Array.from({ length: 20 }, (_, n) => order(n));
		const deliveries = events.flatMap((event) => [event, event]);
		await inFlight(
			10,
			deliveries.map(
				(event) => async () =>
					await runSend({
						input: [event],
						options: KEYED,
						more: { Second: KEYED },
						credentials: good(),
					}),
			),
		);
		expect(events.map((_, n) => sentTo(n))).toEqual(events.map(() => 2));
	});

	it('a `sent` probe left beside a claim does not outlive its release: the message is sent once fixed', async () => {
		fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'], templateState: 'blocked' });
		fx.sb.configure({ latencyMs: 400 });
		const running = send([order(1)]);
		await claimedInStore('order-1'); // its request in flight
		// Another round's probe of the same key, whose remove call failed.
		await fx.store.checkProcessedAndRecord([storedKey('order-1')], 'node', NODE_ROW, {
			mode: 'entries',
		});
		const first = await running;
		expect(first.out[1][0].json).toMatchObject({ code: '7007', deduplicationKeyKept: false });
		fx.sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		fx.sb.configure({ latencyMs: 0 });
		const second = await send([order(1)]);
		expect(second.out[0][0]?.json).toMatchObject({ status: 'sent' });
		expect(sentPhones()).toEqual([phone(1)]);
	});

	it('at the longest settings and the smallest History Size, ten sends in flight keep their claims', async () => {
		const longest = {
			...KEYED,
			deduplicationHistorySize: 1000,
			timeoutMs: 600000,
			maxRetries: 10,
			concurrency: 10,
		};
		fx.sb.configure({ latencyMs: 1500 });
		const first = send(
			Array.from({ length: 10 }, (_, n) => order(n)),
			longest,
		);
		await delay(600); // all ten claimed and in flight
		const again = await send([order(0)], longest);
		await first;
		expect(again.out[0][0]?.json).toMatchObject({ status: 'skipped', duplicate: true });
		expect(sentTo(0)).toBe(1);
	});

	it('a failed round that carried a release: its execution says what became of its key', async () => {
		fx.sb.addCampaign('BLOCKED', { templateState: 'blocked' });
		fx.sb.configure({ latencyMs: 300 });
		const real = fx.store.removeProcessed.bind(fx.store);
		let armed = 0;
		fx.store.removeProcessed = async (...args) => {
			if (armed > 0 && args[1] === 'node') {
				armed--; // every try of the round's remove call
				throw new Error('Connection terminated unexpectedly');
			}
			return await real(...args);
		};
		try {
			// X: a refused send, whose key is released in the round after its request.
			const x = send([order(1, { campaign: 'BLOCKED' })]);
			await claimedInStore('order-1');
			armed = REMOVE_TRIES; // the round carrying the release fails on every try
			const { out } = await x;
			expect(armed).toBe(0); // the fault fired
			expect(out[1][0].json).toMatchObject({
				deduplicationKeyKept: true,
				deduplicationError: expect.stringMatching(/deduplication store failed/),
			});
			fx.sb.configure({ latencyMs: undefined });
			const again = await send([order(1)], { ...KEYED, timeoutMs: 1000, maxRetries: 0 });
			// A key said kept is not sent again: its earlier send reads maybe sent (its claim's
			// minute marker stayed too: in progress until the minute leaves the window).
			expect(sentTo(1)).toBe(0);
			expect(again.out[1][0].json).toMatchObject({
				code: expect.stringMatching(/^earlierSend(InProgress|Unconfirmed)$/),
				deliveryUnknown: true,
			});
		} finally {
			fx.store.removeProcessed = real;
		}
	});

	it('a claim made by a process whose clock is 50 s ahead is seen as in flight, not as unconfirmed', async () => {
		const real = Date.now.bind(Date);
		const slot = 30 * 60000;
		const target = Math.floor(real() / slot) * slot + 10.5 * 60000; // far from any boundary
		const offset = target - real();
		const spy = jest.spyOn(Date, 'now').mockImplementation(() => real() + offset);
		try {
			const ahead = markersOf('order-1', Date.now() + 50000);
			await fx.store.checkProcessedAndRecord(claimed(ahead), 'node', NODE_ROW, {
				mode: 'entries',
			});
			const { out } = await send([order(1)], { ...KEYED, timeoutMs: 1000, maxRetries: 0 });
			expect(out[1][0].json).toMatchObject({
				code: 'earlierSendInProgress',
				deliveryUnknown: true,
			});
		} finally {
			spy.mockRestore();
		}
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('thirty unconfirmed keys in one round: the store calls stay small (hour lookups bounded, removes in pieces)', async () => {
		const keys = Array.from({ length: 30 }, (_, n) => `order-${n}`);
		const crashed = keys.flatMap((key) => {
			const markers = markersOf(key, Date.now() - 3 * 3600000);
			return [markers.hour, markers.claim]; // claims of a process that died three hours ago
		});
		await fx.store.checkProcessedAndRecord(crashed, 'node', NODE_ROW, { mode: 'entries' });
		const sizes = { record: 0, remove: 0 };
		const record = fx.store.checkProcessedAndRecord.bind(fx.store);
		const remove = fx.store.removeProcessed.bind(fx.store);
		fx.store.checkProcessedAndRecord = async (items, ...rest) => {
			sizes.record = Math.max(sizes.record, items.length);
			return await record(items, ...rest);
		};
		fx.store.removeProcessed = async (items, ...rest) => {
			sizes.remove = Math.max(sizes.remove, items.length);
			return await remove(items, ...rest);
		};
		try {
			const { out } = await send(
				keys.map((_, n) => order(n)),
				{ ...KEYED, concurrency: 30, timeoutMs: 1000, maxRetries: 0 },
			);
			expect(out[1]).toHaveLength(30);
			const started = out[1].filter((item) => item.json.earlierSendStartedAt !== undefined);
			expect(started.length).toBeGreaterThanOrEqual(10);
		} finally {
			fx.store.checkProcessedAndRecord = record;
			fx.store.removeProcessed = remove;
		}
		// At 100,000 keys n8n 2.41.1 takes about 1 ms a removed value: no call may hold the lease.
		expect(sizes.remove).toBeLessThanOrEqual(250);
		expect(sizes.record).toBeLessThanOrEqual(600);
		expect(fx.sb.state.sent).toHaveLength(0);
	});

	it('a round whose store calls stall past the lease sends nothing on its answers', async () => {
		const stallOnce = { armed: true };
		const methods = [
			'checkProcessedAndRecord',
			'removeProcessed',
			'getProcessedDataCount',
		] as const;
		const reals = methods.map(
			(m) => fx.store[m].bind(fx.store) as (...a: unknown[]) => Promise<never>,
		);
		let stallUntil = 0;
		methods.forEach((m, i) => {
			(fx.store as unknown as Record<string, unknown>)[m] = async (...args: unknown[]) => {
				if (m === 'checkProcessedAndRecord' && args[1] === 'node' && stallOnce.armed) {
					stallOnce.armed = false;
					stallUntil = Date.now() + 11000; // the whole process stalls (a long GC, a slow database)
				}
				if (Date.now() < stallUntil) await delay(stallUntil - Date.now());
				return await reals[i](...args);
			};
		});
		try {
			const { error } = await send([order(1)]);
			expect(error?.message).toMatch(/deduplication store failed/);
		} finally {
			methods.forEach((m, i) => ((fx.store as unknown as Record<string, unknown>)[m] = reals[i]));
		}
		expect(fx.sb.state.sent).toHaveLength(0);
	}, 60000);
});

describe('what a send that ended without an answer does to its key', () => {
	it('keeps the key of a request aborted by a stopped execution (no service code), releases one refused on its only attempt', () => {
		const node = {
			id: 'n',
			name: 'Send',
			type: ALIMTALK_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		} as INode;
		const aborted = new NodeApiError(node, { message: 'canceled' }, { message: 'canceled' });
		expect(keyFate(aborted)).toBe('keep');
		const refused = new NodeApiError(node, { message: 'refused' }, { message: 'refused' });
		withServiceCode(refused, '1405');
		expect(keyFate(refused)).toBe('release');
	});

	it('keeps the key of a service code that follows an attempt that may have left (only a certain failure releases)', () => {
		const node = { id: 'n', name: 'Send', type: ALIMTALK_TYPE, typeVersion: 1 } as INode;
		const busy = new NodeApiError(node, { message: 'busy' }, { message: 'busy' });
		withServiceCode(busy, '-1005');
		busy.context.deliveryUnknown = true;
		expect(keyFate(busy)).toBe('keep');
		expect(keyFate({ code: '7002', deliveryUnknown: true })).toBe('keep');
		expect(keyFate({ code: '7002', deliveryUnknown: false })).toBe('release');
	});
});
