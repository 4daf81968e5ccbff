/**
 * Shared by the member workflow tests: one sandbox per test file, a runner for the
 * Campaign Members node through the real engine, and checks on outputs and pairing.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { runNode } from '../engine/harness';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';

export interface MembersRun {
	parameters: IDataObject;
	input: IDataObject[];
	memberApiVersion?: 'any' | 'v1' | 'v2';
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** Send a key the sandbox does not know (an unknown customer, -1001). */
	wrongKey?: boolean;
}

/** Starts a sandbox for the file; `sb()` gives it, reset before each test. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox(options);
	});
	beforeEach(() => {
		sandbox?.configure({ errorHttpStatus: undefined, v2FailureShape: undefined, stringCodes: undefined, v1ColMisspelling: undefined, ...options });
		sandbox?.reset();
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	return () => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
}

export async function runMembers(sb: Sandbox, run: MembersRun) {
	return await runNode({
		type: 'campaignMembers',
		parameters: { ...run.parameters, options: { retryDelayMs: 0, ...((run.parameters.options as IDataObject) ?? {}) } },
		input: run.input,
		credentials: { baseUrl: sb.baseUrl, apiKey: run.wrongKey ? 'wrong-key-12345' : sb.apiKey, memberApiVersion: run.memberApiVersion ?? 'any' },
		onError: run.onError,
	});
}

/** The input indexes an item is paired with. */
export function pairs(item: INodeExecutionData): number[] {
	const paired = item.pairedItem;
	if (paired === undefined || typeof paired === 'number') return typeof paired === 'number' ? [paired] : [];
	return (Array.isArray(paired) ? paired : [paired]).map((p) => p.item);
}

/** Every input index appears exactly once across the given outputs. */
export function expectEachInputOnce(outputs: INodeExecutionData[][], count: number): void {
	const seen = new Map<number, number>();
	for (const output of outputs) {
		for (const item of output) {
			const indexes = pairs(item);
			expect(indexes).toHaveLength(1);
			seen.set(indexes[0], (seen.get(indexes[0]) ?? 0) + 1);
		}
	}
	expect(seen.size).toBe(count);
	for (let i = 0; i < count; i++) expect(seen.get(i)).toBe(1);
}

export const json = (items: INodeExecutionData[] | undefined): IDataObject[] => (items ?? []).map((i) => i.json);

/** 010-XXXX-YYYY for n, distinct for n < 10^8. */
export function phoneFor(n: number): string {
	const digits = String(n).padStart(8, '0');
	return `010-${digits.slice(0, 4)}-${digits.slice(4)}`;
}

/** Requests the sandbox logged for a method and path. */
export function requestsTo(sb: Sandbox, method: string, path: string) {
	return sb.requests.filter((r) => r.method === method && r.path === path);
}
