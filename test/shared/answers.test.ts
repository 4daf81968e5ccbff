/** Reading the service's lists and failure rows tolerantly (nodes/shared/answers.ts). */
import { failureRowsIn, listIn, readFailureRows } from '../../nodes/shared/answers';
import { MAX_SERVICE_TEXT } from '../../nodes/shared/codes';

describe('listIn', () => {
	it('takes a bare list, a list in a known container field, or else the first array field', () => {
		const rows = [{ memberId: 'a' }];
		expect(listIn(rows)).toBe(rows);
		expect(listIn({ count: 1, failList: rows })).toBe(rows);
		expect(listIn({ data: [], failureList: rows })).toBe(rows);
		expect(listIn({ total: 1, whatever: rows })).toBe(rows);
	});

	it('is undefined when there is no list at all', () => {
		for (const value of [null, undefined, 'rows', 3, { count: 0 }])
			expect(listIn(value)).toBeUndefined();
	});
});

describe('failure rows', () => {
	it('reads every spelling of a row, custom data and members alike', () => {
		expect(
			failureRowsIn([
				{ memberId: 'a', failKey: 'grade', failValue: 'A', failCode: 'F02', failMessage: 'no key' },
				{ memberId: 7, phoneNumber: '821012345678', failureCode: 'F01', failureMessage: 'bad' },
				{ memberId: 'b', customDataKey: 'points', value: 0, code: 1010, message: 'locked' },
			]),
		).toEqual([
			{ memberId: 'a', key: 'grade', value: 'A', code: 'F02', message: 'no key' },
			{ memberId: '7', phoneNumber: '821012345678', code: 'F01', message: 'bad' },
			{ memberId: 'b', key: 'points', value: 0, code: '1010', message: 'locked' },
		]);
	});

	it('passes over entries that are not objects, and cuts a long message', () => {
		const rows = failureRowsIn(['x', null, { memberId: 'a', failMessage: 'm'.repeat(2000) }]);
		expect(rows).toHaveLength(1);
		expect(rows[0].message).toHaveLength(MAX_SERVICE_TEXT + 1);
		expect(rows[0].message?.endsWith('…')).toBe(true);
	});

	it('readFailureRows: the rows of a wrapped list, undefined without one', () => {
		expect(readFailureRows({ failList: [{ memberId: 'a', failCode: 'F02' }] })).toEqual([
			{ memberId: 'a', code: 'F02' },
		]);
		expect(readFailureRows({ message: 'ok' })).toBeUndefined();
	});
});
