/** The execution hints after a write (nodes/shared/hints.ts), on outcomes made up here. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { addWriteHints, writeHints } from '../../nodes/shared/hints';
import type { Outcome } from '../../nodes/shared/outcome';

const SEND = { done: { verb: 'sent' } };
const lines = (message: string) => message.split('<br>');

describe('execution hints', () => {
	it('never fails the node: a runner without addExecutionHints, or one that throws, gets none', () => {
		const outcomes: Outcome[] = [{ failed: { code: '7012', message: 'too short' }, inputs: 0 }];
		const ctx = (extra: object) =>
			({
				...extra,
			}) as unknown as IExecuteFunctions;
		expect(() => addWriteHints(ctx({}), SEND, outcomes)).not.toThrow();
		const throwing = jest.fn(() => {
			throw new Error('no hints here');
		});
		expect(() => addWriteHints(ctx({ addExecutionHints: throwing }), SEND, outcomes)).not.toThrow();
		expect(throwing).toHaveBeenCalledTimes(1);
	});

	it('does not echo a code that is not a plain word, and sums codes beyond the eighth', () => {
		const failed = [
			...Array.from({ length: 10 }, (_, i) => `70${10 + i}`),
			'<img src=x onerror=alert(1)>',
			'two words',
		].map((code): Outcome => ({ failed: { code, message: 'refused' }, inputs: 0 }));
		const [hint] = writeHints(SEND, failed);
		const [count] = lines(hint.message);
		expect(count).not.toContain('<img');
		expect(count).toContain('(2 with code unknown, 1 with code 7010,');
		expect(count).toContain('1 with code 7016, 3 with other codes)');
		expect(count.startsWith('0 sent, 12 failed (')).toBe(true);
	});
});
