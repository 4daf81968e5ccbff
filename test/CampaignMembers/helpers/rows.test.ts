/**
 * Member rows (nodes/CampaignMembers/helpers/rows.ts), on their own: the consent forms, the
 * checks of a save row with each version's code for each rule, and the one record shape.
 */
import { MEMBER_APIS } from '../../../nodes/CampaignMembers/helpers/api-versions';
import {
	checkSaveRow,
	memberRecord,
	parseConsent,
} from '../../../nodes/CampaignMembers/helpers/rows';

describe('parseConsent', () => {
	it.each([
		[true, true],
		[false, false],
		['true', true],
		['False', false],
		[' TRUE ', true],
		['Y', true],
		['y', true],
		['N', false],
		['n', false],
		[1, true],
		[0, false],
		['1', true],
		['0', false],
	])('%p means %p', (given, expected) => {
		expect(parseConsent(given)).toEqual({ value: expected, given: true });
	});

	it.each([undefined, null, '', '  '])('%p is absent: refused', (given) => {
		expect(parseConsent(given)).toEqual({ value: false, given: false });
	});

	it.each(['yes', 'no', 'maybe', 2, -1, {}, [], 'T'])('%p is not a consent value', (given) => {
		expect(parseConsent(given)).toBeUndefined();
	});
});

describe('checkSaveRow', () => {
	it('counts name length in characters, not bytes or UTF-16 units', () => {
		const row = (name: string) =>
			checkSaveRow(
				{ memberId: 'm', phoneNumber: '01012345678', isReceive: true, name },
				MEMBER_APIS.v2,
				true,
			);
		expect(row('가'.repeat(20))).toHaveProperty('row');
		expect(row('😀'.repeat(20))).toHaveProperty('row'); // 40 UTF-16 units
		expect(row('가'.repeat(21))).toMatchObject({ failure: { code: 'F03' } });
	});

	it('uses the code of each version for the same rule', () => {
		const bad = { memberId: '', phoneNumber: '123', isReceive: 'x', name: 'n' };
		expect(checkSaveRow(bad, MEMBER_APIS.v2, true)).toMatchObject({ failure: { code: 'F00' } });
		expect(checkSaveRow(bad, MEMBER_APIS.v1, true)).toMatchObject({ failure: { code: '-1006' } });
		const consent = { memberId: 'm', phoneNumber: '010-1234-5678', isReceive: 'x', name: '' };
		expect(checkSaveRow(consent, MEMBER_APIS.v2, true)).toMatchObject({
			failure: { code: '-9997' },
		});
		expect(checkSaveRow(consent, MEMBER_APIS.v1, true)).toMatchObject({
			failure: { code: '-1012' },
		});
	});

	it('takes a numeric member id as text', () => {
		expect(
			checkSaveRow(
				{ memberId: 42, phoneNumber: '010-1234-5678', isReceive: undefined, name: undefined },
				MEMBER_APIS.v1,
				true,
			),
		).toEqual({
			row: { memberId: '42', phoneNumber: '010-1234-5678', isReceive: false },
		});
	});
});

describe('a member name that is not text', () => {
	it.each([true, { first: 'Kim' }, ['Kim']])(
		'%p is refused for what it is, not as too long',
		(name) => {
			for (const version of ['v1', 'v2'] as const) {
				const checked = checkSaveRow(
					{ memberId: 'kim', phoneNumber: '010-1234-5678', isReceive: true, name },
					MEMBER_APIS[version],
					true,
				);
				expect('failure' in checked).toBe(true);
				if (!('failure' in checked)) return;
				expect(checked.failure.code).toBe(MEMBER_APIS[version].codes.nameTooLong);
				expect(checked.failure.message).not.toMatch(/longer than/);
				expect(checked.failure.message).toMatch(/name must be text/i);
			}
		},
	);
});

describe('memberRecord', () => {
	it('gives one record shape for both versions', () => {
		expect(memberRecord({ memberId: 'a', phoneNumber: '010-1', isReceive: 'true' }, 'v2')).toEqual({
			memberId: 'a',
			phoneNumber: '010-1',
			isReceive: true,
			name: null,
			apiVersion: 'v2',
		});
		expect(
			memberRecord({ memberId: 'a', phoneNumber: '010-1', isReceive: false, name: 'N' }, 'v1'),
		).toEqual({
			memberId: 'a',
			phoneNumber: '010-1',
			isReceive: false,
			name: 'N',
			apiVersion: 'v1',
		});
	});
});
