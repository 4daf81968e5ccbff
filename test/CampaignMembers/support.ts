/**
 * Shared by the member workflow tests: a runner for the Campaign Members node through the real
 * engine (test/support has the sandbox fixture and the pairing checks), and small readers.
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeExecutionData,
	ResourceMapperFields,
} from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/server';
import { loadPackage, PACKAGE_NAME, runNode, withFast } from '../support';

export interface MembersRun {
	parameters: IDataObject;
	input: IDataObject[];
	memberApiVersion?: 'any' | 'v1' | 'v2';
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** Send a key the sandbox does not know (an unknown customer, -1001). */
	wrongKey?: boolean;
	/** The node's version (default 1; 2 maps Create or Update with the resource mapper). */
	typeVersion?: number;
	/** Run the node as n8n runs it for an AI agent (its type with the suffix Tool). */
	asTool?: boolean;
}

export async function runMembers(sb: Sandbox, run: MembersRun) {
	const type = run.asTool ? `${PACKAGE_NAME}.campaignMembersTool` : 'campaignMembers';
	return await runNode({
		type,
		typeVersion: run.typeVersion,
		extraTypes: run.asTool
			? { [type]: loadPackage().nodes.get(`${PACKAGE_NAME}.campaignMembers`)! }
			: undefined,
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

/** One member row per value of isReceive: m0, m1, … with distinct phone numbers. */
export const consentRows = (forms: readonly unknown[]): IDataObject[] =>
	forms.map(
		(isReceive, i) => ({ memberId: `m${i}`, phoneNumber: phoneFor(i), isReceive }) as IDataObject,
	);

/** Requests the sandbox logged for a method and path. */
export function requestsTo(sb: Sandbox, method: string, path: string) {
	return sb.requests.filter((r) => r.method === method && r.path === path);
}

/** The fields the editor gets from the node's resource mapper method for an API Version. */
export async function mapperFields(apiVersion: 'v1' | 'v2'): Promise<ResourceMapperFields> {
	const node = loadPackage().nodes.get(`${PACKAGE_NAME}.campaignMembers`)!;
	const method = node.methods!.resourceMapping!.getMemberFields;
	const ctx = { getNodeParameter: (name: string) => (name === 'apiVersion' ? apiVersion : '') };
	return await method.call(ctx as unknown as ILoadOptionsFunctions);
}

/**
 * The version 2 mapper's value as the editor saves it: the mode, the values (expressions or
 * fixed), the matching field and the schema of that API version, and the type options.
 */
export async function columns(
	apiVersion: 'v1' | 'v2',
	mappingMode: 'defineBelow' | 'autoMapInputData',
	value: IDataObject | null,
	attemptToConvertTypes = false,
): Promise<IDataObject> {
	const { fields } = await mapperFields(apiVersion);
	return {
		mappingMode,
		value,
		matchingColumns: [apiVersion === 'v1' ? 'memberId' : 'phoneNumber'],
		schema: fields.map((field) => ({ ...field, removed: false })),
		attemptToConvertTypes,
		convertFieldsToString: true,
	};
}
