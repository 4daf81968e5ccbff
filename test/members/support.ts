/**
 * Shared by the member workflow tests: a runner for the Campaign Members node through the real
 * engine (test/support has the sandbox fixture and the pairing checks), and small readers.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/server';
import { runNode, withFast } from '../support';

export interface MembersRun {
	parameters: IDataObject;
	input: IDataObject[];
	memberApiVersion?: 'any' | 'v1' | 'v2';
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** Send a key the sandbox does not know (an unknown customer, -1001). */
	wrongKey?: boolean;
}

export async function runMembers(sb: Sandbox, run: MembersRun) {
	return await runNode({
		type: 'campaignMembers',
		parameters: withFast(run.parameters),
		input: run.input,
		credentials: {
			baseUrl: sb.baseUrl,
			apiKey: run.wrongKey ? 'wrong-key-12345' : sb.apiKey,
			memberApiVersion: run.memberApiVersion ?? 'any',
		},
		onError: run.onError,
	});
}

export const json = (items: INodeExecutionData[] | undefined): IDataObject[] =>
	(items ?? []).map((i) => i.json);

/** 010-XXXX-YYYY for n, distinct for n < 10^8. */
export function phoneFor(n: number): string {
	const digits = String(n).padStart(8, '0');
	return `010-${digits.slice(0, 4)}-${digits.slice(4)}`;
}

/** Requests the sandbox logged for a method and path. */
export function requestsTo(sb: Sandbox, method: string, path: string) {
	return sb.requests.filter((r) => r.method === method && r.path === path);
}
