/**
 * Faults injected by the sandbox (seeded): every write operation with ~20% of requests failing
 * (HTML 500/503, -9999, -1005, dropped connections; before or after the request took effect)
 * ends in the same state, with the same outputs, as the fault-free run, and retries stay within
 * Max Retries. Reads with faults mid-paging lose and repeat no entry. Sends with faults never
 * reach a recipient twice unless the user allowed it. A hanging server is given up on after the
 * timeout, with a clear message.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { startSandbox, type FaultKind, type LoggedRequest, type Sandbox } from '../../sandbox/server';
import { sendItem } from './arbitraries';
import { CAMPAIGN_RULES, DATA_CASES, SEND_PARAMETERS, outcomesOf, prepareCampaigns, prepareData, sendInputs, sendJson } from './fixtures';
import { expectedSends, type SendInput } from './models';
import { KEY, SEED, checkWriteOutputs, countSandbox, expectClearError, finishSuite, pairsOf, run, sandboxFixture, tally } from './support';
import { WRITE_OPS, type WriteCase, type WriteOp } from './write-ops';

const sb = sandboxFixture(() => startSandbox({ apiKey: KEY }));
finishSuite('faults');

const WRITE_FAULTS: FaultKind[] = ['http500html', 'http503html', 'code-9999', 'code-1005', 'drop'];
const MAX_RETRIES = 6;

const credentials = () => ({ baseUrl: sb().baseUrl, apiKey: KEY, memberApiVersion: 'any' });

async function runWrite(op: WriteOp, c: WriteCase, options: IDataObject, label: string) {
	const parameters = { ...c.parameters, options: { ...((c.parameters.options as IDataObject) ?? {}), retryDelayMs: 0, ...options } };
	const result = await run({ type: op.type, parameters, input: c.input, credentials: credentials() }, label);
	countSandbox(label, sb().requests);
	return result;
}

/** Outputs without the fields that legitimately differ between two runs (clock, counts of a repeated delete). */
const comparable = (out: INodeExecutionData[][]) =>
	out.map((output) =>
		output.map((item) => {
			const json = { ...item.json };
			delete json.retryAfter;
			delete json.batchDeletedCount;
			return { json, pairs: pairsOf(item) };
		}),
	);

const signature = (r: LoggedRequest) => JSON.stringify([r.method, r.path, r.query, r.body]);

/** The longest run of consecutive faulted requests (each run is one logical request being retried). */
function longestFaultRun(requests: LoggedRequest[]): number {
	let longest = 0;
	let current = 0;
	for (const r of requests) {
		current = r.faulted ? current + 1 : 0;
		longest = Math.max(longest, current);
	}
	return longest;
}

describe.each(WRITE_OPS.map((op): [string, WriteOp] => [op.name, op]))('%s under faults', (_name, op) => {
	it('ends in the fault-free state with the fault-free outputs, retrying within Max Retries', async () => {
		await fc.assert(
			fc.asyncProperty(op.cases, fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom<'before' | 'after'>('before', 'after'), async (c, seed, phase) => {
				tally.generatedCases++;
				c.setup(sb());
				const clean = await runWrite(op, c, { maxRetries: MAX_RETRIES }, `${op.name} (no faults)`);
				if (clean.error) throw new Error(`the fault-free run stopped: ${clean.error.message}`);
				const cleanState = op.state(sb());
				const cleanRequests = sb().requests.map(signature);

				c.setup(sb());
				sb().configure({ faults: { kinds: WRITE_FAULTS, rate: 0.2, seed, phase } });
				const faulted = await runWrite(op, c, { maxRetries: MAX_RETRIES }, `${op.name} (faults ${phase})`);
				const requests = [...sb().requests];
				sb().configure({ faults: undefined });
				if (faulted.error) throw new Error(`the run with faults stopped: ${faulted.error.message}`);
				checkWriteOutputs(faulted.out, c.input.length, { failedFields: op.failedFields, eachIndexOnce: op.eachIndexOnce });
				expect(op.state(sb())).toEqual(cleanState);
				expect(comparable(faulted.out)).toEqual(comparable(clean.out));
				// Each answered request is one of the fault-free run, in the same order: nothing skipped, nothing repeated once answered.
				expect(requests.filter((r) => !r.faulted).map(signature)).toEqual(cleanRequests);
				expect(longestFaultRun(requests)).toBeLessThanOrEqual(MAX_RETRIES);
			}),
			{ seed: SEED + 30, numRuns: 20 },
		);
	});

	it('gives up after exactly Max Retries + 1 attempts when every answer is a fault, with a clear whole-call error', async () => {
		await fc.assert(
			fc.asyncProperty(op.cases, fc.integer({ min: 0, max: 3 }), fc.constantFrom(...WRITE_FAULTS), async (c, maxRetries, kind) => {
				tally.generatedCases++;
				c.setup(sb());
				const before = op.state(sb());
				sb().configure({ faults: { kinds: [kind], rate: 1, seed: 1 } });
				const result = await runWrite(op, c, { maxRetries }, `${op.name} (every request ${kind})`);
				const requests = [...sb().requests];
				sb().configure({ faults: undefined });
				expect(op.state(sb())).toEqual(before);
				if (requests.length === 0) {
					// Every item broke a rule checked before sending: nothing to retry.
					checkWriteOutputs(result.out, c.input.length, { failedFields: op.failedFields, eachIndexOnce: op.eachIndexOnce });
					return;
				}
				expect(requests).toHaveLength(maxRetries + 1);
				expect(result.error).toBeDefined();
				expectClearError(result, op.name);
				if (maxRetries > 0) expect(result.error?.message).toContain(`after ${maxRetries + 1} attempts`);
			}),
			{ seed: SEED + 31, numRuns: 6 },
		);
	});
});

