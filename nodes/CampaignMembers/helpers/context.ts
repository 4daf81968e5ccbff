/**
 * What every member operation opens before any item: the member API version the node is set to
 * (refused when the credential pins the account to the other one), the client, the options and,
 * for a write, the Batch Size.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { readBatchSize, readOptions, readTransportSettings } from '../../shared/options';
import { CampaignClient } from '../../shared/transport';
import type { ApiVersion, MemberApi } from './api-versions';
import { MEMBER_APIS } from './api-versions';

export interface MembersContext {
	client: CampaignClient;
	api: MemberApi;
	options: Record<string, unknown>;
	normalize: boolean;
}

/**
 * Fails when the credential pins the account to the other member API (docs/service-rules.md#members: v1 and v2
 * must not be used together). Called before anything is sent.
 */
export function assertVersionAllowed(
	node: INode,
	credentialVersion: 'any' | ApiVersion,
	nodeVersion: ApiVersion,
): void {
	if (credentialVersion === 'any' || credentialVersion === nodeVersion) return;
	throw new NodeOperationError(
		node,
		`This node uses member API ${nodeVersion}, but its Campaign API credential is set to member API ${credentialVersion} only`,
		{
			description: `The service forbids using member API v1 and v2 together on one account, so nothing was sent. Set "API Version" of this node to ${credentialVersion.toUpperCase()}, or, if the account really uses ${nodeVersion}, change "Member API Version" in the credential to ${nodeVersion.toUpperCase()} Only.`,
		},
	);
}

/** Opens a member operation: its API version, checked against the credential, and its client. */
export async function openMembers(ctx: IExecuteFunctions): Promise<MembersContext> {
	const version = ctx.getNodeParameter('apiVersion', 0, 'v2') as unknown;
	if (version !== 'v1' && version !== 'v2') {
		throw new NodeOperationError(
			ctx.getNode(),
			`API Version must be v1 or v2 (got ${JSON.stringify(version)})`,
		);
	}
	const options = readOptions(ctx);
	const settings = readTransportSettings(ctx, options);
	const client = await CampaignClient.create(ctx, settings);
	assertVersionAllowed(ctx.getNode(), client.memberApiVersion, version);
	return {
		client,
		api: MEMBER_APIS[version],
		options,
		normalize: options.normalizePhoneNumbers !== false,
	};
}

/** A write's context: the members context and the Batch Size, read before any row. */
export interface WriteContext extends MembersContext {
	batchSize: number;
}

/** Opens a member write: what `openMembers` opens, and the Batch Size. */
export async function openWrite(ctx: IExecuteFunctions): Promise<WriteContext> {
	const members = await openMembers(ctx);
	return { ...members, batchSize: readBatchSize(ctx, members.options) };
}
