/**
 * The module copies of the simulation's processes (sim-world.ts): each process runs its own copy
 * of the Alimtalk node's modules, as another n8n worker does. Every timer of the node's code is
 * n8n-workflow's `sleep` (shared/transport/pause.ts, dedup/store-calls.ts): a sleep that ends
 * while the process it runs in (sim-clock.ts `running`) is stalled ends only once the stall is over.
 */
import type { INodeType } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import * as luxon from 'luxon';
import { path, ROOT } from '../../support/node';
import { running, unstalled } from './sim-clock';

/**
 * A fresh copy of the Alimtalk node's own modules (its in-process queues, as another process
 * has). The libraries it imports are shared: only their loading time would differ.
 */
function freshCopy(): INodeType {
	const sleep = async (ms: number) => {
		await n8nWorkflow.sleep(ms);
		const proc = running.getStore()?.proc;
		if (proc) await unstalled(proc);
	};
	jest.doMock('n8n-workflow', () => ({ ...n8nWorkflow, sleep }));
	jest.doMock('luxon', () => luxon);
	let node: INodeType | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const mod = require(
			path.join(ROOT, 'dist/nodes/CampaignAlimtalk/CampaignAlimtalk.node.js'),
		) as { CampaignAlimtalk: new () => INodeType };
		node = new mod.CampaignAlimtalk();
	});
	return node as INodeType;
}

/**
 * A new copy for every process of every schedule: a copy kept from an earlier schedule would
 * carry what that process learnt of a store that no longer exists, and a seed would not replay
 * alone as it ran in a series.
 */
export function processCopy(): INodeType {
	return freshCopy();
}
