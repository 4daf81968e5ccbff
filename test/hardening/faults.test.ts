/**
 * Faults injected by the sandbox (seeded): every write operation with ~20% of requests failing
 * (HTML 500/503, -9999, -1005, dropped connections; before or after the request took effect)
 * ends in the same state, with the same outputs, as the fault-free run, and retries stay within
 * Max Retries. Reads with faults mid-paging lose and repeat no entry. Sends under faults are in
 * faults-send.test.ts, a hanging server in faults-hang.test.ts.
 */
import fc from 'fast-check';
import {
	MAX_RETRIES,
	SEED,
	WRITE_FAULTS,
	WRITE_OPS,
	type WriteOp,
	checkWriteOutputs,
	comparable,
	countSandbox,
	credentials,
	expectClearError,
	longestFaultRun,
	pairsOf,
	prepareData,
	run,
	runWrite,
	signature,
	tally,
	useHardeningSandbox,
} from './support';
import { DIALECTS } from '../support';

const sb = useHardeningSandbox('faults');

describe.each(WRITE_OPS.map((op): [string, WriteOp] => [op.name, op]))(
	'%s under faults',
	(_name, op) => {
		it('ends in the fault-free state with the fault-free outputs, retrying within Max Retries', async () => {
			await fc.assert(
				fc.asyncProperty(
					op.cases,
					fc.integer({ min: 1, max: 2 ** 30 }),
					fc.constantFrom<'before' | 'after'>('before', 'after'),
					async (c, seed, phase) => {
						tally.generatedCases++;
						c.setup(sb);
						const clean = await runWrite(
							sb,
							op,
							c,
							{ maxRetries: MAX_RETRIES },
							`${op.name} (no faults)`,
						);
						if (clean.error) throw new Error(`the fault-free run stopped: ${clean.error.message}`);
						const cleanState = op.state(sb);
						const cleanRequests = sb.requests.map(signature);

						c.setup(sb);
						sb.configure({ faults: { kinds: WRITE_FAULTS, rate: 0.2, seed, phase } });
						const faulted = await runWrite(
							sb,
							op,
							c,
							{ maxRetries: MAX_RETRIES },
							`${op.name} (faults ${phase})`,
						);
						const requests = [...sb.requests];
						sb.configure({ faults: undefined });
						if (faulted.error)
							throw new Error(`the run with faults stopped: ${faulted.error.message}`);
						checkWriteOutputs(faulted.out, c.input.length, {
							failedFields: op.failedFields,
							eachIndexOnce: op.eachIndexOnce,
						});
						expect(op.state(sb)).toEqual(cleanState);
						expect(comparable(faulted.out)).toEqual(comparable(clean.out));
						// Each answered request is one of the fault-free run, in the same order: nothing skipped, nothing repeated once answered.
						expect(requests.filter((r) => !r.faulted).map(signature)).toEqual(cleanRequests);
						expect(longestFaultRun(requests)).toBeLessThanOrEqual(MAX_RETRIES);
					},
				),
				{ seed: SEED + 30, numRuns: 20 },
			);
		});

		it('gives up after exactly Max Retries + 1 attempts when every answer is a fault, with a clear whole-call error', async () => {
			// Runs that sent something (so reached the exact count), and those of them that retried.
			let sent = 0;
			let retried = 0;
			await fc.assert(
				fc.asyncProperty(
					op.cases,
					fc.integer({ min: 0, max: 3 }),
					fc.constantFrom(...WRITE_FAULTS),
					async (c, maxRetries, kind) => {
						tally.generatedCases++;
						c.setup(sb);
						const before = op.state(sb);
						sb.configure({ faults: { kinds: [kind], rate: 1, seed: 1 } });
						const result = await runWrite(
							sb,
							op,
							c,
							{ maxRetries },
							`${op.name} (every request ${kind})`,
						);
						const requests = [...sb.requests];
						sb.configure({ faults: undefined });
						expect(op.state(sb)).toEqual(before);
						if (requests.length === 0) {
							// Every item broke a rule checked before sending: nothing to retry.
							checkWriteOutputs(result.out, c.input.length, {
								failedFields: op.failedFields,
								eachIndexOnce: op.eachIndexOnce,
							});
							return;
						}
						expect(requests).toHaveLength(maxRetries + 1);
						expect(result.error).toBeDefined();
						expectClearError(result, op.name);
						sent++;
						if (maxRetries > 0) {
							retried++;
							expect(result.error?.message).toContain(`after ${maxRetries + 1} attempts`);
						}
					},
				),
				{ seed: SEED + 31, numRuns: 6 },
			);
			// The property is not vacuous: some generated cases sent, and some of those retried.
			expect(sent).toBeGreaterThan(0);
			expect(retried).toBeGreaterThan(0);
		});
	},
);

