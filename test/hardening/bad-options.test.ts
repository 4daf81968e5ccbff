/**
 * Bad option values, generated, on every node: a batch size, concurrency, retry count, retry
 * delay or timeout that is out of range, fractional, negative, text or of another type stops the
 * node before anything is sent, with an error that names the option and its rule. Nothing
 * crashes, and under "On Error: Continue" the items come back as error items, each paired.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import {
	API_KEY,
	SEED,
	SEND_PARAMETERS,
	countSandbox,
	expectClearError,
	pairsOf,
	run,
	tally,
	useHardeningSandbox,
} from './support';

const sb = useHardeningSandbox('bad-options');

interface OptionRule {
	option: string;
	label: string;
	min: number;
	max: number;
}

const TRANSPORT: OptionRule[] = [
	{ option: 'maxRetries', label: 'Max Retries', min: 0, max: 10 },
	{ option: 'retryDelayMs', label: 'Retry Delay (Ms)', min: 0, max: 60000 },
	{ option: 'timeoutMs', label: 'Timeout (Ms)', min: 1000, max: 600000 },
];
const BATCH: OptionRule = { option: 'batchSize', label: 'Batch Size', min: 1, max: 1000 };
const CONCURRENCY: OptionRule = { option: 'concurrency', label: 'Concurrency', min: 1, max: 50 };
const PAUSE: OptionRule = {
	option: 'pauseMs',
	label: 'Pause Between Requests (Ms)',
	min: 0,
	max: 60000,
};

const NODES: Array<{
	name: string;
	type: string;
	parameters: IDataObject;
	input: IDataObject[];
	rules: OptionRule[];
}> = [
	{
		name: 'custom data create',
		type: 'campaignCustomData',
		parameters: { operation: 'create' },
		input: [{ memberId: 'm1', grade: 'A' }],
		rules: [BATCH, ...TRANSPORT],
	},
	{
		name: 'legacy data delete',
		type: 'campaignLegacyData',
		parameters: { operation: 'delete', memberId: '={{ $json.memberId }}' },
		input: [{ memberId: 'm1' }],
		rules: [BATCH, ...TRANSPORT],
	},
	{
		name: 'custom data getAll',
		type: 'campaignCustomData',
		parameters: { operation: 'getAll', returnAll: true },
		input: [{}],
		rules: TRANSPORT,
	},
	{
		name: 'members v2 upsert',
		type: 'campaignMembers',
		parameters: { apiVersion: 'v2', operation: 'upsert' },
		input: [{ memberId: 'm1', phoneNumber: '010-1234-5678' }],
		rules: [BATCH, ...TRANSPORT],
	},
	{
		name: 'members v1 get',
		type: 'campaignMembers',
		parameters: { apiVersion: 'v1', operation: 'get', memberId: 'm1' },
		input: [{}],
		rules: TRANSPORT,
	},
	{
		name: 'alimtalk send',
		type: 'campaignAlimtalk',
		parameters: SEND_PARAMETERS,
		input: [{ campaign: 'C', phone: '821012345678', ref: 'r' }],
		rules: [CONCURRENCY, PAUSE, ...TRANSPORT],
	},
];

/** A value the rule refuses: outside the range, fractional, not a number, or of another type. */
const badValue = (rule: OptionRule): fc.Arbitrary<unknown> =>
	fc.oneof(
		fc.integer({ min: -1e9, max: rule.min - 1 }),
		fc.integer({ min: rule.max + 1, max: 1e12 }),
		fc
			.double({ min: rule.min + 0.01, max: rule.max - 0.01, noNaN: true })
			.filter((n) => !Number.isInteger(n)),
		// (NaN and Infinity cannot be saved in a workflow: its JSON turns them into null, "not set".)
		fc.constantFrom<unknown>('abc', '12abc', '1e9', true, [5], { n: 5 }),
	);

describe.each(NODES.map((n): [string, (typeof NODES)[number]] => [n.name, n]))(
	'%s',
	(_name, node) => {
		it('refuses a bad value of each option before sending, naming the option and its rule', async () => {
			await fc.assert(
				fc.asyncProperty(
					fc
						.constantFrom(...node.rules)
						.chain((rule) => fc.tuple(fc.constant(rule), badValue(rule))),
					fc.boolean(),
					async ([rule, value], continueOnFail) => {
						tally.generatedCases++;
						sb.reset();
						const result = await run(
							{
								type: node.type,
								parameters: { ...node.parameters, options: { [rule.option]: value } },
								input: node.input,
								credentials: { baseUrl: sb.baseUrl, apiKey: API_KEY, memberApiVersion: 'any' },
								...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
							},
							`${node.name} (bad ${rule.option})`,
						);
						countSandbox(node.name, sb.requests);
						expect(sb.requests).toHaveLength(0);
						const words = `Option "${rule.label}" must be a whole number from ${rule.min} to ${rule.max}`;
						if (continueOnFail) {
							expect(result.error).toBeUndefined();
							const items = result.out.flat();
							expect(items.map((item) => pairsOf(item))).toEqual(node.input.map((_, i) => [i]));
							for (const item of items) expect(String(item.json.error)).toContain(words);
						} else {
							expect(result.error?.message).toContain(words);
							expectClearError(result, node.name);
						}
					},
				),
				{ seed: SEED + 40, numRuns: 30 },
			);
		});
	},
);

it('accepts a whole number given as text (what an expression gives)', async () => {
	sb.reset();
	const result = await run(
		{
			type: 'campaignCustomData',
			parameters: { operation: 'create', options: { retryDelayMs: '0', batchSize: ' 2 ' } },
			input: [1, 2, 3].map((n) => ({ memberId: `m${n}`, grade: 'A' })),
			credentials: { baseUrl: sb.baseUrl, apiKey: API_KEY },
		},
		'custom data create (text options)',
	);
	countSandbox('custom data create', sb.requests);
	expect(result.error).toBeUndefined();
	expect(sb.requests.map((r) => Object.keys(r.body as object).length)).toEqual([2, 1]);
});

it('getAll refuses a bad Limit before reading, naming the parameter and its rule', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.oneof(
				fc.integer({ min: -1e6, max: 0 }),
				fc.double({ min: 0.01, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)),
				fc.constantFrom<string | boolean | number[]>('abc', '10 items', true, [10]),
			),
			async (limit) => {
				tally.generatedCases++;
				sb.reset();
				const result = await run(
					{
						type: 'campaignLegacyData',
						parameters: { operation: 'getAll', returnAll: false, limit },
						input: [{}],
						credentials: { baseUrl: sb.baseUrl, apiKey: API_KEY },
					},
					'legacy data getAll (bad limit)',
				);
				expect(sb.requests).toHaveLength(0);
				expect(result.error?.message).toContain('Limit must be a whole number of at least 1');
				expectClearError(result, 'legacy data getAll');
			},
		),
		{ seed: SEED + 41, numRuns: 20 },
	);
});
