/**
 * Shared by the transport suites run through the engine (envelope.test.ts, retries.test.ts,
 * credential-rules.test.ts): one call of the probe node (probe-node.ts) against a scripted
 * server, the key and the options they use.
 */
import type { IDataObject } from 'n8n-workflow';
import { FAST, runNode } from '../../support';
import { startScripted, type Answer, type ScriptedServer } from '../../support/scripted-server';
import { PROBE_TYPE, probeNode } from './probe-node';

export const KEY = ['transport', 'test', 'key', '1234'].join('-');
export const PROBE_OPTIONS = { ...FAST, maxRetries: 3, timeoutMs: 2000 };

/** Where a suite keeps the scripted server of the current test (a `let server` of its own). */
export interface ServerSlot {
	get(): ScriptedServer | undefined;
	set(server: ScriptedServer | undefined): void;
}

/**
 * The probe of a suite, called once at the top of the file: `probe` starts a scripted server
 * answering `answers`, puts it in `slot` and makes `call` through the probe node; the server in
 * `slot` is closed after each test.
 */
export function useProbe(slot: ServerSlot = localSlot()) {
	afterEach(async () => {
		await slot.get()?.close();
		slot.set(undefined);
	});

	return async function probe(
		answers: (index: number) => Answer,
		call: IDataObject = { method: 'GET', path: '/v2/custom' },
		options: IDataObject = PROBE_OPTIONS,
		/** The Base URL, or how to make it from the scripted server's address. */
		baseUrl?: string | ((serverUrl: string) => string),
	) {
		const server = await startScripted((_req, index) => answers(index));
		slot.set(server);
		if (typeof baseUrl === 'function') baseUrl = baseUrl(server.baseUrl);
		const result = await runNode({
			type: PROBE_TYPE,
			extraTypes: { [PROBE_TYPE]: probeNode },
			parameters: { call: JSON.stringify(call), options: JSON.stringify(options) },
			input: [{}],
			credentials: { baseUrl: baseUrl ?? `${server.baseUrl}/`, apiKey: KEY },
		});
		return { ...result, json: result.out[0]?.[0]?.json, requests: server.seen.length };
	};
}

function localSlot(): ServerSlot {
	let server: ScriptedServer | undefined;
	return { get: () => server, set: (started) => (server = started) };
}
