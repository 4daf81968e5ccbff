/**
 * The module copies of the simulation's processes (sim-world.ts): each process runs its own copy
 * of the Alimtalk node's modules, as another n8n worker does.
 */
import type { INodeType } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import * as luxon from 'luxon';
import { path, ROOT } from '../../support/node';

/**
 * A fresh copy of the Alimtalk node's own modules (its in-process queues, as another process
 * has). The libraries it imports are shared: only their loading time would differ.
 */
function freshCopy(): INodeType {
	jest.doMock('n8n-workflow', () => n8nWorkflow);
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
 * Copies of processes that ended their schedule alive, for the next schedules (loading one takes
 * long). Such a copy holds nothing: the node keeps no state between executions, and its lock
 * queue is empty once no execution waits on it. A crashed process's copy is never reused.
 */
const spare: INodeType[] = [];

export function processCopy(): INodeType {
	return spare.pop() ?? freshCopy();
}

/** Keeps `copy` (of a process that ended its schedule alive) for a later process. */
export function spareCopy(copy: INodeType): void {
	spare.push(copy);
}