describe.each(DATA_CASES)('%s reads under faults', (_name, d) => {
	it('get and getAll read every entry exactly once, in order, whatever fails mid-paging', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.record({
					members: fc.integer({ min: 0, max: 30 }),
					keysPer: fc.integer({ min: 1, max: 4 }),
					pageSize: fc.integer({ min: 1, max: 9 }),
					pagingEnd: fc.constantFrom<'null' | 'absent' | 'emptyString' | 'emptyPage'>('null', 'absent', 'emptyString', 'emptyPage'),
					stringCodes: fc.boolean(),
					operation: fc.constantFrom('get', 'getAll'),
					limit: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
					seed: fc.integer({ min: 1, max: 2 ** 30 }),
					phase: fc.constantFrom<'before' | 'after'>('before', 'after'),
				}),
				async (c) => {
					tally.generatedCases++;
					const setup = () => {
						prepareData(sb(), d.store, []);
						const store = d.store(sb());
						for (let m = 0; m < c.members; m++) {
							const id = m % 3 === 0 ? `회원${m}` : `m${m}&x=${m}`;
							store.set(id, new Map(Array.from({ length: m === 0 ? 25 : c.keysPer }, (_, k) => [`k${k}`, m * 100 + k])));
						}
						sb().configure({ pageSize: c.pageSize, pagingEnd: c.pagingEnd, stringCodes: c.stringCodes });
					};
					const parameters = {
						operation: c.operation,
						memberId: '회원0',
						returnAll: c.limit === undefined,
						limit: c.limit ?? 50,
						options: { retryDelayMs: 0, maxRetries: MAX_RETRIES },
					};
					setup();
					const expected: Array<[string, string, unknown]> = [];
					for (const [id, entries] of d.store(sb())) {
						if (c.operation === 'get' && id !== '회원0') continue;
						for (const [key, value] of entries) expected.push([id, key, value]);
					}
					const wanted = c.operation === 'get' || c.limit === undefined ? expected : expected.slice(0, c.limit);
					const clean = await run({ type: d.type, parameters, input: [{}], credentials: credentials() }, `${d.type} ${c.operation}`);
					countSandbox(d.type, sb().requests);
					const cleanPages = sb().requests.length;

					setup();
					sb().configure({ faults: { kinds: [...WRITE_FAULTS, 'truncatedJson', 'emptyBody', 'http502html'], rate: 0.2, seed: c.seed, phase: c.phase } });
					const faulted = await run({ type: d.type, parameters, input: [{}], credentials: credentials() }, `${d.type} ${c.operation} (faults)`);
					const requests = [...sb().requests];
					countSandbox(d.type, requests);
					sb().configure({ faults: undefined });

					for (const result of [clean, faulted]) {
						if (result.error) throw new Error(`the read stopped: ${result.error.message}`);
						const entries = result.out[0].filter((i) => i.json.key !== undefined).map((i) => [i.json.memberId, i.json.key, i.json.value]);
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

/** The ref template variable of a logged send request. */
const refOf = (r: LoggedRequest) => String((r.body as { users?: Array<{ properties?: { ref?: unknown } }> })?.users?.[0]?.properties?.ref);

/** Answers after which a send may have gone out (the node must not repeat it unless allowed). */
const AMBIGUOUS: FaultKind[] = ['http500html', 'http503html', 'code-9999', 'drop', 'code2000', 'code7998', 'code7999'];

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
					prepareCampaigns(sb());
					const inputs = sendInputs(generated);
					// -1005 says the request was not processed: it is only injected before the effect.
					const kinds: FaultKind[] = c.phase === 'before' ? [...AMBIGUOUS, 'code-1005'] : AMBIGUOUS;
					sb().configure({ faults: { kinds, rate: 0.2, seed: c.seed, phase: c.phase, match: (r) => r.path === '/messages/alimtalk/trigger' } });
					const maxRetries = 4;
					const result = await run(
						{
							type: 'campaignAlimtalk',
							parameters: {
								...SEND_PARAMETERS,
								options: { convertPhoneNumbers: c.convert, concurrency: c.concurrency, retryDelayMs: 0, maxRetries, retryUnknownDelivery: c.retryUnknown },
							},
							input: sendJson(inputs),
							credentials: credentials(),
						},
						'alimtalk send (faults)',
					);
					const requests = [...sb().requests];
					countSandbox('alimtalk', requests);
					sb().configure({ faults: undefined });
					if (result.error) throw new Error(`the node stopped: ${result.error.message}`);
					checkWriteOutputs(result.out, inputs.length, { failedFields: ['campaignKey', 'phoneNumber'], eachIndexOnce: true });
					const model = expectedSends(JSON.parse(JSON.stringify(inputs)) as SendInput[], c.convert, CAMPAIGN_RULES);
					const outcomes = outcomesOf(result.out, inputs.length);
					const failed = new Map<number, IDataObject>();
					for (const item of result.out[1]) failed.set(pairsOf(item)[0], item.json);

					inputs.forEach((input, i) => {
						const deliveries = sb().state.sent.filter((s) => s.properties.ref === input.ref).length;
						const attempts = requests.filter((r) => refOf(r) === input.ref);
						expect(attempts.length).toBeLessThanOrEqual(maxRetries + 1);
						if (!c.retryUnknown) {
							if (deliveries > 1) tally.doubled++;
							expect(deliveries).toBeLessThanOrEqual(1);
							// After an answer that leaves the delivery open, the send is never repeated.
							const firstAmbiguous = attempts.findIndex((r) => r.faulted !== undefined && AMBIGUOUS.includes(r.faulted));
							if (firstAmbiguous >= 0) expect(attempts).toHaveLength(firstAmbiguous + 1);
						}
						if (outcomes[i] === 'ok') {
							expect(model.outcomes[i]).toBe('ok');
							expect(deliveries).toBeGreaterThanOrEqual(1);
							return;
						}
						const json = failed.get(i) as IDataObject;
						if (json.deliveryUnknown === true) return; // the user is told to check before sending again
						// Not sent, and the node says so: either a rule refused it, or every attempt failed before the effect.
						expect(deliveries).toBe(0);
						if (attempts.every((r) => r.faulted === undefined)) expect(outcomes[i]).toBe(model.outcomes[i]);
					});
					if (c.retryUnknown) {
						// With the option on, a sendable item ends sent unless every allowed attempt failed.
						model.outcomes.forEach((o, i) => {
							if (o === 'ok' && outcomes[i] !== 'ok') expect(requests.filter((r) => refOf(r) === inputs[i].ref)).toHaveLength(maxRetries + 1);
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
	] as Array<[string, FaultKind]>)('%s: is not repeated, and the item says delivery is unknown', async (_label, kind) => {
		prepareCampaigns(sb());
		sb().configure({ faults: { kinds: [kind], firstN: 1, seed: 1, phase: 'after' } });
		const inputs = sendInputs([{ campaign: 'PLAIN', phone: 0, k1: 'name', v1: 'Kim', k2: 'coupon', v2: 'X' }]);
		const result = await run(
			{ type: 'campaignAlimtalk', parameters: { ...SEND_PARAMETERS, options: { retryDelayMs: 0, maxRetries: 3 } }, input: sendJson(inputs), credentials: credentials() },
			`send (${kind} after)`,
		);
		countSandbox('send', sb().requests);
		sb().configure({ faults: undefined });
		expect(sb().requests).toHaveLength(1);
		expect(sb().state.sent).toHaveLength(1);
		expect(result.out[0]).toHaveLength(0);
		expect(result.out[1][0].json).toMatchObject({ deliveryUnknown: true, campaignKey: 'PLAIN', phoneNumber: '821012345678' });
		expect(String(result.out[1][0].json.message)).toMatch(/may or may not have been sent|without a result code|connection was closed/);
	});
});

describe('a hanging server', () => {
	const hang = (s: Sandbox) => s.configure({ faults: { kinds: ['hang'], rate: 1, seed: 1 } });

	/** One row every operation sends (the generated cases may hold none that passes the node's checks). */
	const validInput = (op: WriteOp): IDataObject[] => {
		if (/upsert/.test(op.name)) return [{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true }];
		if (/members .* delete/.test(op.name)) return [{ memberId: 'm1', phoneNumber: '010-1234-5678' }];
		if (/delete/.test(op.name)) return [{ id: 'm1', keys: 'grade' }];
		return [{ memberId: 'm1', grade: 'A' }];
	};

	it.each(WRITE_OPS.map((op): [string, WriteOp] => [op.name, op]))(
		'%s: the request timeout fires and the node stops with a clear message',
		async (_name, op) => {
			const c = fc.sample(op.cases, { seed: SEED, numRuns: 1 })[0];
			const valid: WriteCase = { ...c, input: validInput(op) };
			valid.setup(sb());
			hang(sb());
			// A timeout that never fired would leave the run hanging until jest gives up on the test.
			const result = await runWrite(op, valid, { maxRetries: 0, timeoutMs: 1000 }, `${op.name} (hang)`);
			sb().configure({ faults: undefined });
			expect(sb().requests.length).toBeGreaterThan(0);
			expect(result.error?.message).toContain('the request timed out');
			expectClearError(result, op.name);
		},
	);

	it.each(['v1', 'v2'])('members %s get: the read stops with a clear message, or becomes an error item under "Continue"', async (version) => {
		hang(sb());
		const result = await run(
			{
				type: 'campaignMembers',
				parameters: { apiVersion: version, operation: 'get', memberId: 'm1', options: { maxRetries: 0, timeoutMs: 1000 } },
				input: [{}, {}],
				credentials: credentials(),
				onError: 'continueRegularOutput',
			},
			`members ${version} get (hang)`,
		);
		countSandbox(`members ${version} get`, sb().requests);
		sb().configure({ faults: undefined });
		expect(result.error).toBeUndefined();
		expect(result.out[0]).toHaveLength(2);
		for (const [n, item] of result.out[0].entries()) {
			expect(String(item.json.error)).toContain('the request timed out');
			expect(pairsOf(item)).toEqual([n]);
		}
	});

	it('getAll: the read stops with a clear message, or becomes an error item under "Continue"', async () => {
		const d = DATA_CASES[0][1];
		prepareData(sb(), d.store, [['a', 'grade', 'x']]);
		hang(sb());
		const result = await run(
			{ type: d.type, parameters: { operation: 'getAll', returnAll: true, options: { maxRetries: 0, timeoutMs: 1000 } }, input: [{}], credentials: credentials(), onError: 'continueRegularOutput' },
			'getAll (hang)',
		);
		countSandbox('getAll', sb().requests);
		sb().configure({ faults: undefined });
		expect(result.error).toBeUndefined();
		expect(result.out[0]).toHaveLength(1);
		expect(String(result.out[0][0].json.error)).toContain('the request timed out');
		expect(pairsOf(result.out[0][0])).toEqual([0]);
	});

	it('send: the item goes to Failed as "delivery unknown" with the timeout named, and is not sent again', async () => {
		prepareCampaigns(sb());
		hang(sb());
		const inputs = sendInputs([{ campaign: 'PLAIN', phone: 0, k1: 'name', v1: 'Kim', k2: 'coupon', v2: 'X' }]);
		const result = await run(
			{
				type: 'campaignAlimtalk',
				parameters: { ...SEND_PARAMETERS, options: { maxRetries: 0, timeoutMs: 1000 } },
				input: sendJson(inputs),
				credentials: credentials(),
			},
			'send (hang)',
		);
		const requests = [...sb().requests];
		countSandbox('send', requests);
		sb().configure({ faults: undefined });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(result.out[0]).toHaveLength(0);
		expect(result.out[1][0].json).toMatchObject({ code: 'ETIMEDOUT', deliveryUnknown: true, phoneNumber: '821012345678' });
		expect(String(result.out[1][0].json.message)).toContain('timed out');
	});
});
