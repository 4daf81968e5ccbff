/**
 * Shared by the fault suites (faults.test.ts, faults-send.test.ts, faults-hang.test.ts): the
 * faults a write is given, the retry limit, the runner of a write operation against the sandbox,
 * and the comparisons of a faulted run with the fault-free one.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { FaultKind, LoggedRequest, Sandbox } from '../../../sandbox/server';
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
