/**
 * The send limit (Options → Send Limit, Send Limit Period) through n8n's engine, the sandbox and
 * the faithful store: what counts (sent, delivery unknown) and what does not (duplicates,
 * refusals), executions at once, the limit per execution, and what the limit costs in store calls.
 */
import type { IDataObject } from 'n8n-workflow';
import { NODE_NAME, runWorkflow, sourceOf } from '../../support/engine';
import { delay } from '../../support/node';
import {
	KEYED,
	WF,
	alimtalkCopy,
	dedupFixture,
	inFlight,
	jsonOf,
	order,
	phone,
	runSend,
	sendNode,
	sendsOf,
} from './support';

const fx = dedupFixture();
const { good, send, sentPhones } = sendsOf(fx, {});
const HOURLY = { sendLimit: 2, sendLimitPeriod: 'hour' };
const triggers = () => fx.sb.requests.filter((r) => r.path.endsWith('/trigger')).length;
/** Settles once `condition` holds; fails the test, naming what it waited for, after 20 s of polls. */
const until = async (what: string, condition: () => boolean) => {
	for (let polls = 0; !condition(); polls++) {
		if (polls >= 1000) throw new Error(`still waiting after 20 s for ${what}`);
		await delay(20);
	}
};
/**
 * The wall clock stands still at 10:20 UTC on a fixed day for every test (timers, pauses and the
 * monotonic clock run for real): an hour boundary never falls between a send and its assertions.
 */
