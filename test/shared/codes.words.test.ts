/**
 * The one way a code's words and the service's own message are put together (serviceWords,
 * nodes/shared/codes.ts), in the three styles its callers keep.
 */
import { describeCode, describeRowCode, serviceWords } from '../../nodes/shared/codes';
import { resultWords } from '../../nodes/shared/transport';
import { ROW_CODES, ruleWords } from '../../nodes/CampaignMembers/helpers/advice';

describe('serviceWords', () => {
	it('adds the trimmed message in brackets, and nothing for no text, blank text or the same words', () => {
		expect(serviceWords('Refused', '  busy  ')).toBe('Refused (busy)');
		for (const none of [undefined, null, 7, '', '   ', 'Refused'])
			expect(serviceWords('Refused', none)).toBe('Refused');
	});

	it('keeps the message as given, or repeats the same words, when the style says so', () => {
		const asGiven = { trim: false, keepSame: false };
		expect(serviceWords('Refused', ' busy ', asGiven)).toBe('Refused ( busy )');
		expect(serviceWords('Refused', 'Refused', { trim: true, keepSame: true })).toBe(
			'Refused (Refused)',
		);
	});

	it('is what the transport, the row codes and the member rules say', () => {
		const info = describeCode('-1009');
		expect(resultWords({ info, serviceMessage: 'later' })).toBe(`${info.message} (later)`);
		expect(resultWords({ info, serviceMessage: info.message })).toBe(info.message);
		expect(describeRowCode(ROW_CODES, 'F02', ' bad ')).toBe(
			'The phone number format does not match (expected e.g. 010-1234-5678) (bad)',
		);
		expect(ruleWords('-1006', ' no id ')).toBe(`${describeCode('-1006').message} (no id)`);
	});
});
