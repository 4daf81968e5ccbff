/**
 * The one chunked write loop (nodes/shared/chunks.ts) on its own, and the words of a write that
 * stopped after some requests (stoppedWrite, itemRuns: nodes/shared/errors.ts).
 */
import type { INode } from 'n8n-workflow';
import { writeInChunks } from '../../nodes/shared/chunks';
import { itemRuns, stoppedWrite } from '../../nodes/shared/errors';
import type { Outcome } from '../../nodes/shared/outcome';
import { done, errored, failed } from '../../nodes/shared/outcome';

const node = { name: 'Campaign', type: 'test', typeVersion: 1, parameters: {} } as unknown as INode;

describe('writeInChunks', () => {
	it('sends no request for no rows', async () => {
		const send = jest.fn();
		expect(await writeInChunks({ rows: [], size: 2, inputsOf: (r) => [r], send })).toEqual([]);
		expect(send).not.toHaveBeenCalled();
	});

	it('keeps the outcomes of the requests before a whole-call failure; the rest carry the error once each', async () => {
		const sent: number[][] = [];
		const down = new Error('down');
		const outcomes = await writeInChunks({
			rows: [0, 1, 2, 3, 4, 5, 6],
			size: 2,
			// Row 6 came from items 6 and 0: item 0 is stored already, it is named once more.
			inputsOf: (row) => (row === 6 ? [6, 2] : [row]),
			send: async (rows) => {
				sent.push(rows);
				if (sent.length === 2) throw down;
				return rows.map((row) => done({ row }, row));
			},
		});
		expect(sent).toEqual([
			[0, 1],
			[2, 3],
		]);
		expect(outcomes).toEqual([
			done({ row: 0 }, 0),
			done({ row: 1 }, 1),
			errored(down, [2, 3, 4, 5, 6]),
		]);
	});

	it('stops after a chunk that gives an error itself (a request inside it failed), joining the later rows to it', async () => {
		const down = new Error('down');
		const outcomes = await writeInChunks({
			rows: [0, 1, 2, 3],
			size: 2,
			inputsOf: (row) => [row],
			send: async (rows) =>
				rows[0] === 0 ? [failed({ code: 'F01', message: 'no' }, 0), errored(down, [1])] : [],
		});
		expect(outcomes).toEqual([failed({ code: 'F01', message: 'no' }, 0), errored(down, [1, 2, 3])]);
	});
});

describe('the error of a write that stopped', () => {
	it('lists item indexes as runs, at most ten, then how many more', () => {
		expect(itemRuns([3])).toBe('item 3');
		expect(itemRuns([5, 0, 1, 2, 2, 1200, 1201])).toBe('items 0-2, 5, 1,200-1,201');
		expect(itemRuns(Array.from({ length: 12 }, (_, i) => i * 2))).toBe(
			'items 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, and 2 more runs',
		);
	});

	it('says what was stored, refused and not sent, before the original description', () => {
		const down = new Error('HTTP 500');
		const stop = { error: down, inputs: [3, 4] };
		const outcomes: Outcome[] = [done({}, [0, 2]), failed({ code: 'F01', message: 'no' }, 1), stop];
		const error = stoppedWrite(node, outcomes, stop, 'saved');
		expect(error.message).toBe('HTTP 500');
		expect(error.description).toBe(
			'Before this error 1 row saved (items 0, 2); 1 row refused (Failed) (item 1); 2 rows not saved (items 3-4): a re-run sends these, and the saved rows again unless you leave them out.',
		);
	});

	it('is the original error when nothing was stored', () => {
		const down = new Error('HTTP 500');
		const stop = { error: down, inputs: [0] };
		expect(stoppedWrite(node, [stop], stop, 'saved').message).toBe('HTTP 500');
		expect(stoppedWrite(node, [stop], stop, 'saved').description ?? '').not.toMatch(/Before/);
	});
});
