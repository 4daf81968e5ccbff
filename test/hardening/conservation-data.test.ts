/**
 * Conservation, generated: Custom Data (v2) and Legacy Data (v1) create, update, delete and
 * deleteKeys with random items. Every input item reaches Success or Failed through pairedItem,
 * no row is on both outputs, nothing crashes, and the sandbox state after the write equals the
 * reference model's.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import {
	COMMON_IDS,
	DATA_KEYS,
	batchSize,
	dataItem,
	initialEntries,
	jsonValue,
	memberIdValue,
} from './arbitraries';
import {
	API_KEY,
	ITEM_PAIRS,
	SEED,
	checkNoRowOnBoth,
	checkWriteOutputs,
	countSandbox,
	dataRows,
	plainStore,
	prepareData,
	run,
	tally,
	useHardeningSandbox,
} from './support';
import { autoMapped, expectedDataDelete, expectedDataWrite } from './models';
import { DIALECTS, type NodeRun } from '../support';

const sb = useHardeningSandbox('conservation-data');

/** Member -> keys, as sorted pairs (for equality checks). */
const sortedKeys = (keys: Map<string, Set<string>>): Array<[string, string[]]> =>
	[...keys]
		.map(([id, set]): [string, string[]] => [id, [...set].sort()])
		.sort(([a], [b]) => (a < b ? -1 : 1));

/** Member -> sorted keys claimed stored by the Success items. */
function successKeys(items: INodeExecutionData[]): Array<[string, string[]]> {
	const claims = new Map<string, Set<string>>();
	for (const item of items) {
		const id = String(item.json.memberId);
		for (const key of item.json.keys as string[])
			claims.set(id, (claims.get(id) ?? new Set()).add(key));
	}
	return sortedKeys(claims);
}

const credentials = () => ({ baseUrl: sb.baseUrl, apiKey: API_KEY });

/** Runs a write with generated input, counts its requests and checks its two outputs (it must not stop). */
async function writeChecked(options: NodeRun, label: string, eachIndexOnce: boolean) {
	const result = await run(options, label);
	countSandbox(options.type, sb.requests);
	if (result.error) throw new Error(`the node stopped: ${result.error.message}`);
	checkWriteOutputs(result.out, options.input.length, {
		failedFields: ['memberId'],
		eachIndexOnce,
	});
	return result;
}

/** The keys parameter of deleteKeys as an item may give it: comma text with spaces, an array, or junk. */
const keysValue: fc.Arbitrary<unknown> = fc.oneof(
	{
		weight: 5,
		arbitrary: fc
			.array(fc.tuple(fc.constantFrom(...DATA_KEYS), fc.constantFrom('', ' ', '  ')), {
				maxLength: 4,
			})
			.map((ks) => ks.map(([k, pad]) => `${pad}${k}${pad}`).join(',')),
	},
	{ weight: 2, arbitrary: fc.array(fc.constantFrom(...DATA_KEYS), { maxLength: 3 }) },
	{ weight: 1, arbitrary: fc.constantFrom('', ' , ,', null, 7, { k: 'grade' }) },
);

