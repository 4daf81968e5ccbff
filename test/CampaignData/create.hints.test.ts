/**
 * The execution hint after a write of either data node (nodes/shared/hints.ts): counts by
 * outcome, the F01 / F02 / -1009 advice, and nothing when every row was written or deleted.
 */
import { CUSTOM, DIALECTS, LEGACY, useSandbox } from '../support';
import { registerWriteKeys, run } from './support';

const sb = useSandbox();
registerWriteKeys(sb);

const lines = (message: string) => message.split('<br>');
const F01 =
	'Code F01, key not registered: register the key in the service first, or leave the field out with Options → Fields to Ignore.';
const F02 =
	"Code F02, value not in the key's registered format: send it in that format (dates as YYYY-MM-DD); null, objects and arrays are never sent.";

describe('data writes: execution hints', () => {
	it('custom data: F01 and F02 rows are counted and each gets its line', async () => {
		const input = [
			{ memberId: 'a', grade: 'gold', points: 'not a number', unknownKey: 'x' },
			{ memberId: 'b', points: 5, joined: '2024-13-45' },
			{ memberId: 'c', unknownKey: 'only bad' },
			{ memberId: 'd', grade: 'fine' },
		];
		const { out, nodeHints } = await run(sb, CUSTOM, { operation: 'create' }, input);
		expect([out[0].length, out[1].length]).toEqual([3, 4]);
		expect(nodeHints).toHaveLength(1);
		expect(nodeHints[0]).toMatchObject({ type: 'warning', location: 'outputPane' });
		expect(lines(nodeHints[0].message)).toEqual([
			'3 written, 4 failed (2 with code F01, 2 with code F02). See the Failed output.',
			F01,
			F02,
		]);
	});

	it('legacy data: a value the node refuses before sending (F02) gets the same line', async () => {
		const input = [
			{ memberId: 'a', grade: 'gold' },
			{ memberId: 'b', grade: null },
		];
		const { out, nodeHints } = await run(sb, LEGACY, { operation: 'update' }, input);
		expect(out[1].map((i) => i.json.code)).toEqual(['F02']);
		expect(nodeHints.map((h) => lines(h.message))).toEqual([
			['1 written, 1 failed (1 with code F02). See the Failed output.', F02],
		]);
	});
});

describe.each(DIALECTS)('%s: execution hints', (_name, dialect) => {
	it('gives no hint when every row was written', async () => {
		const input = Array.from({ length: 30 }, (_, i) => ({ memberId: `m${i}`, grade: 'gold' }));
		const { out, nodeHints } = await run(sb, dialect, { operation: 'create' }, input);
		expect(out[1]).toEqual([]);
		expect(dialect.store(sb).size).toBe(30);
		expect(nodeHints).toEqual([]);
	});

	it('names -1009 and the retryAfter time after a refused delete', async () => {
		for (const id of ['m1', 'm2', 'm3']) dialect.store(sb).set(id, new Map([['grade', 'g']]));
		sb.state.lockedMembers.set('m3', -1009);
		const { out, nodeHints } = await run(
			sb,
			dialect,
			{ operation: 'delete', memberId: '={{$json.id}}', options: { batchSize: 2 } },
			['m1', 'm2', 'm3'].map((id) => ({ id })),
		);
		expect(out[1].map((i) => i.json.code)).toEqual(['-1009']);
		expect(nodeHints.map((h) => lines(h.message))).toEqual([
			[
				'2 deleted, 1 failed (1 with code -1009). See the Failed output.',
				'Code -1009, a delete the service refuses for now: run it again for the Failed items after their retryAfter time (30 minutes on).',
			],
		]);
	});
});
