/**
 * Where n8n puts a node's whole-call error items (`{ error, details }`, see nodes/shared/errors.ts)
 * under "Continue (using error output)". Recent n8n releases move an item whose JSON holds only
 * `error`, `message` and `details` to the Error output; older engines (n8n 1.x, 2.0) accept only
 * `error` alone or with `message`, so there the items stay on the first output. The compatibility
 * runs (npm run test:compat) use both kinds of engine: the tests ask the engine itself, once, with
 * a test node that emits exactly such an item, and assert the routing it has.
 */
import type { INodeExecutionData, INodeType } from 'n8n-workflow';
import { runNode } from './engine';

const PROBE_TYPE = 'test.errorDetailsProbe';

const probeNode: INodeType = {
	description: {
		displayName: 'Error Details Probe',
		name: 'errorDetailsProbe',
		group: ['transform'],
		version: 1,
		description: 'Emits one error item with details',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	},
	async execute() {
		return [[{ json: { error: 'probe', details: { code: 'probe' } }, pairedItem: { item: 0 } }]];
	},
};

let routed: Promise<boolean> | undefined;

/** True when this engine moves `{ error, details }` items to the Error output. */
export function engineRoutesErrorDetails(): Promise<boolean> {
	routed ??= runNode({
		type: PROBE_TYPE,
		extraTypes: { [PROBE_TYPE]: probeNode },
		parameters: {},
		input: [{}],
		onError: 'continueErrorOutput',
	}).then(({ out }) => out.length === 2 && out[0].length === 0 && out[1].length === 1);
	return routed;
}

/** The index of the output that holds the whole-call error items of `out`. */
export async function errorItemsAt(out: INodeExecutionData[][]): Promise<number> {
	return (await engineRoutesErrorDetails()) ? out.length - 1 : 0;
}
