/**
 * Shared by the fault suites (faults*.test.ts): the faults a write is given, the retry limit,
 * the runner of a write operation against the sandbox, the comparisons of a faulted run with the
 * fault-free one, and one send under a fault.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { FaultKind, LoggedRequest, Sandbox } from '../../../sandbox/server';
import { SEND_PARAMETERS, oneSendJson } from './fixtures';
import { API_KEY, countSandbox, pairsOf, run } from './scan';
import type { WriteCase, WriteOp } from './write-ops';

export const WRITE_FAULTS: FaultKind[] = [
	'http500html',
	'http503html',
	'code-9999',
	'code-1005',
	'drop',
];
export const MAX_RETRIES = 6;

export const credentials = (sb: Sandbox) => ({
	baseUrl: sb.baseUrl,
	apiKey: API_KEY,
	memberApiVersion: 'any',
});

export async function runWrite(
	sb: Sandbox,
	op: WriteOp,
	c: WriteCase,
	options: IDataObject,
	label: string,
) {
	const parameters = {
		...c.parameters,
		options: { ...((c.parameters.options as IDataObject) ?? {}), ...options },
	};
	const result = await run(
		{ type: op.type, parameters, input: c.input, credentials: credentials(sb) },
		label,
	);
	countSandbox(label, sb.requests);
	return result;
}

/** Outputs without the fields that legitimately differ between two runs (clock, counts of a repeated delete). */
export const comparable = (out: INodeExecutionData[][]) =>
	out.map((output) =>
		output.map((item) => {
			const json = { ...item.json };
			delete json.retryAfter;
			delete json.batchDeletedCount;
			return { json, pairs: pairsOf(item) };
		}),
	);

export const signature = (r: LoggedRequest) => JSON.stringify([r.method, r.path, r.query, r.body]);

/** The longest run of consecutive faulted requests (each run is one logical request being retried). */
export function longestFaultRun(requests: LoggedRequest[]): number {
	let longest = 0;
	let current = 0;
	for (const r of requests) {
		current = r.faulted ? current + 1 : 0;
		longest = Math.max(longest, current);
	}
	return longest;
}

/** One send of the PLAIN campaign to the first phone with these options (campaigns prepared). */
export async function sendOne(sb: Sandbox, options: IDataObject, label: string) {
	return await run(
		{
			type: 'campaignAlimtalk',
			parameters: { ...SEND_PARAMETERS, options },
			input: oneSendJson(),
			credentials: credentials(sb),
		},
		label,
	);
}

/** The one send timed out after it went out: Failed, delivery unknown, the timeout named. */
export function expectTimedOutSend(out: INodeExecutionData[][]): void {
	expect(out[0]).toHaveLength(0);
	expect(out[1][0].json).toMatchObject({
		code: 'ETIMEDOUT',
		deliveryUnknown: true,
		phoneNumber: '821012345678',
	});
	expect(String(out[1][0].json.message)).toContain('timed out');
}
