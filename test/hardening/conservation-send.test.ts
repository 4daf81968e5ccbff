/**
 * Conservation, generated: Campaign Alimtalk send with random recipients, campaign keys and
 * template variables given by expressions. Every item is on exactly one output, with the code of
 * the rule it broke, and the messages the sandbox recorded are exactly the model's: each sent
 * once, none missing, none extra.
 */
import fc from 'fast-check';
import { sendItem } from './arbitraries-sends';
import {
	API_KEY,
	CAMPAIGN_RULES,
	SEED,
	SEND_PARAMETERS,
	byRef,
	checkWriteOutputs,
	countSandbox,
	outcomesOf,
	prepareCampaigns,
	run,
	sendInputs,
	sendJson,
	tally,
	useHardeningSandbox,
} from './support';
import { expectedSends, type SendInput } from './models-sends';

const sb = useHardeningSandbox('conservation-send');

it('send with generated recipients and variables: each item once, each valid message sent exactly once', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(sendItem, { minLength: 1, maxLength: 20 }),
			fc.boolean(),
			fc.integer({ min: 1, max: 8 }),
			async (generated, convert, concurrency) => {
				tally.generatedCases++;
				prepareCampaigns(sb);
				const inputs = sendInputs(generated);
				const input = sendJson(inputs);
				const result = await run(
					{
						type: 'campaignAlimtalk',
						parameters: {
							...SEND_PARAMETERS,
							options: { convertPhoneNumbers: convert, concurrency },
						},
						input,
						credentials: { baseUrl: sb.baseUrl, apiKey: API_KEY },
					},
					'alimtalk send',
				);
				countSandbox('alimtalk', sb.requests);
				if (result.error) throw new Error(`the node stopped: ${result.error.message}`);
				checkWriteOutputs(result.out, input.length, {
					failedFields: ['campaignKey', 'phoneNumber'],
					eachIndexOnce: true,
				});
				const model = expectedSends(
					JSON.parse(JSON.stringify(inputs)) as SendInput[],
					convert,
					CAMPAIGN_RULES,
				);
				expect(outcomesOf(result.out, input.length)).toEqual(model.outcomes);
				const sent = sb.state.sent.map(({ campaignKey, phoneNumber, properties }) => ({
					campaignKey,
					phoneNumber,
					properties,
				}));
				expect(byRef(sent)).toEqual(byRef(JSON.parse(JSON.stringify(model.sent)) as typeof sent));
				expect(sb.maxInFlight).toBeLessThanOrEqual(concurrency);
			},
		),
		{ seed: SEED + 20, numRuns: 50 },
	);
});
