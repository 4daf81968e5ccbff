/**
 * Campaign Members in two node versions: version 1 keeps the parameters and the requests saved
 * workflows rely on; version 2 (the default for new nodes) maps Create or Update with n8n's
 * resource mapper, whose fields depend on the member API version.
 */
import type { IDataObject, INode, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { loadPackage, PACKAGE_NAME, useSandbox } from '../support';
import { mapperFields, requestsTo, runMembers } from './support';

const sb = useSandbox();
const TYPE = `${PACKAGE_NAME}.campaignMembers`;
const nodeType = (): INodeType => loadPackage().nodes.get(TYPE)!;

/** The parameters n8n keeps for a node of that version (those it shows, with their defaults). */
function shownParameters(typeVersion: number, parameters: IDataObject): string[] {
	const { description } = nodeType();
	const node: INode = {
		id: 'm',
		name: 'Members',
		type: TYPE,
		typeVersion,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
	};
	const kept = NodeHelpers.getNodeParameters(
		description.properties,
		node.parameters,
		true,
		false,
		node,
		description,
	);
	return Object.keys(kept ?? {}).sort();
}

describe('node versions', () => {
	it('offers versions 1 and 2, version 2 for new nodes', () => {
		expect(nodeType().description.version).toEqual([1, 2]);
		expect(nodeType().description.defaultVersion).toBe(2);
	});

	it('version 1 keeps the Create or Update parameters it had; version 2 has the mapper instead', () => {
		// Saved without `resource` (it came later): n8n fills its one value, as for every node.
		const upsert = { operation: 'upsert', apiVersion: 'v2' };
		expect(shownParameters(1, upsert)).toEqual(
			['apiVersion', 'autoMapNotice', 'mappingMode', 'operation', 'options', 'resource'].sort(),
		);
		expect(shownParameters(1, { ...upsert, mappingMode: 'defineBelow' })).toEqual(
			[
				'apiVersion',
				'isReceive',
				'mappingMode',
				'memberId',
				'name',
				'operation',
				'options',
				'phoneNumber',
				'resource',
			].sort(),
		);
		expect(shownParameters(2, upsert)).toEqual(
			['apiVersion', 'columns', 'operation', 'options', 'resource'].sort(),
		);
		// The other operations are the same in both versions.
		for (const operation of ['get', 'delete']) {
			const parameters = { operation, apiVersion: 'v2' };
			expect(shownParameters(2, parameters)).toEqual(shownParameters(1, parameters));
		}
	});

	it('the mapper starts on Map Each Column Manually with no values', () => {
		const columns = nodeType().description.properties.find((p) => p.name === 'columns');
		expect(columns?.type).toBe('resourceMapper');
		expect(columns?.default).toEqual({ mappingMode: 'defineBelow', value: null });
		expect(columns?.typeOptions?.loadOptionsDependsOn).toEqual(['apiVersion']);
		expect(columns?.typeOptions?.resourceMapper).toMatchObject({
			resourceMapperMethod: 'getMemberFields',
			mode: 'upsert',
			supportAutoMap: true,
			showTypeConversionOptions: true,
		});
	});

	it.each([
		['v2', 'phoneNumber', 'memberId'],
		['v1', 'memberId', 'phoneNumber'],
	] as const)(
		'API %s: the mapper lists the four fields, the one the service matches on (%s) first',
		async (apiVersion, key, other) => {
			const { fields } = await mapperFields(apiVersion);
			expect(fields.map((f) => f.id)).toEqual([key, other, 'isReceive', 'name']);
			expect(fields.filter((f) => f.canBeUsedToMatch).map((f) => f.id)).toEqual([key]);
			expect(fields.filter((f) => f.defaultMatch).map((f) => f.id)).toEqual([key]);
			expect(fields.filter((f) => f.required).map((f) => f.id)).toEqual([key, other]);
			const types = Object.fromEntries(fields.map((f) => [f.id, f.type]));
			expect(types).toEqual({
				memberId: 'string',
				phoneNumber: 'string',
				isReceive: 'boolean',
				name: 'string',
			});
			expect(fields.every((f) => f.display)).toBe(true);
		},
	);
});

describe('a workflow saved with version 1 sends what it sent before', () => {
	const input = [
		{ id: 'm1', phone: '01012345678', consent: 'Y', fullName: 'Kim' },
		{ id: 'm2', phone: '010-2222-3333', consent: 0 },
		{ id: 'm3', phone: '010 4444 5555', consent: true, fullName: '' },
	];

	it('define below (API v2), in chunks of the saved Batch Size', async () => {
		const { out, error } = await runMembers(sb, {
			typeVersion: 1,
			parameters: {
				operation: 'upsert',
				apiVersion: 'v2',
				mappingMode: 'defineBelow',
				memberId: '={{ $json.id }}',
				phoneNumber: '={{ $json.phone }}',
				isReceive: '={{ $json.consent }}',
				name: '={{ $json.fullName }}',
				options: { batchSize: 2 },
			},
			input,
		});
		expect(error).toBeUndefined();
		expect(requestsTo(sb, 'POST', '/v2/users/sms').map((r) => r.body)).toEqual([
			[
				{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: 'true', name: 'Kim' },
				{ memberId: 'm2', phoneNumber: '010-2222-3333', isReceive: 'false' },
			],
			[{ memberId: 'm3', phoneNumber: '010-4444-5555', isReceive: 'true' }],
		]);
		expect(out[0]).toHaveLength(3);
	});

	it('map automatically, the version 1 default (API v1)', async () => {
		const { out, error } = await runMembers(sb, {
			typeVersion: 1,
			parameters: { operation: 'upsert', apiVersion: 'v1' },
			input: input.map(({ id, phone, consent, fullName }) => ({
				memberId: id,
				phoneNumber: phone,
				isReceive: consent,
				name: fullName,
			})),
		});
		expect(error).toBeUndefined();
		expect(requestsTo(sb, 'POST', '/v1/users/sms').map((r) => r.body)).toEqual([
			[
				{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: true, name: 'Kim' },
				{ memberId: 'm2', phoneNumber: '010-2222-3333', isReceive: false },
				{ memberId: 'm3', phoneNumber: '010-4444-5555', isReceive: true },
			],
		]);
		expect(out[0]).toHaveLength(3);
	});

	it('a version 1 node ignores a mapper value it does not show', async () => {
		const { error } = await runMembers(sb, {
			typeVersion: 1,
			parameters: {
				operation: 'upsert',
				apiVersion: 'v2',
				columns: { mappingMode: 'defineBelow', value: { memberId: 'other' } },
			},
			input: [{ memberId: 'm1', phoneNumber: '010-1234-5678' }],
		});
		expect(error).toBeUndefined();
		expect(requestsTo(sb, 'POST', '/v2/users/sms')[0].body).toEqual([
			{ memberId: 'm1', phoneNumber: '010-1234-5678', isReceive: 'false' },
		]);
	});
});
