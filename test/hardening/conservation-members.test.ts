/**
 * Conservation, generated: Campaign Members upsert (v1, v2) and delete (v1, v2) with random
 * rows. Every input item is on exactly one output item, Failed items carry the service's code
 * for the rule and the row's identity, nothing crashes, and the sandbox state equals the model.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { batchSize } from './arbitraries';
import { MEMBER_IDS, PHONES, initialMembers, memberItem } from './arbitraries-members';
import {
	SEED,
	checkWriteOutputs,
	countSandbox,
	credentials,
	membersDelete,
	outcomesOf,
	plainMap,
	prepareMembers,
	run,
	tally,
	useHardeningSandbox,
} from './support';
import { expectedUpsert, memberIdText, memberPhone } from './models-members';

const sb = useHardeningSandbox('conservation-members');

describe.each(['v1', 'v2'] as const)('members %s', (version) => {
	it('upsert with generated rows: each item once, the code of the broken rule, state as the model says', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(memberItem, { minLength: 1, maxLength: 25 }),
				batchSize,
				fc.boolean(),
				fc.constantFrom('autoMapInputData', 'defineBelow'),
				initialMembers,
				fc.option(
					fc.tuple(fc.constantFrom('m1', 'm2', '김'), fc.constantFrom(-1006, -1007, -1012, -1013)),
					{ freq: 3, nil: undefined },
				),
				async (generated, size, normalize, mode, initial, hiddenRule) => {
					tally.generatedCases++;
					const before = prepareMembers(sb, initial);
					const hidden = new Map<string, number>(
						version === 'v1' && hiddenRule ? [hiddenRule] : [],
					);
					for (const [id, code] of hidden) sb.state.v1RejectMemberIds.set(id, code);
					const input = JSON.parse(JSON.stringify(generated.map((g) => g.json))) as IDataObject[];
					const parameters: IDataObject = {
						apiVersion: version,
						operation: 'upsert',
						mappingMode: mode,
						options: { batchSize: size, normalizePhoneNumbers: normalize },
					};
					if (mode === 'defineBelow') {
						Object.assign(parameters, {
							memberId: '={{ $json.memberId }}',
							phoneNumber: '={{ $json.phoneNumber }}',
							isReceive: '={{ $json.isReceive }}',
							name: '={{ $json.name }}',
						});
					}
					const result = await run(
						{ type: 'campaignMembers', parameters, input, credentials: credentials(sb) },
						`members ${version} upsert`,
					);
					countSandbox(`members ${version}`, sb.requests);
					if (result.error) throw new Error(`the node stopped: ${result.error.message}`);
					checkWriteOutputs(result.out, input.length, {
						failedFields: ['memberId', 'phoneNumber'],
						eachIndexOnce: true,
					});
					const model = expectedUpsert(
						version,
						generated,
						normalize,
						size,
						hidden,
						before.v1,
						before.v2,
					);
					expect(outcomesOf(result.out, input.length)).toEqual(model.outcomes);
					if (version === 'v1') expect(plainMap(sb.state.membersV1)).toEqual(plainMap(model.v1));
					else expect(plainMap(sb.state.membersV2)).toEqual(plainMap(model.v2));
					for (const request of sb.requests)
						expect((request.body as unknown[]).length).toBeLessThanOrEqual(size);
				},
			),
			{ seed: SEED + 10, numRuns: 45 },
		);
	});

	it('delete with generated keys: each item once, state as the model says', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(
					fc.record({
						memberId: fc.constantFrom(...MEMBER_IDS),
						phone: fc.nat({ max: PHONES.length - 1 }),
					}),
					{ minLength: 1, maxLength: 25 },
				),
				batchSize,
				fc.boolean(),
				fc.boolean(),
				initialMembers,
				async (generated, size, normalize, allInformation, initial) => {
					tally.generatedCases++;
					const before = prepareMembers(sb, initial);
					const input = JSON.parse(
						JSON.stringify(
							generated.map((g) => ({ memberId: g.memberId, phoneNumber: PHONES[g.phone].given })),
						),
					) as IDataObject[];
					const result = await run(
						{
							type: 'campaignMembers',
							parameters: membersDelete(version, size, normalize, allInformation),
							input,
							credentials: credentials(sb),
						},
						`members ${version} delete`,
					);
					countSandbox(`members ${version}`, sb.requests);
					if (result.error) throw new Error(`the node stopped: ${result.error.message}`);
					checkWriteOutputs(result.out, input.length, {
						failedFields: [version === 'v1' ? 'memberId' : 'phoneNumber'],
						eachIndexOnce: true,
					});
					const expected = version === 'v1' ? new Map(before.v1) : new Map(before.v2);
					const outcomes = generated.map((g) => {
						const key =
							version === 'v1'
								? memberIdText(g.memberId)
								: memberPhone(PHONES[g.phone], 'v2', normalize);
						if (key === undefined) return version === 'v1' ? '-1006' : 'F02';
						expected.delete(version === 'v1' ? key : key.replace(/-/g, ''));
						return 'ok';
					});
					expect(outcomesOf(result.out, input.length)).toEqual(outcomes);
					const state = version === 'v1' ? sb.state.membersV1 : sb.state.membersV2;
					expect(plainMap(state as Map<string, unknown>)).toEqual(
						plainMap(expected as Map<string, unknown>),
					);
				},
			),
			{ seed: SEED + 11, numRuns: 40 },
		);
	});
});
