/**
 * The Campaign Key read as sent (docs/deduplication.md, "The Send Limit" and
 * the rule named there): with a Deduplication Key, a Campaign Key the node would trim is refused
 * (7011, naming the field and the rule), so a key built from it names the one campaign key sent.
 * Without a Deduplication Key it is trimmed and sent, as before.
 */
import type { IDataObject } from 'n8n-workflow';
import { installStore } from '../support/dedup-store';
import { runAsTool } from '../support/tools';
import { useSendFixture } from './support';

const { sb, send } = useSendFixture();

const CAMPAIGN = "$fromAI('campaignKey', 'Key of the campaign', 'string')";
/** A send whose campaign key the model picks, with a key of campaign and day. */
const PICKED = {
	operation: 'send',
	campaignKey: `={{ ${CAMPAIGN} }}`,
	phoneNumber: '821012345678',
	variablesInput: 'json',
	propertiesJson: '={"name":"Kim"}',
	options: {
		deduplicationKey: `=notice-{{ ${CAMPAIGN} }}-{{ $now.toFormat('yyyy-MM-dd') }}`,
	},
};

beforeEach(async () => {
	(await installStore()).reset();
	sb.addCampaign('campaign-ok');
});

describe('a campaign key the model picks', () => {
	it('"campaign-ok", " campaign-ok" and "campaign-ok" + U+3000, key of campaign and day: one message, the padded ones refused (7011) naming the rule', async () => {
		const spellings = ['campaign-ok', ' campaign-ok', 'campaign-ok\u3000', 'campaign-ok\t'];
		const { answers } = await runAsTool({
			type: 'campaignAlimtalk',
			parameters: PICKED,
			credentials: { baseUrl: sb.baseUrl, apiKey: sb.apiKey },
			calls: [...spellings, 'campaign-ok'].map((campaignKey) => ({ campaignKey })),
		});
		expect(sb.state.sent.map((m) => m.campaignKey)).toEqual(['campaign-ok']);
		const [first, ...rest] = (answers as IDataObject[][]).map(([answer]) => answer);
		expect([first.outcome, rest.pop()?.outcome]).toEqual(['sent', 'duplicate']);
		expect(rest).toEqual(
			spellings.slice(1).map(() =>
				expect.objectContaining({
					outcome: 'refused',
					code: '7011',
					message: expect.stringMatching(/^Campaign Key .*space.*Deduplication Key/),
				}),
			),
		);
	});
});

describe('outside tool mode', () => {
	it('with a Deduplication Key, a padded campaign key is refused (7011), not trimmed and sent', async () => {
		const { out } = await send([{ campaign: ' WELCOME ', phone: '821012345678', name: 'Kim' }], {
			options: { deduplicationKey: '=k-{{ $json.campaign }}' },
		});
		expect(out[1].map((item) => [item.json.code, item.json.campaignKey])).toEqual([
			['7011', ' WELCOME '],
		]);
		expect(sb.state.sent).toEqual([]);
	});

	it('without a Deduplication Key, a padded campaign key is trimmed and sent, as before', async () => {
		const { out } = await send([{ campaign: ' WELCOME ', phone: '821012345678', name: 'Kim' }]);
		expect(out[0].map((item) => item.json.campaignKey)).toEqual(['WELCOME']);
		expect(sb.state.sent.map((m) => m.campaignKey)).toEqual(['WELCOME']);
	});
});
