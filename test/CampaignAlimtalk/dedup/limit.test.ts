/**
 * The send limit's parts (dedup/limit.ts): the period in the workflow's time zone, the slot
 * entries, the allocation of a round's free slots, and the places of an execution.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import {
	ExecutionPlaces,
	limitedFailure,
	periodOf,
	roomFor,
} from '../../../nodes/CampaignAlimtalk/limit/limit';
import { Places, slotName } from '../../../nodes/CampaignAlimtalk/limit/places';

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

	const start = at('2026-05-10T13:00:00Z');
	const slot = (n: number, from = start) => slotName('hour', from, n);

	it('names one slot per place, by period and start (as earlier versions did)', () => {
		expect(slot(2)).toBe(`limit:hour:${start}:2`);
	});

	it('asks about slot 1 and a few more than the sends need, not the whole period', () => {
		const big = { ...limit, limit: 1000 };
		const places = new Places([big, undefined, big], now, () => 0.5);
		const asked = places.probe([0, 2]);
		expect(asked[0]).toBe(slot(1));
		expect(asked).toHaveLength(2 + 3);
		expect(new Set(asked).size).toBe(asked.length);
		expect(places.resetsAt(0)).toBe('2026-05-10T14:00:00.000Z');
		expect(places.resetsAt(1)).toBeUndefined();
	});

	it('gives the free slots, lowest first and within each ask’s limit; the rest are limited', () => {
		const places = new Places([limit, { ...limit, limit: 1 }, limit, limit], now);
		const asked = places.probe([0, 1, 2, 3], true);
		expect(asked.sort()).toEqual([slot(1), slot(2), slot(3)]);
		const used = new Set([slot(2)]); // one place taken by an earlier round
		places.note(asked, (v) => !used.has(v));
		expect(places.give([1, 0, 2, 3])).toEqual([2, 3]);
		expect(places.slots).toEqual([slot(3), slot(1), undefined, undefined]);
		expect(places.takeBack()).toEqual([1, 2, 3].map((n) => slot(n, at('2026-05-10T11:00:00Z')))); // the period is new (slot 1 was free): the period two before goes
	});

	it('asks of different limits in one period share one pool: a slot is given once', () => {
		const places = new Places([limit, { ...limit, limit: 5 }], now);
		const asked = places.probe([0, 1], true);
		expect(asked).toHaveLength(5);
		places.note(asked, () => true);
		expect(places.give([0, 1])).toEqual([]);
		expect(places.slots).toEqual([slot(1), slot(2)]);
		expect(places.takeBack().slice(0, 3)).toEqual([slot(3), slot(4), slot(5)]);
	});

	it('when the first slots asked were all taken, asks about every slot left', () => {
		const places = new Places([{ ...limit, limit: 100 }], now, () => 0);
		const first = places.probe([0]);
		places.note(first, () => false);
		expect(places.give([0])).toEqual([0]);
		const second = places.probe([0]);
		expect(second).toHaveLength(100 - first.length);
	});

	it('a probe takes no place: it learns whether one is left, and the free slot goes back', () => {
		const places = new Places([{ ...limit, probe: true }, limit], now);
		const asked = places.probe([0, 1], true);
		places.note(asked, (v) => v !== slot(1) && v !== slot(2));
		expect(places.give([0, 1])).toEqual([]);
		expect(places.slots).toEqual([undefined, slot(3)]);
		const full = new Places([{ ...limit, probe: true }], now);
		full.note(full.probe([0], true), () => false);
		expect(full.give([0])).toEqual([0]);
	});

	it('the places of refused member lookups are values of their own: they never take a message place', () => {
		const places = new Places([limit, { ...limit, lookups: true }], now);
		const asked = places.probe([0, 1], true);
		expect(asked.sort()).toEqual([
			...[1, 2, 3].map((n) => slot(n)),
			...[1, 2, 3].map((n) => slotName('hour', start, n, 'lookup')),
		]);
		places.note(asked, (v) => v.startsWith('lookup:'));
		expect(places.give([0, 1])).toEqual([0]);
		expect(places.slots).toEqual([undefined, `lookup:hour:${start}:1`]);
	});

	it('keeps eleven entries of room per place of a limit per hour or day (ten per message, one per refused lookup), none per execution', () => {
		expect(roomFor(limit)).toBe(33);
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
