/**
 * The next-page marker of the paged reads (nodes/CampaignData/helpers/paging.ts), on its own; the
 * paging loop itself runs in test/CampaignData/getAll.paging.test.ts.
 */
import { readNextPageSeq } from '../../../nodes/CampaignData/helpers/paging';

describe('readNextPageSeq', () => {
	it.each([
		[null, undefined],
		[undefined, undefined],
		['', undefined],
		['  ', undefined],
		[0, '0'],
		[17, '17'],
		['17', '17'],
		[' abc ', 'abc'],
	])('%p -> %p', (input, expected) => expect(readNextPageSeq(input)).toEqual(expected));

	it('flags markers that cannot be used', () => {
		expect(readNextPageSeq({ a: 1 })).toEqual({ invalid: '{"a":1}' });
		expect(readNextPageSeq(NaN)).toEqual({ invalid: 'NaN' });
	});
});