describe.each(DIALECTS)('%s', (_name, d) => {
	it('create / update with generated items: nothing lost, no row on both outputs, state as the model says', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(dataItem, { minLength: 1, maxLength: 25 }),
				batchSize,
				fc.constantFrom('create', 'update'),
				fc.boolean(),
				initialEntries,
				async (generated, size, operation, skipNull, initial) => {
					tally.generatedCases++;
					const input = JSON.parse(JSON.stringify(generated)) as IDataObject[];
					const before = prepareData(sb, d.store, initial);
					const result = await writeChecked(
						{
							type: d.type,
							parameters: { operation, options: { batchSize: size, skipNullValues: skipNull } },
							input,
							credentials: credentials(),
						},
						`${d.type} ${operation}`,
						false,
					);
					checkNoRowOnBoth(result.out, dataRows);
					const model = expectedDataWrite(before, autoMapped(input), d.dialect);
					expect(plainStore(d.store(sb))).toEqual(plainStore(model.store));
					if (d.dialect === 'v2') {
						expect(successKeys(result.out[0])).toEqual(sortedKeys(model.storedNow));
					}
					for (const request of sb.requests)
						expect(Object.keys(request.body as object).length).toBeLessThanOrEqual(size);
				},
			),
			{ seed: SEED, numRuns: 45 },
		);
	});

	it('create / update with Define Below (member id, keys and values from expressions): same promises', async () => {
		const row = fc.record(
			{
				memberId: memberIdValue,
				k1: fc.constantFrom(...DATA_KEYS),
				v1: jsonValue,
				k2: fc.constantFrom(...DATA_KEYS),
				v2: jsonValue,
			},
			{ requiredKeys: ['k1', 'v1', 'k2', 'v2'] },
		);
		await fc.assert(
			fc.asyncProperty(
				fc.array(row, { minLength: 1, maxLength: 20 }),
				batchSize,
				fc.constantFrom('create', 'update'),
				initialEntries,
				async (generated, size, operation, initial) => {
					tally.generatedCases++;
					const input = JSON.parse(JSON.stringify(generated)) as Array<{
						memberId?: unknown;
						k1: string;
						v1: unknown;
						k2: string;
						v2: unknown;
					}>;
					const before = prepareData(sb, d.store, initial);
					const parameters = {
						operation,
						mappingMode: 'defineBelow',
						memberId: '={{ $json.memberId }}',
						entries: { entry: ITEM_PAIRS },
						options: { batchSize: size },
					};
					const result = await writeChecked(
						{ type: d.type, parameters, input: input as IDataObject[], credentials: credentials() },
						`${d.type} ${operation} (define below)`,
						false,
					);
					checkNoRowOnBoth(result.out, dataRows);
					const rows = input.map((i) => ({
						id: i.memberId,
						pairs: [
							[i.k1, i.v1],
							[i.k2, i.v2],
						] as Array<[string, unknown]>,
					}));
					expect(plainStore(d.store(sb))).toEqual(
						plainStore(expectedDataWrite(before, rows, d.dialect).store),
					);
				},
			),
			{ seed: SEED + 2, numRuns: 35 },
		);
	});

	it('delete / deleteKeys with generated ids and keys: nothing lost, refused batches carry retryAfter, state as the model says', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.record({ id: memberIdValue, keys: keysValue }), {
					minLength: 1,
					maxLength: 25,
				}),
				batchSize,
				fc.constantFrom('delete', 'deleteKeys'),
				initialEntries,
				fc.option(
					fc.tuple(fc.constantFrom(...COMMON_IDS), fc.constantFrom<-1009 | -1010>(-1009, -1010)),
					{ freq: 3, nil: undefined },
				),
				async (generated, size, operation, initial, lock) => {
					tally.generatedCases++;
					const input = JSON.parse(JSON.stringify(generated)) as Array<{
						id: unknown;
						keys?: unknown;
					}>;
					const before = prepareData(sb, d.store, initial);
					if (lock) sb.state.lockedMembers.set(lock[0], lock[1]);
					const result = await writeChecked(
						{
							type: d.type,
							parameters: {
								operation,
								memberId: '={{ $json.id }}',
								keys: '={{ $json.keys }}',
								options: { batchSize: size },
							},
							input: input as IDataObject[],
							credentials: credentials(),
						},
						`${d.type} ${operation}`,
						true,
					);
					const model = expectedDataDelete(
						before,
						input,
						operation === 'deleteKeys',
						size,
						new Set(lock ? [lock[0]] : []),
					);
					expect(plainStore(d.store(sb))).toEqual(plainStore(model.store));
					for (const item of result.out[1]) {
						if (!['-1009', '-1010'].includes(String(item.json.code))) continue;
						expect(model.refused.has(String(item.json.memberId))).toBe(true);
						const wait = Date.parse(String(item.json.retryAfter)) - Date.now();
						expect(wait).toBeGreaterThan(29 * 60000);
						expect(wait).toBeLessThanOrEqual(30 * 60000);
					}
					expect(
						result.out[0].map((i) => String(i.json.memberId)).filter((id) => model.refused.has(id)),
					).toEqual([]);
				},
			),
			{ seed: SEED + 1, numRuns: 40 },
		);
	});
});
