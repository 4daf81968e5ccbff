/** What to change for a code (nodes/shared/advice.ts): the operation's table first, then the code table. */
import { DELETE_LATER, whatToChange, type AdviceTable } from '../../nodes/shared/advice';
import { CODES } from '../../nodes/shared/codes';

const TABLE: AdviceTable = {
	F02: { problem: 'a key that is not registered', change: 'register the key first.' },
	'-1009': DELETE_LATER,
};

describe('whatToChange', () => {
	it("takes the operation's advice first, capitalised", () => {
		expect(whatToChange('F02', TABLE)).toBe('Register the key first.');
		expect(whatToChange('-1009', TABLE)).toBe(
			'Run it again for the Failed items after their retryAfter time (30 minutes on).',
		);
	});

	it("falls back to the code table's hint for a code the table does not name, or without a table", () => {
		expect(whatToChange('7012', TABLE)).toBe(CODES['7012'].hint);
		expect(whatToChange('-1000', undefined)).toBe(CODES['-1000'].hint);
		expect(CODES['-1000'].hint).toMatch(/^Check the API key/);
	});

	it('is empty for a code known nowhere, and for a code whose hint is empty', () => {
		expect(whatToChange('no-such-code', TABLE)).toBe('');
		expect(whatToChange('0', undefined)).toBe('');
	});
});
