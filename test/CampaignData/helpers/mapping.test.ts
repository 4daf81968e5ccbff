/**
 * Unit tests of the pure rules behind the data nodes: value conversion, member ids, key lists,
 * the next-page marker, and the tolerant reading of write answers.
 */
import { DateTime } from 'luxon';
import { readFailureRows } from '../../../nodes/shared/answers';
import { readCount } from '../../../nodes/CampaignData/helpers/results';
import {
	DateFormatter,
	isoDateTimeToDay,
	splitList,
	toWireValue,
} from '../../../nodes/CampaignData/helpers/mapping';
import { readMemberId } from '../../../nodes/shared/values';
import { readNextPageSeq } from '../../../nodes/CampaignData/read/paging';

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

describe('readNextPageSeq', () => {
	it.each([
		[null, undefined],
		[undefined, undefined],
		['', undefined],
		['  ', undefined],
		[0, '0'],
		[17, '17'],
		['17', '17'],
		[' abc ', 'abc'],
	])('%p -> %p', (input, expected) => expect(readNextPageSeq(input)).toEqual(expected));

	it('flags markers that cannot be used', () => {
		expect(readNextPageSeq({ a: 1 })).toEqual({ invalid: '{"a":1}' });
		expect(readNextPageSeq(NaN)).toEqual({ invalid: 'NaN' });
	});
});

describe('write answers', () => {
	const row = { memberId: 'a', failKey: 'k', failValue: 'v', failCode: 'F01' };
	const expected = [{ memberId: 'a', key: 'k', value: 'v', code: 'F01', message: undefined }];

	it('reads failure rows bare or wrapped', () => {
		expect(readFailureRows([row])).toEqual(expected);
		expect(readFailureRows({ failList: [row] })).toEqual(expected);
		expect(readFailureRows({ whatever: [row] })).toEqual(expected);
		expect(readFailureRows({ memberId: 'a', failureCode: 'F02', key: 'k' })).toBeUndefined();
		expect(readFailureRows(null)).toBeUndefined();
		expect(readFailureRows(3)).toBeUndefined();
	});

	it('reads counts as numbers, numeric text or a count field', () => {
		expect(readCount(3)).toBe(3);
		expect(readCount('3')).toBe(3);
		expect(readCount({ count: 4 })).toBe(4);
		expect(readCount(null)).toBeUndefined();
		expect(readCount(-1)).toBeUndefined();
		expect(readCount([])).toBeUndefined();
	});
});
