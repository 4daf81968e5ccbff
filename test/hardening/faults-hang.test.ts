/**
 * A hanging server (a fault injected by the sandbox): every operation gives up after the request
 * timeout, with a clear message, or an error item under "Continue".
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/server';
import {
	SEED,
	WRITE_OPS,
	type WriteCase,
	type WriteOp,
	countSandbox,
	credentials,
	expectClearError,
	expectTimedOutSend,
	pairsOf,
	prepareCampaigns,
	prepareData,
	run,
	runWrite,
	sendOne,
	useHardeningSandbox,
} from './support';
import { DIALECTS } from '../support';

const sb = useHardeningSandbox('faults-hang');

describe('a hanging server', () => {
	const hang = (s: Sandbox) => s.configure({ faults: { kinds: ['hang'], rate: 1, seed: 1 } });

	/** One row every operation sends (the generated cases may hold none that passes the node's checks). */
	const validInput = (op: WriteOp): IDataObject[] => {
		if (/upsert/.test(op.name))
			return [{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true }];
		if (/members .* delete/.test(op.name))
			return [{ memberId: 'm1', phoneNumber: '010-1234-5678' }];
		if (/delete/.test(op.name)) return [{ id: 'm1', keys: 'grade' }];
		return [{ memberId: 'm1', grade: 'A' }];
	};

	it.each(WRITE_OPS.map((op): [string, WriteOp] => [op.name, op]))(
		'%s: the request timeout fires and the node stops with a clear message',
		async (_name, op) => {
			const c = fc.sample(op.cases, { seed: SEED, numRuns: 1 })[0];
			const valid: WriteCase = { ...c, input: validInput(op) };
			valid.setup(sb);
			hang(sb);
			// A timeout that never fired would leave the run hanging until jest gives up on the test.
			const result = await runWrite(
				sb,
				op,
				valid,
				{ maxRetries: 0, timeoutMs: 1000 },
				`${op.name} (hang)`,
			);
			sb.configure({ faults: undefined });
			// Max Retries 0: the one request that hung, and nothing after it.
			expect(sb.requests).toHaveLength(1);
			expect(result.error?.message).toContain('the request timed out');
			expectClearError(result, op.name);
		},
	);

	it.each(['v1', 'v2'])(
		'members %s get: the read stops with a clear message, or becomes an error item under "Continue"',
		async (version) => {
			hang(sb);
			const result = await run(
				{
					type: 'campaignMembers',
					parameters: {
						apiVersion: version,
						operation: 'get',
						memberId: 'm1',
						options: { maxRetries: 0, timeoutMs: 1000 },
					},
					input: [{}, {}],
					credentials: credentials(sb),
					onError: 'continueRegularOutput',
				},
				`members ${version} get (hang)`,
			);
			countSandbox(`members ${version} get`, sb.requests);
			sb.configure({ faults: undefined });
			expect(result.error).toBeUndefined();
			expect(result.out[0]).toHaveLength(2);
			for (const [n, item] of result.out[0].entries()) {
				expect(String(item.json.error)).toContain('the request timed out');
				expect(pairsOf(item)).toEqual([n]);
			}
		},
	);

	it('getAll: the read stops with a clear message, or becomes an error item under "Continue"', async () => {
		const d = DIALECTS[0][1];
		prepareData(sb, d.store, [['a', 'grade', 'x']]);
		hang(sb);
		const result = await run(
			{
				type: d.type,
				parameters: {
					operation: 'getAll',
					returnAll: true,
					options: { maxRetries: 0, timeoutMs: 1000 },
				},
				input: [{}],
				credentials: credentials(sb),
				onError: 'continueRegularOutput',
			},
			'getAll (hang)',
		);
		countSandbox('getAll', sb.requests);
		sb.configure({ faults: undefined });
		expect(result.error).toBeUndefined();
		expect(result.out[0]).toHaveLength(1);
		expect(String(result.out[0][0].json.error)).toContain('the request timed out');
		expect(pairsOf(result.out[0][0])).toEqual([0]);
	});

	it('send: the item goes to Failed as "delivery unknown" with the timeout named, and is not sent again', async () => {
		prepareCampaigns(sb);
		hang(sb);
		const result = await sendOne(sb, { maxRetries: 0, timeoutMs: 1000 }, 'send (hang)');
		const requests = [...sb.requests];
		countSandbox('send', requests);
		sb.configure({ faults: undefined });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expectTimedOutSend(result.out);
	});
});
