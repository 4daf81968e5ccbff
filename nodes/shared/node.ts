/**
 * What every node of the package has in common, spread into each node file's description: the
 * one credential and one main input. (The icon and `usableAsTool` stay written in each node file,
 * where the linter looks for them.)
 */
import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export const NODE_BASE = {
	inputs: [NodeConnectionTypes.Main],
	credentials: [{ name: 'campaignApi', required: true }],
} satisfies Partial<INodeTypeDescription>;
