/**
 * Defects found by a close read, each pinned by a test: a name that is not text, member ids
 * given as numbers that are not finite, and one member id rule (trimmed) for every node.
 */
import { DIALECTS } from '../../nodes/CampaignMembers/helpers/dialects';
import { checkSaveRow } from '../../nodes/CampaignMembers/helpers/rows';
import { useSandbox } from '../support';
import { json, runMembers } from './support';

const sb = useSandbox();

describe('a member name that is not text', () => {
	it.each([true, { first: 'Kim' }, ['Kim']])('%p is refused for what it is, not as too long', (name) => {
		for (const version of ['v1', 'v2'] as const) {
			const checked = checkSaveRow({ memberId: 'kim', phoneNumber: '010-1234-5678', isReceive: true, name }, DIALECTS[version], true);
			expect('failure' in checked).toBe(true);
			if (!('failure' in checked)) return;
			expect(checked.failure.code).toBe(DIALECTS[version].codes.nameTooLong);
			expect(checked.failure.message).not.toMatch(/longer than/);
			expect(checked.failure.message).toMatch(/name must be text/i);
		}
	});
});

describe('a member id that is a number but not a finite one', () => {
	// Number("abc") is NaN, Number("1e999") is Infinity: what an expression gives for text that is no number.
	it.each(['abc', '1e999', '-1e999'])('get refuses Number(%p) as an invalid member ID and sends nothing', async (id) => {
		for (const version of ['v1', 'v2'] as const) {
			sb.reset();
			const result = await runMembers(sb, {
				parameters: { apiVersion: version, operation: 'get', memberId: '={{ Number($json.id) }}' },
				input: [{ id }],
				onError: 'continueRegularOutput',
			});
			expect(sb.requests).toHaveLength(0);
			expect(json(result.out[0])).toEqual([expect.objectContaining({ error: expect.stringMatching(/Member ID is not a valid member ID/) })]);
		}
	});

	it.each(['abc', '1e999'])('v1 delete refuses Number(%p) on Failed with -1006 and sends nothing', async (id) => {
		const result = await runMembers(sb, {
			parameters: { apiVersion: 'v1', operation: 'delete', memberId: '={{ Number($json.id) }}' },
			input: [{ id }],
		});
		expect(sb.requests).toHaveLength(0);
		expect(result.out[0]).toHaveLength(0);
		expect(json(result.out[1])).toEqual([expect.objectContaining({ code: '-1006', message: expect.stringMatching(/not a valid member ID/) })]);
	});
});
