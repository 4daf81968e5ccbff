/** The outcome contract's own helpers (nodes/shared/outcome.ts): building, first index, input order, the
 * one "refused for now, retry in 30 minutes" rule. */
import {
	done,
	errored,
	failed,
	firstIndex,
	inInputOrder,
	retryLater,
	type Outcome,
} from '../../nodes/shared/outcome';
import { describeCode } from '../../nodes/shared/codes';

describe('outcomes', () => {
	it('done, failed and errored carry their fields and the input indexes they are about', () => {
		expect(done({ memberId: 'a' }, 2)).toEqual({ done: { memberId: 'a' }, inputs: 2 });
		expect(failed({ code: 'F02', message: 'no such key' }, [0, 3])).toEqual({
			failed: { code: 'F02', message: 'no such key' },
			inputs: [0, 3],
		});
		const error = new Error('refused');
		expect(errored(error, [1])).toEqual({ error, inputs: [1] });
	});

	it('firstIndex: the one index, the first of a merged row, 0 for a row of no inputs', () => {
		expect(firstIndex(done({}, 4))).toBe(4);
		expect(firstIndex(failed({ code: 'F02', message: '' }, [5, 1]))).toBe(5);
		expect(firstIndex(errored(new Error('x'), []))).toBe(0);
	});

	it('inInputOrder sorts by first index, keeps the order of outcomes of one item, and leaves its argument', () => {
		const outcomes: Outcome[] = [
			done({ n: 'c' }, 2),
			failed({ code: 'F02', message: 'first of item 0' }, [0, 2]),
			done({ n: 'a' }, 1),
			failed({ code: 'F03', message: 'second of item 0' }, 0),
			done({ n: 'b' }, [1]),
		];
		const before = [...outcomes];
		const ordered = inInputOrder(outcomes);
		expect(
			ordered.map((o) => ('done' in o ? o.done.n : 'failed' in o ? o.failed.code : '')),
		).toEqual(['F02', 'F03', 'a', 'b', 'c']);
		expect(outcomes).toEqual(before);
	});
});

describe('retryLater', () => {
	it('gives retryAfter 30 minutes on for a delete refused for now, nothing otherwise', () => {
		const now = new Date('2026-01-01T00:00:00.000Z');
		expect(retryLater({ info: describeCode('-1009') }, now)).toEqual({
			retryAfter: '2026-01-01T00:30:00.000Z',
		});
		expect(retryLater({ info: describeCode('1000') }, now)).toBeUndefined();
	});
});