const FIXED_NOW = Date.parse('2026-03-10T10:20:00.000Z');
const nextHour = () => '2026-03-10T11:00:00.000Z';
beforeEach(() => {
	jest.useFakeTimers({
		now: FIXED_NOW,
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'requestAnimationFrame',
			'cancelAnimationFrame',
			'requestIdleCallback',
			'cancelIdleCallback',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
});
afterEach(() => jest.useRealTimers());

describe('Alimtalk send with a send limit', () => {
	it('2 per hour, 5 items: 2 sent, 3 on Failed unsent with sendLimitReached, 2 requests', async () => {
		const { out, error } = await send(
			[1, 2, 3, 4, 5].map((n) => order(n)),
			HOURLY,
		);
		expect(error).toBeUndefined();
		expect(out[0].map((i) => i.json.status)).toEqual(['sent', 'sent']);
		expect(triggers()).toBe(2);
		expect(fx.sb.state.sent).toHaveLength(2);
		expect(jsonOf(out[1])).toHaveLength(3);
		expect(out[1][0].json).toEqual({
			code: 'sendLimitReached',
			message: `Not sent: the send limit of 2 messages per hour is used up; it resets at ${nextHour()}`,
			deliveryUnknown: false,
			sendLimit: 2,
			sendLimitPeriod: 'hour',
			sendLimitResetsAt: nextHour(),
			campaignKey: 'WELCOME',
			phoneNumber: expect.any(String),
		});
		expect(out[1].map((i) => i.pairedItem)).toEqual(
			expect.arrayContaining([{ item: 2 }, { item: 3 }, { item: 4 }]),
		);
		// The next execution in the same hour finds the limit used up.
		const again = await send([order(6)], HOURLY);
		expect(again.out[1][0].json.code).toBe('sendLimitReached');
		expect(fx.sb.state.sent).toHaveLength(2);
	});

	it('with a Deduplication Key: a limited key is taken back (free to send later), a sent one is kept', async () => {
		const limited = await send(
			[1, 2, 3].map((n) => order(n)),
			{ ...KEYED, ...HOURLY, concurrency: 1 },
		);
		expect(limited.out[0].map((i) => i.json.phoneNumber)).toEqual([phone(1), phone(2)]);
		expect(limited.out[1][0].json).toMatchObject({
			code: 'sendLimitReached',
			deduplicationKey: 'order-3',
			deduplicationKeyKept: false,
		});
		// A higher limit in the same hour: order-3 is sent, the others are duplicates.
		const raised = await send(
			[1, 2, 3].map((n) => order(n)),
			{ ...KEYED, sendLimit: 5 },
		);
		expect(raised.out[0].map((i) => i.json.status)).toEqual(['skipped', 'skipped', 'sent']);
		expect(sentPhones()).toEqual([phone(1), phone(2), phone(3)]);
	});

	it('holds for executions at once, in one process and in two', async () => {
		const copy = alimtalkCopy();
		const runs = await inFlight(
			8,
			Array.from(
				{ length: 8 },
				(_, e) => async () =>
					await runSend({
						input: [order(3 * e), order(3 * e + 1), order(3 * e + 2)],
						options: { ...KEYED, ...HOURLY },
						credentials: good(),
						copy: e % 2 === 0 ? copy : undefined,
					}),
			),
		);
		expect(runs.map((run) => run.error)).toEqual(runs.map(() => undefined));
		expect(fx.sb.state.sent).toHaveLength(2);
		const outcomes = runs.flatMap((run) => [...run.out[0], ...run.out[1]].map((i) => i.json));
		expect(outcomes.filter((o) => o.status === 'sent')).toHaveLength(2);
		expect(outcomes.filter((o) => o.code === 'sendLimitReached')).toHaveLength(22);
	});

	it('duplicates do not count', async () => {
		const limit = { ...KEYED, sendLimit: 3, sendLimitPeriod: 'hour' };
		await send([order(1)], limit);
		const { out } = await send([order(1), order(1), order(2), order(3), order(4)], limit);
		expect(jsonOf(out[0])).toEqual([
			expect.objectContaining({ phoneNumber: phone(1), duplicate: true }),
			expect.objectContaining({ phoneNumber: phone(1), duplicate: true, duplicateOfItem: 0 }),
			expect.objectContaining({ phoneNumber: phone(2), status: 'sent' }),
			expect.objectContaining({ phoneNumber: phone(3), status: 'sent' }),
		]);
		expect(out[1].map((i) => i.json.code)).toEqual(['sendLimitReached']);
		expect(fx.sb.state.sent).toHaveLength(3);
	});

	it('a refused send gives its place back', async () => {
		const refused = order(1, { campaign: 'NO-SUCH-CAMPAIGN' });
		const input = [refused, order(2), order(3), order(4)];
		const { out } = await send(input, { ...HOURLY, concurrency: 1 });
		expect(out[1].map((i) => i.json.code)).toEqual(['7011', 'sendLimitReached']);
		expect(out[0].map((i) => i.json.phoneNumber)).toEqual([phone(2), phone(3)]);
		expect(triggers()).toBe(3);
	});

	it('a message whose delivery is unknown counts', async () => {
		fx.sb.configure({ faults: { kinds: ['code7999'], firstN: 1, phase: 'after' } });
		const { out } = await send(
			[1, 2, 3].map((n) => order(n)),
			{ ...HOURLY, concurrency: 1 },
		);
		expect(jsonOf(out[1])).toEqual([
			expect.objectContaining({ phoneNumber: phone(1), code: '7999', deliveryUnknown: true }),
			expect.objectContaining({ phoneNumber: phone(3), code: 'sendLimitReached' }),
		]);
		expect(out[0].map((i) => i.json.phoneNumber)).toEqual([phone(2)]);
		expect(triggers()).toBe(2);
	});

	it('per hour of the workflow time zone: Asia/Kolkata resets at half past a UTC hour', async () => {
		const run = await runWorkflow({
			nodes: [
				sourceOf([order(1), order(2)]),
				sendNode(NODE_NAME, 'node-under-test', { sendLimit: 1 }),
			],
			connections: { Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
			credentials: { campaignApi: good() as never },
			timezone: 'Asia/Kolkata',
		});
		const resets = String(run.outputs(NODE_NAME)[1][0].json.sendLimitResetsAt);
		expect(resets).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00\.000\+05:30$/);
		// 10:20 UTC is 15:50 in Kolkata: the hour there ends at 16:00, 10:30 UTC.
		expect(resets).toBe('2026-03-10T16:00:00.000+05:30');
	});

	it('per execution: every run of the node in one execution shares it; the next execution starts again', async () => {
		// Success loops back into the node: its second run in this execution finds no place left.
		const node = sendNode(NODE_NAME, 'node-under-test', {
			sendLimit: 3,
			sendLimitPeriod: 'execution',
		});
		// A Success item names its campaign and phone number under the parameters' names.
		Object.assign(node.parameters, {
			campaignKey: '={{ $json.campaign ?? $json.campaignKey }}',
			phoneNumber: '={{ $json.phone ?? $json.phoneNumber }}',
			properties: { property: [{ key: 'name', value: 'Kim' }] },
		});
		const execute = async () =>
			await runWorkflow({
				nodes: [sourceOf([1, 2, 3, 4, 5].map((n) => order(n))), node],
				connections: {
					Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
					[NODE_NAME]: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }], []] },
				},
				credentials: { campaignApi: good() as never },
			});
		const first = await execute();
		const runs = first.runData[NODE_NAME];
		expect(runs).toHaveLength(2);
		const failedOf = (r: number) => (runs[r].data?.main[1] ?? []).map((i) => i.json as IDataObject);
		expect(failedOf(0).map((f) => f.code)).toEqual(['sendLimitReached', 'sendLimitReached']);
		expect(failedOf(1).map((f) => f.code)).toEqual(Array(3).fill('sendLimitReached'));
		expect(failedOf(1)[0]).toMatchObject({ sendLimitPeriod: 'execution', sendLimitResetsAt: null });
		expect(fx.sb.state.sent).toHaveLength(3);
		expect(fx.store.steps).toBe(0); // no store per execution
		await execute();
		expect(fx.sb.state.sent).toHaveLength(6);
	});

	it('a stop while the place is being asked for gives the place back once the round answers', async () => {
		fx.store.latency = { min: 150, max: 150 }; // a round takes seconds
		const stopped = await runSend({
			input: [order(1)],
			options: { sendLimit: 1, sendLimitPeriod: 'hour' },
			credentials: good(),
			stop: delay(300),
		});
		expect(stopped.error?.message).toMatch(/The execution was stopped/);
		expect(triggers()).toBe(0);
		// The round still gives the stopped ask a slot; its late answer is released in a round of its own.
		const slots = () => fx.store.keys(WF, 'n:node-under-test').length;
		await until('the stopped ask to be given its slot', () => slots() > 0);
		await until('that slot to be released', () => slots() === 0);
		expect(await fx.store.lockReleased(WF)).toBe(true);
		fx.store.latency = { min: 0, max: 2 };
		const again = await send([order(2)], { sendLimit: 1, sendLimitPeriod: 'hour' });
		expect(again.out[0].map((i) => i.json.phoneNumber)).toEqual([phone(2)]);
	}, 60000);

	it('refuses a Send Limit above 1,000 before sending', async () => {
		const { error } = await send([order(1)], { sendLimit: 1001 });
		expect(error?.message).toMatch(/"Send Limit" must be a whole number from 0 to 1000/);
		expect(triggers()).toBe(0);
	});

	it('adds at most one store call to a round: the places looked at and not needed, given back in a round that takes nothing else back', async () => {
		const count = async (tag: string, options: IDataObject) => {
			fx.store.reset();
			const calls = { keys: 0, lock: 0 };
			const spies = (
				[
					'checkProcessedAndRecord',
					'removeProcessed',
					'getProcessedDataCount',
					'clearAllProcessedItems',
				] as const
			).map((method) => {
				const original = fx.store[method].bind(fx.store) as (...a: unknown[]) => Promise<never>;
				return jest.spyOn(fx.store, method).mockImplementation((async (...args: unknown[]) => {
					calls[args[1] === 'node' || args[0] === 'node' ? 'keys' : 'lock']++;
					return await original(...args);
				}) as never);
			});
			const input = Array.from({ length: 10 }, (_, n) => order(n, { orderId: `${tag}-${n}` }));
			// One send at a time, each claiming at its turn (a pause between requests: no claims
			// ahead, whose rounds depend on timing), so both runs make the same rounds.
			await send(input, { ...options, concurrency: 1, pauseMs: 1 });
			await fx.store.lockReleased(WF);
			spies.forEach((spy) => spy.mockRestore());
			return calls;
		};
		const keyOnly = await count('key', KEYED);
		const keyAndLimit = await count('both', { ...KEYED, sendLimit: 100, sendLimitPeriod: 'hour' });
		const limitOnly = await count('limit', { sendLimit: 100, sendLimitPeriod: 'day' });
		// eslint-disable-next-line no-console
		console.log('store calls for 10 sends', { keyOnly, keyAndLimit, limitOnly });
		// One send at a time: each round takes back the confirmation of the send before it, and the
		// places ride in that remove call; only the first round has nothing else to take back.
		expect(keyAndLimit.keys).toBe(keyOnly.keys + 1);
		expect(limitOnly.keys).toBeLessThanOrEqual(keyOnly.keys);
		expect(fx.sb.state.sent).toHaveLength(30);
	});
});
