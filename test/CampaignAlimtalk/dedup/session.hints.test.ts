/**
 * The execution hint of a send with a Deduplication Key (nodes/shared/hints.ts): messages skipped
 * as duplicates are counted, as information when nothing failed.
 */
import { NODE_NAME } from '../../support/engine';
import { KEYED, dedupFixture, order, sendsOf } from './support';

const fx = dedupFixture();
const { send } = sendsOf(fx, KEYED);

describe('Alimtalk send with a Deduplication Key: execution hints', () => {
	it('counts the duplicates skipped, as information; no hint on the first, clean run', async () => {
		const first = await send([order(1), order(2)]);
		expect(first.hints(NODE_NAME)).toEqual([]);
		const again = await send([order(1), order(3), order(2), order(3)]);
		expect(fx.sb.state.sent).toHaveLength(3);
		expect(again.hints(NODE_NAME)).toEqual([
			{ message: '1 sent, 3 skipped as duplicates.', type: 'info', location: 'outputPane' },
		]);
	});

	it('counts duplicates and failures together, as a warning', async () => {
		const { hints } = await send([order(1), order(1), order(2, { phone: '0101234' })]);
		expect(hints(NODE_NAME)).toEqual([
			{
				message: expect.stringMatching(
					/^1 sent, 1 skipped as duplicates, 1 failed \(1 with code 7012\)\. See the Failed output\.<br>Code 7012, /,
				),
				type: 'warning',
				location: 'outputPane',
			},
		]);
	});
});
