/**
 * The pieces of the members node that are pure functions: consent forms, failure-row reading and
 * matching, and the bound on the requests spent isolating refused rows.
 */
import fc from 'fast-check';
import { MAX_ISOLATION_REQUESTS, sendIsolating, type SendOutcome } from '../../nodes/CampaignMembers/helpers/isolate';
import { failureRowsOf, matchFailures, recordsOf } from '../../nodes/CampaignMembers/helpers/responses';
import { checkSaveRow, memberRecord, parseConsent } from '../../nodes/CampaignMembers/helpers/rows';
import { DIALECTS } from '../../nodes/CampaignMembers/helpers/dialects';

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
		const row = (name: string) => checkSaveRow({ memberId: 'm', phoneNumber: '01012345678', isReceive: true, name }, DIALECTS.v2, true);
		expect(row('가'.repeat(20))).toHaveProperty('row');
		expect(row('😀'.repeat(20))).toHaveProperty('row'); // 40 UTF-16 units
		expect(row('가'.repeat(21))).toMatchObject({ failure: { code: 'F03' } });
	});

	it('uses the code of each version for the same rule', () => {
		const bad = { memberId: '', phoneNumber: '123', isReceive: 'x', name: 'n' };
		expect(checkSaveRow(bad, DIALECTS.v2, true)).toMatchObject({ failure: { code: 'F00' } });
		expect(checkSaveRow(bad, DIALECTS.v1, true)).toMatchObject({ failure: { code: '-1006' } });
		const consent = { memberId: 'm', phoneNumber: '010-1234-5678', isReceive: 'x', name: '' };
		expect(checkSaveRow(consent, DIALECTS.v2, true)).toMatchObject({ failure: { code: '-9997' } });
		expect(checkSaveRow(consent, DIALECTS.v1, true)).toMatchObject({ failure: { code: '-1012' } });
	});

	it('takes a numeric member id as text', () => {
		expect(checkSaveRow({ memberId: 42, phoneNumber: '010-1234-5678', isReceive: undefined, name: undefined }, DIALECTS.v1, true)).toEqual({
			row: { memberId: '42', phoneNumber: '010-1234-5678', isReceive: false },
		});
	});
});

describe('reading answers', () => {
	it('finds failure rows in a bare array, a wrapper object, or nowhere', () => {
		const row = { memberId: 'a', phoneNumber: '010-1234-5678', failureCode: 'F11', failureMessage: 'dup' };
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

	it('gives one record shape for both versions', () => {
		expect(memberRecord({ memberId: 'a', phoneNumber: '010-1', isReceive: 'true' }, 'v2')).toEqual({
			memberId: 'a',
			phoneNumber: '010-1',
			isReceive: true,
			name: null,
			apiVersion: 'v2',
		});
		expect(memberRecord({ memberId: 'a', phoneNumber: '010-1', isReceive: false, name: 'N' }, 'v1')).toEqual({
			memberId: 'a',
			phoneNumber: '010-1',
			isReceive: false,
			name: 'N',
			apiVersion: 'v1',
		});
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

describe('sendIsolating', () => {
	/** A service that refuses a whole request when it holds any bad row. */
	const service = (bad: Set<number>) => {
		const requests: number[][] = [];
		const send = async (rows: number[]): Promise<SendOutcome<number>> => {
			requests.push(rows);
			return rows.some((r) => bad.has(r))
				? { kind: 'rowRefused', failure: { code: '-1007', message: 'refused' } }
				: { kind: 'applied', failures: new Map() };
		};
		return { send, requests };
	};

	it('stores every valid row, fails only the bad ones, within 2*ceil(log2 n) extra requests per bad row', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 1000 }).chain((n) =>
					fc.record({ n: fc.constant(n), bad: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 0, maxLength: 5 }) }),
				),
				async ({ n, bad }) => {
					const rows = Array.from({ length: n }, (_, i) => i);
					const { send } = service(new Set(bad));
					const report = await sendIsolating(rows, send);
					expect(report.failed.map((f) => f.row).sort((a, b) => a - b)).toEqual([...bad].sort((a, b) => a - b));
					expect(report.succeeded).toHaveLength(n - bad.length);
					expect(report.requests - 1).toBeLessThanOrEqual(2 * bad.length * Math.ceil(Math.log2(n)));
				},
			),
			{ numRuns: 200 },
		);
	});

	it('1,000 rows with one bad row cost exactly 20 extra requests, and the valid rows are sent in order', async () => {
		const { send, requests } = service(new Set([537]));
		const report = await sendIsolating(Array.from({ length: 1000 }, (_, i) => i), send);
		expect(report.requests).toBe(21);
		expect(requests).toHaveLength(21);
		const stored = requests.filter((r) => !r.includes(537)).flat();
		expect(stored).toEqual(Array.from({ length: 1000 }, (_, i) => i).filter((i) => i !== 537));
	});

	it('stops splitting when the service refuses everything, failing the rest together and saying so', async () => {
		const rows = Array.from({ length: 1000 }, (_, i) => i);
		const { send, requests } = service(new Set(rows));
		const report = await sendIsolating(rows, send);
		expect(requests.length - 1).toBeLessThanOrEqual(MAX_ISOLATION_REQUESTS);
		expect(report.failed).toHaveLength(1000);
		expect(report.failed.some((f) => /stopped splitting/.test(f.failure.message))).toBe(true);
	});

	it('fails every row without splitting when the refusal is not about a row', async () => {
		let calls = 0;
		const report = await sendIsolating([1, 2, 3], async () => {
			calls++;
			return { kind: 'allFailed', failure: { code: '-1009', message: 'later' } };
		});
		expect(calls).toBe(1);
		expect(report.failed.map((f) => f.row)).toEqual([1, 2, 3]);
	});
});
