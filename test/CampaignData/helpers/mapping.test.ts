/**
 * Unit tests of the pure rules behind the data nodes (nodes/CampaignData/helpers/mapping.ts):
 * value conversion, member ids, key lists. The next-page marker is in paging.test.ts, the
 * reading of write answers in results.test.ts.
 */
import { DateTime } from 'luxon';
import {
	DateFormatter,
	isoDateTimeToDay,
	splitList,
	toWireValue,
} from '../../../nodes/CampaignData/helpers/mapping';
import { readMemberId } from '../../../nodes/shared/values';

const seoul = new DateFormatter('Asia/Seoul');
const utc = new DateFormatter('UTC');

describe('toWireValue', () => {
	it.each([
		[12, 12],
		[-3.5, -3.5],
		['42', 42],
		['-3.5', -3.5],
		['007', '007'],
		['1.50', '1.50'],
		['1e3', '1e3'],
		['12345678901234567890', '12345678901234567890'],
		[' 42', ' 42'],
		['', ''],
		['Infinity', 'Infinity'],
		[true, 'true'],
		[false, 'false'],
		['2024-02-29', '2024-02-29'],
		['2024-02-30', '2024-02-30'],
		['2024-03-05T23:30:00Z', '2024-03-06'],
		['2024-03-05T23:30:00.123456Z', '2024-03-06'],
		['2024-03-05T14:59:59Z', '2024-03-05'],
		['2024-03-05T15:00:00Z', '2024-03-06'],
		['2024-03-05T08:00:00+09:00', '2024-03-05'],
		['2024-03-05T08:00:00+0900', '2024-03-05'],
		['2024-03-05T20:00:00-05:00', '2024-03-06'],
		['2024-03-05T23:30', '2024-03-05'],
		['2024-13-05T23:30:00Z', '2024-13-05T23:30:00Z'],
		['not 2024-03-05T23:30:00Z', 'not 2024-03-05T23:30:00Z'],
		['hello', 'hello'],
	])('%p -> %p (Asia/Seoul)', (input, expected) => {
		expect(toWireValue(input, seoul)).toEqual({ ok: true, value: expected });
	});

	it('turns JS dates, Luxon DateTimes and their text into the day in the zone', () => {
		expect(toWireValue(new Date('2024-03-05T23:30:00Z'), seoul)).toEqual({
			ok: true,
			value: '2024-03-06',
		});
		expect(toWireValue(new Date('2024-03-05T23:30:00Z'), utc)).toEqual({
			ok: true,
			value: '2024-03-05',
		});
		const dt = DateTime.fromISO('2024-03-05T23:30:00Z');
		expect(toWireValue(dt, seoul)).toEqual({ ok: true, value: '2024-03-06' });
		expect(toWireValue(dt.toString(), seoul)).toEqual({ ok: true, value: '2024-03-06' });
		expect(toWireValue(new Date('0099-01-02T00:00:00Z'), utc)).toEqual({
			ok: true,
			value: '0099-01-02',
		});
	});

	it.each([
		[null, /is null/],
		[undefined, /undefined/],
		[{ a: 1 }, /an object/],
		[[1], /an array/],
		[NaN, /not a finite number/],
		[Infinity, /not a finite number/],
		[new Date('nope'), /not a valid date/],
		[DateTime.fromISO('nope'), /not a valid date/],
	])('rejects %p', (input, reason) => {
		const result = toWireValue(input, seoul);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});

	it('handles 24:00 and invalid times', () => {
		expect(isoDateTimeToDay('2024-03-05T24:00:00Z', utc)).toBe('2024-03-06');
		expect(isoDateTimeToDay('2024-03-05T24:01:00Z', utc)).toBeUndefined();
		expect(isoDateTimeToDay('2024-03-05T23:60:00Z', utc)).toBeUndefined();
	});
});

describe('readMemberId', () => {
	it.each([
		['abc', 'abc'],
		[' padded ', 'padded'],
		[' in side ', 'in side'],
		[12345, '12345'],
		['김철수&x=1#y', '김철수&x=1#y'],
	])('accepts %p', (input, id) => expect(readMemberId(input)).toEqual({ ok: true, value: id }));

	it.each([
		['', /is empty/],
		['   ', /is empty/],
		[null, /missing/],
		[undefined, /missing/],
		[true, /text or a number \(got a boolean\)/],
		[{}, /got an object/],
		[[1], /got an array/],
		[NaN, /not a valid member ID \(NaN\)/],
		[Infinity, /not a valid member ID \(Infinity\)/],
		['a\tb', /control characters/],
	])('rejects %p', (input, reason) => {
		const result = readMemberId(input);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});
});

describe('splitList', () => {
	it('trims, drops blanks, dedupes', () => {
		expect(splitList(' a, b ,,a , ')).toEqual(['a', 'b']);
		expect(splitList(['x', ' y ', '', 'x', 3])).toEqual(['x', 'y', '3']);
		expect(splitList(undefined)).toEqual([]);
		expect(splitList('')).toEqual([]);
	});
});