describe.each(DIALECTS)('%s reads under faults', (_name, d) => {
	it('get and getAll read every entry exactly once, in order, whatever fails mid-paging', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.record({
					members: fc.integer({ min: 0, max: 30 }),
					keysPer: fc.integer({ min: 1, max: 4 }),
					pageSize: fc.integer({ min: 1, max: 9 }),
					pagingEnd: fc.constantFrom<'null' | 'absent' | 'emptyString' | 'emptyPage'>(
						'null',
						'absent',
						'emptyString',
						'emptyPage',
					),
					stringCodes: fc.boolean(),
					operation: fc.constantFrom('get', 'getAll'),
					limit: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
					seed: fc.integer({ min: 1, max: 2 ** 30 }),
					phase: fc.constantFrom<'before' | 'after'>('before', 'after'),
				}),
				async (c) => {
					tally.generatedCases++;
					const setup = () => {
						prepareData(sb, d.store, []);
						const store = d.store(sb);
						for (let m = 0; m < c.members; m++) {
							const id = m % 3 === 0 ? `회원${m}` : `m${m}&x=${m}`;
							store.set(
								id,
								new Map(
									Array.from({ length: m === 0 ? 25 : c.keysPer }, (_, k) => [
										`k${k}`,
										m * 100 + k,
									]),
								),
							);
						}
						sb.configure({
							pageSize: c.pageSize,
							pagingEnd: c.pagingEnd,
							stringCodes: c.stringCodes,
						});
					};
					const parameters = {
						operation: c.operation,
						memberId: '회원0',
						returnAll: c.limit === undefined,
						limit: c.limit ?? 50,
						options: { maxRetries: MAX_RETRIES },
					};
					setup();
					const expected: Array<[string, string, unknown]> = [];
					for (const [id, entries] of d.store(sb)) {
						if (c.operation === 'get' && id !== '회원0') continue;
						for (const [key, value] of entries) expected.push([id, key, value]);
					}
					const wanted =
						c.operation === 'get' || c.limit === undefined ? expected : expected.slice(0, c.limit);
					const clean = await run(
						{ type: d.type, parameters, input: [{}], credentials: credentials(sb) },
						`${d.type} ${c.operation}`,
					);
					countSandbox(d.type, sb.requests);
					const cleanPages = sb.requests.length;

					setup();
					sb.configure({
						faults: {
							kinds: [...WRITE_FAULTS, 'truncatedJson', 'emptyBody', 'http502html'],
							rate: 0.2,
							seed: c.seed,
							phase: c.phase,
						},
					});
					const faulted = await run(
						{ type: d.type, parameters, input: [{}], credentials: credentials(sb) },
						`${d.type} ${c.operation} (faults)`,
					);
					const requests = [...sb.requests];
					countSandbox(d.type, requests);
					sb.configure({ faults: undefined });

					for (const result of [clean, faulted]) {
						if (result.error) throw new Error(`the read stopped: ${result.error.message}`);
						const entries = result.out[0]
							.filter((i) => i.json.key !== undefined)
							.map((i) => [i.json.memberId, i.json.key, i.json.value]);
						expect(entries).toEqual(wanted);
						for (const item of result.out[0]) expect(pairsOf(item)).toEqual([0]);
					}
					expect(requests.filter((r) => !r.faulted)).toHaveLength(cleanPages);
					expect(longestFaultRun(requests)).toBeLessThanOrEqual(MAX_RETRIES);
				},
			),
			{ seed: SEED + 32, numRuns: 25 },
		);
	});
});
