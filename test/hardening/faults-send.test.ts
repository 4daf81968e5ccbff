/**
 * Sends under faults injected by the sandbox (seeded): they never reach a recipient twice unless
 * the user allowed it, and a send answered with a server error after it went out is not repeated.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import type { FaultKind, LoggedRequest } from '../../sandbox/server';
import { sendItem } from './arbitraries-sends';
import {
	CAMPAIGN_RULES,
	SEED,
	SEND_PARAMETERS,
	checkWriteOutputs,
	countSandbox,
	credentials,
	outcomesOf,
	pairsOf,
	prepareCampaigns,
	run,
	sendInputs,
	sendJson,
	sendOne,
	tally,
	useHardeningSandbox,
} from './support';
import { expectedSends, type SendInput } from './models-sends';

const sb = useHardeningSandbox('faults-send');

/** The ref template variable of a logged send request. */
const refOf = (r: LoggedRequest) =>
	String(
		(r.body as { users?: Array<{ properties?: { ref?: unknown } }> })?.users?.[0]?.properties?.ref,
	);

/** Answers after which a send may have gone out (the node must not repeat it unless allowed). */
const AMBIGUOUS: FaultKind[] = [
	'http500html',
	'http503html',
	'code-9999',
	'drop',
	'code2000',
	'code7998',
	'code7999',
];

describe('sends under faults', () => {
	it('reach no recipient twice unless Retry When Delivery Is Unknown is on, and account for every item', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(sendItem, { minLength: 1, maxLength: 15 }),
				fc.record({
					seed: fc.integer({ min: 1, max: 2 ** 30 }),
					phase: fc.constantFrom<'before' | 'after'>('before', 'after'),
					retryUnknown: fc.boolean(),
					concurrency: fc.integer({ min: 1, max: 6 }),
					convert: fc.boolean(),
				}),
				async (generated, c) => {
					tally.generatedCases++;
					prepareCampaigns(sb);
					const inputs = sendInputs(generated);
					// -1005 says the request was not processed: it is only injected before the effect.
					const kinds: FaultKind[] = c.phase === 'before' ? [...AMBIGUOUS, 'code-1005'] : AMBIGUOUS;
					sb.configure({
						faults: {
							kinds,
							rate: 0.2,
							seed: c.seed,
							phase: c.phase,
							match: (r) => r.path === '/messages/alimtalk/trigger',
						},
					});
					const maxRetries = 4;
					const result = await run(
						{
							type: 'campaignAlimtalk',
							parameters: {
								...SEND_PARAMETERS,
								options: {
									convertPhoneNumbers: c.convert,
									concurrency: c.concurrency,
									maxRetries,
									retryUnknownDelivery: c.retryUnknown,
								},
							},
							input: sendJson(inputs),
							credentials: credentials(sb),
						},
						'alimtalk send (faults)',
					);
					const requests = [...sb.requests];
					countSandbox('alimtalk', requests);
					sb.configure({ faults: undefined });
					if (result.error) throw new Error(`the node stopped: ${result.error.message}`);
					checkWriteOutputs(result.out, inputs.length, {
						failedFields: ['campaignKey', 'phoneNumber'],
						eachIndexOnce: true,
					});
					const model = expectedSends(
						JSON.parse(JSON.stringify(inputs)) as SendInput[],
						c.convert,
						CAMPAIGN_RULES,
					);
					const outcomes = outcomesOf(result.out, inputs.length);
					const failed = new Map<number, IDataObject>();
					for (const item of result.out[1]) failed.set(pairsOf(item)[0], item.json);

					inputs.forEach((input, i) => {
						const deliveries = sb.state.sent.filter((s) => s.properties.ref === input.ref).length;
						const attempts = requests.filter((r) => refOf(r) === input.ref);
						expect(attempts.length).toBeLessThanOrEqual(maxRetries + 1);
						if (!c.retryUnknown) {
							if (deliveries > 1) tally.doubled++;
							expect(deliveries).toBeLessThanOrEqual(1);
							// After an answer that leaves the delivery open, the send is never repeated.
							const firstAmbiguous = attempts.findIndex(
								(r) => r.faulted !== undefined && AMBIGUOUS.includes(r.faulted),
							);
							if (firstAmbiguous >= 0) expect(attempts).toHaveLength(firstAmbiguous + 1);
						}
						if (outcomes[i] === 'ok') {
							expect(model.outcomes[i]).toBe('ok');
							expect(deliveries).toBeGreaterThanOrEqual(1);
							return;
						}
						const json = failed.get(i) as IDataObject;
						if (json.deliveryUnknown === true) {
							// The user is told to check before sending again: only true when an attempt of this
							// item got an answer that leaves its delivery open, and it went out at most once.
							expect(
								attempts.some((r) => r.faulted !== undefined && AMBIGUOUS.includes(r.faulted)),
							).toBe(true);
							expect(deliveries).toBeLessThanOrEqual(1);
							return;
						}
						// Not sent, and the node says so: either a rule refused it, or every attempt failed before the effect.
						expect(deliveries).toBe(0);
						if (attempts.every((r) => r.faulted === undefined))
							expect(outcomes[i]).toBe(model.outcomes[i]);
					});
					if (c.retryUnknown) {
						// With the option on, a sendable item ends sent unless every allowed attempt failed.
						model.outcomes.forEach((o, i) => {
							if (o === 'ok' && outcomes[i] !== 'ok')
								expect(requests.filter((r) => refOf(r) === inputs[i].ref)).toHaveLength(
									maxRetries + 1,
								);
						});
					}
				},
			),
			{ seed: SEED + 33, numRuns: 40 },
		);
	});
});

describe('a send answered with a server error after it went out', () => {
	it.each([
		['-9999', 'code-9999'],
		['-9998', 'code-9998'],
		['an HTML 500 page', 'http500html'],
		['a dropped connection', 'drop'],
		['7999', 'code7999'],
	] as Array<[string, FaultKind]>)(
		'%s: is not repeated, and the item says delivery is unknown',
		async (_label, kind) => {
			prepareCampaigns(sb);
			sb.configure({ faults: { kinds: [kind], firstN: 1, seed: 1, phase: 'after' } });
			const result = await sendOne(sb, { maxRetries: 3 }, `send (${kind} after)`);
			countSandbox('send', sb.requests);
			sb.configure({ faults: undefined });
			expect(sb.requests).toHaveLength(1);
			expect(sb.state.sent).toHaveLength(1);
			expect(result.out[0]).toHaveLength(0);
			expect(result.out[1][0].json).toMatchObject({
				deliveryUnknown: true,
				campaignKey: 'PLAIN',
				phoneNumber: '821012345678',
			});
			expect(String(result.out[1][0].json.message)).toMatch(
				/may or may not have been sent|without a result code|connection was closed/,
			);
		},
	);
});
