/**
 * What the editor calls for the resource mapper of Create or Update (node version 2): the member
 * fields of a save row, per member API version, the one the service matches on first. The rows
 * the mapper gives are read and checked in helpers/mapper.ts.
 */
import type {
	FieldType,
	ILoadOptionsFunctions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';
import type { ApiVersion } from '../helpers/api-versions';
import type { RawMemberRow } from '../helpers/rows';

/** The method under `methods.resourceMapping` of the node that lists the fields. */
export const FIELDS_METHOD = 'getMemberFields';

export interface FieldInfo {
	id: keyof RawMemberRow;
	displayName: string;
	type: FieldType;
	required: boolean;
}

/**
 * The four fields of a save row (docs/service-rules.md#members). Receives SMS is a boolean in both
 * versions: v2 sends it as the text "true"/"false", which the node writes (api-versions.ts).
 */
export const MEMBER_FIELDS: readonly FieldInfo[] = [
	{ id: 'memberId', displayName: 'Member ID', type: 'string', required: true },
	{ id: 'phoneNumber', displayName: 'Phone Number', type: 'string', required: true },
	{ id: 'isReceive', displayName: 'Receives SMS', type: 'boolean', required: false },
	{ id: 'name', displayName: 'Name', type: 'string', required: false },
];

/** The field the service finds a member by: the member ID in v1, the phone number in v2. */
export const keyField = (version: ApiVersion): keyof RawMemberRow =>
	version === 'v1' ? 'memberId' : 'phoneNumber';

/** The mapper's fields for a member API version, the one the service matches on first. */
export function memberFields(version: ApiVersion): ResourceMapperField[] {
	const key = keyField(version);
	const ordered = [...MEMBER_FIELDS].sort((a, b) => Number(b.id === key) - Number(a.id === key));
	return ordered.map((field) => ({
		...field,
		display: true,
		defaultMatch: field.id === key,
		canBeUsedToMatch: field.id === key,
	}));
}

/** The method (`FIELDS_METHOD`): the fields for the API Version the node is set to. */
export async function getMemberFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const version = this.getNodeParameter('apiVersion', 'v2') === 'v1' ? 'v1' : 'v2';
	return { fields: memberFields(version) };
}
