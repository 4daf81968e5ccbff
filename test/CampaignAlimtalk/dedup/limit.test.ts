/**
 * The send limit's parts (dedup/limit.ts): the period in the workflow's time zone, the slot
 * entries, the allocation of a round's free slots, and the places of an execution.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import {
	ExecutionPlaces,
	allocate,
	limitedFailure,
	periodOf,
	poolsOf,
	roomFor,
	slotsOf,
} from '../../../nodes/CampaignAlimtalk/dedup/limit';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('the send limit period', () => {
	it('an hour in UTC starts on the hour and resets an hour later', () => {
		const p = periodOf(at('2026-05-10T13:42:10Z'), 'hour', 'UTC');
		expect(iso(p.startMs)).toBe('2026-05-10T13:00:00.000Z');
		expect(iso(p.endMs)).toBe('2026-05-10T14:00:00.000Z');
		expect(p.resetsAt).toBe('2026-05-10T14:00:00.000Z');
	});

	it('an hour in Asia/Kolkata (+5:30) starts at half past a UTC hour', () => {
		const p = periodOf(at('2026-05-10T13:42:10Z'), 'hour', 'Asia/Kolkata');
		expect(iso(p.startMs)).toBe('2026-05-10T13:30:00.000Z');
		expect(iso(p.endMs)).toBe('2026-05-10T14:30:00.000Z');
		expect(p.resetsAt).toBe('2026-05-10T20:00:00.000+05:30');
		const before = periodOf(at('2026-05-10T13:29:59Z'), 'hour', 'Asia/Kolkata');
		expect(iso(before.startMs)).toBe('2026-05-10T12:30:00.000Z');
	});

	it('a day starts at midnight in the zone: Asia/Seoul', () => {
		const p = periodOf(at('2026-05-10T16:00:00Z'), 'day', 'Asia/Seoul');
		expect(iso(p.startMs)).toBe('2026-05-10T15:00:00.000Z');
		expect(p.resetsAt).toBe('2026-05-12T00:00:00.000+09:00');
	});

	it('a day of a daylight-saving change lasts 23 or 25 hours', () => {
		const spring = periodOf(at('2026-03-29T12:00:00Z'), 'day', 'Europe/Berlin');
		expect(iso(spring.startMs)).toBe('2026-03-28T23:00:00.000Z');
		expect(iso(spring.endMs)).toBe('2026-03-29T22:00:00.000Z');
		const autumn = periodOf(at('2026-11-01T12:00:00Z'), 'day', 'America/New_York');
		expect((autumn.endMs - autumn.startMs) / 3600000).toBe(25);
		expect(autumn.resetsAt).toBe('2026-11-02T00:00:00.000-05:00');
	});

	it('the repeated hour of an autumn change is two periods, not one', () => {
		const first = periodOf(at('2026-10-25T00:30:00Z'), 'hour', 'Europe/Berlin'); // 02:30 +02:00
		const second = periodOf(at('2026-10-25T01:30:00Z'), 'hour', 'Europe/Berlin'); // 02:30 +01:00
		expect(first.startMs).not.toBe(second.startMs);
		expect(second.startMs - first.startMs).toBe(3600000);
	});

	it('an unknown zone counts as UTC', () => {
		const p = periodOf(at('2026-05-10T13:42:10Z'), 'hour', 'Not/AZone');
		expect(iso(p.startMs)).toBe('2026-05-10T13:00:00.000Z');
	});
});

describe('the slots of a period and their allocation', () => {
	const limit = { limit: 3, period: 'hour' as const, zone: 'UTC' };
	const now = at('2026-05-10T13:42:10Z');

	it('names one slot per place, by period and start', () => {
		const start = at('2026-05-10T13:00:00Z');
		expect(slotsOf(limit, start)).toEqual([
			`limit:hour:${start}:1`,
			`limit:hour:${start}:2`,
			`limit:hour:${start}:3`,
		]);
	});

	it('asks of one limit share one pool; the old period it cleans is two hours before', () => {
		const { pools, ofAsk } = poolsOf([limit, undefined, limit], now);
		expect(pools).toHaveLength(1);
		expect(ofAsk[0]).toBe(ofAsk[2]);
		expect(ofAsk[1]).toBeUndefined();
		expect(pools[0].previous[0]).toBe(`limit:hour:${at('2026-05-10T11:00:00Z')}:1`);
		expect(pools[0].resetsAt).toBe('2026-05-10T14:00:00.000Z');
	});

	it('gives the free slots in ask order to the asks that would send; the rest are limited', () => {
		const { ofAsk, pools } = poolsOf([limit, limit, limit, limit], now);
		const [s1, s2, s3] = pools[0].slots;
		const used = new Set([s2]); // one place taken by an earlier round
		const given = allocate(ofAsk, [true, false, true, true], (v) => !used.has(v));
		expect(given.slots).toEqual([s1, undefined, s3, undefined]);
		expect(given.limited).toEqual([false, false, false, true]);
		expect(given.takeBack).toEqual([]);
	});

	it('takes back the free slots not given, and the previous period only when the period is new', () => {
		const { ofAsk, pools } = poolsOf([limit], now);
		const [s1, s2, s3] = pools[0].slots;
		const fresh = allocate(ofAsk, [true], () => true);
		expect(fresh.slots).toEqual([s1]);
		expect(fresh.takeBack).toEqual([s2, s3, ...pools[0].previous]);
		const used = new Set([s1]);
		const later = allocate(ofAsk, [false], (v) => !used.has(v));
		expect(later.takeBack).toEqual([s2, s3]);
	});

	it('keeps ten entries of room per place of a limit per hour or day, none per execution', () => {
		expect(roomFor(limit)).toBe(30);
		expect(roomFor({ ...limit, period: 'execution' })).toBe(0);
		expect(roomFor(undefined)).toBe(0);
	});

	it('says the limit, the period and when it resets, and that nothing was sent', () => {
		expect(limitedFailure(limit, '2026-05-10T14:00:00.000Z')).toEqual({
			code: 'sendLimitReached',
			message:
				'Not sent: the send limit of 3 messages per hour is used up; it resets at 2026-05-10T14:00:00.000Z',
			deliveryUnknown: false,
			sendLimit: 3,
			sendLimitPeriod: 'hour',
			sendLimitResetsAt: '2026-05-10T14:00:00.000Z',
		});
		expect(limitedFailure({ ...limit, period: 'execution' }, undefined)).toMatchObject({
			message:
				'Not sent: the send limit of 3 messages per execution is used up; it resets with the next execution',
			sendLimitResetsAt: null,
		});
	});
});

describe('the places of a limit per execution', () => {
	const ctxOf = (signal: AbortSignal | undefined, nodeId = 'send') =>
		({
			getExecutionCancelSignal: signal ? () => signal : undefined,
			getNode: () => ({ id: nodeId, name: nodeId }),
		}) as unknown as IExecuteFunctions;

	it('are shared by every run of the node in one execution (its cancel signal), per node', () => {
		const execution = new AbortController().signal;
		const first = new ExecutionPlaces(ctxOf(execution), 2);
		const second = new ExecutionPlaces(ctxOf(execution), 2);
		expect(first.take(0)).toBe(true);
		expect(second.take(0)).toBe(true);
		expect(second.take(1)).toBe(false);
		expect(new ExecutionPlaces(ctxOf(execution, 'other'), 2).take(0)).toBe(true);
		expect(new ExecutionPlaces(ctxOf(new AbortController().signal), 2).take(0)).toBe(true);
	});

	it('a release gives a place back; a second release of the same item does not', () => {
		const places = new ExecutionPlaces(ctxOf(new AbortController().signal), 1);
		expect(places.take(0)).toBe(true);
		places.giveBack(0);
		places.giveBack(0);
		expect(places.take(1)).toBe(true);
		expect(places.take(2)).toBe(false);
	});

	it('without a cancel signal, are the node run’s own', () => {
		const ctx = ctxOf(undefined);
		expect(new ExecutionPlaces(ctx, 1).take(0)).toBe(true);
		expect(new ExecutionPlaces(ctx, 1).take(0)).toBe(false);
		expect(new ExecutionPlaces(ctxOf(undefined), 1).take(0)).toBe(true);
	});
});
