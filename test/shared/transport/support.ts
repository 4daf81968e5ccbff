/**
 * Shared by the transport suites run through the engine (envelope.test.ts, client.retries.test.ts,
 * credentials.test.ts): a test-only probe node that makes one call through the package's
 * transport (so that the transport's rules are exercised inside n8n's real engine and request
 * helper), one call of it against a scripted server, the key and the options they use.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { CampaignClient, type ApiCall } from '../../../nodes/shared/transport';
import { readTransportSettings } from '../../../nodes/shared/options';
import { FAST, runNode } from '../../support';
import { startScripted, type Answer, type ScriptedServer } from '../../support/scripted-server';

export const API_KEY = ['transport', 'test', 'key', '1234'].join('-');
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
		const result = await runProbe(call, options, {
			baseUrl: baseUrl ?? `${server.baseUrl}/`,
			apiKey: API_KEY,
		});
		return { ...result, json: result.out[0]?.[0]?.json, requests: server.seen.length };
	};
}

function localSlot(): ServerSlot {
	let server: ScriptedServer | undefined;
	return { get: () => server, set: (started) => (server = started) };
}

/** One call through the probe node (test/support's `runNode`), with these credentials. */
export async function runProbe(call: IDataObject, options: IDataObject, credentials: IDataObject) {
	return await runNode({
		type: PROBE_TYPE,
		extraTypes: { [PROBE_TYPE]: probeNode },
		parameters: { call: JSON.stringify(call), options: JSON.stringify(options) },
		input: [{}],
		credentials: credentials as ICredentialDataDecryptedObject,
	});
}

const PROBE_TYPE = 'test.transportProbe';

/** A test-only node that calls the transport once (the call and options are JSON parameters). */
const probeNode: INodeType = {
	description: {
		displayName: 'Transport Probe',
		name: 'transportProbe',
		group: ['transform'],
		version: 1,
		description: 'Calls the transport once per item',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'campaignApi', required: true }],
		properties: [
			{ displayName: 'Call', name: 'call', type: 'json', default: '{}' },
			{ displayName: 'Options', name: 'options', type: 'json', default: '{}' },
		],
	},
	async execute(this: IExecuteFunctions) {
		const options = JSON.parse(this.getNodeParameter('options', 0) as unknown as string) as Record<
			string,
			unknown
		>;
		const client = await CampaignClient.create(this, readTransportSettings(this, options));
		const call = JSON.parse(this.getNodeParameter('call', 0) as unknown as string) as ApiCall;
		const result = await client.call(call);
		return [
			[
				{
					json: {
						code: result.code,
						kind: result.info.kind,
						message: result.info.message,
						httpStatus: result.httpStatus ?? null,
						processValue: (result.processValue ?? null) as never,
						serviceMessage: result.serviceMessage ?? null,
						deliveryUnknown: result.deliveryUnknown,
						attempts: result.attempts,
					},
					pairedItem: { item: 0 },
				},
			],
		];
	},
};
