/**
 * What the member endpoints answer (nodes/CampaignMembers/helpers/responses.ts), on its own:
 * failure rows and records in every shape, and matching failure rows back to the rows sent.
 */
import {
	failureRowsOf,
	matchFailures,
	recordsOf,
} from '../../../nodes/CampaignMembers/helpers/responses';

describe('reading answers', () => {
	it('finds failure rows in a bare array, a wrapper object, or nowhere', () => {
		const row = {
			memberId: 'a',
			phoneNumber: '010-1234-5678',
			failureCode: 'F11',
			failureMessage: 'dup',
		};
		const expected = [{ code: 'F11', message: 'dup', memberId: 'a', phoneNumber: '010-1234-5678' }];
		expect(failureRowsOf([row])).toEqual(expected);
		expect(failureRowsOf({ failList: [row] })).toEqual(expected);
		expect(failureRowsOf({ somethingElse: [row] })).toEqual(expected);
		expect(failureRowsOf(row)).toEqual(expected);
		for (const empty of [null, undefined, '', [], {}, 0]) expect(failureRowsOf(empty)).toEqual([]);
	});

	it('finds records in a bare array, a wrapper object or a single object', () => {
		const record = { memberId: 'a', phoneNumber: '010-1234-5678', isReceive: 'true' };
		expect(recordsOf([record])).toEqual([record]);
		expect(recordsOf({ list: [record] })).toEqual([record]);
		expect(recordsOf(record)).toEqual([record]);
		expect(recordsOf(null)).toEqual([]);
	});
});

describe('matchFailures', () => {
	const sent = [
		{ index: 0, memberId: 'a', phoneNumber: '010-1111-1111' },
		{ index: 1, memberId: 'b', phoneNumber: '010-1111-1111' },
		{ index: 2, memberId: 'a', phoneNumber: '010-1111-1111' },
		{ index: 3, memberId: 'c', phoneNumber: '010-2222-2222' },
	];

	it('never gives F11 to the first row with a phone number, and prefers the row with the same member id', () => {
		const { matched, unmatched } = matchFailures(
			[
				{ code: 'F11', memberId: 'a', phoneNumber: '010-1111-1111' },
				{ code: 'F11', memberId: 'b', phoneNumber: '010-1111-1111' },
			],
			sent,
		);
		expect(unmatched).toEqual([]);
		expect([...matched.keys()].map((r) => r.index).sort()).toEqual([1, 2]);
		expect(matched.get(sent[2])).toMatchObject({ code: 'F11', duplicateOfItem: 0 });
		expect(matched.get(sent[1])?.message).toContain('Input item 0 (member ID "a")');
	});

	it('matches by phone number in another form, then by member id', () => {
		const { matched } = matchFailures(
			[
				{ code: 'F02', phoneNumber: '01022222222' },
				{ code: 'F01', memberId: 'b' },
			],
			sent,
		);
		expect(matched.get(sent[3])).toMatchObject({ code: 'F02' });
		expect(matched.get(sent[1])).toMatchObject({ code: 'F01' });
	});

	it('claims each sent row once; extra failure rows are unmatched', () => {
		const { matched, unmatched } = matchFailures(
			[
				{ code: 'F02', phoneNumber: '010-2222-2222' },
				{ code: 'F02', phoneNumber: '010-2222-2222' },
			],
			sent,
		);
		expect(matched.size).toBe(1);
		expect(unmatched).toHaveLength(1);
	});
});
