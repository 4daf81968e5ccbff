/**
 * Parameters that several operations of the Members node show, each built once. An operation
 * file picks what it shows and adds its own `displayOptions`.
 */
import type { INodeProperties } from 'n8n-workflow';

export const normalizePhoneOption: INodeProperties = {
	displayName: 'Normalize Phone Numbers',
	name: 'normalizePhoneNumbers',
	type: 'boolean',
	default: true,
	description:
		'Whether to convert Korean mobile numbers such as 01012345678, 010 1234 5678 or +82 10-1234-5678 to the hyphenated form 010-1234-5678 before sending. A value that cannot be a mobile number is not sent: its item goes to the Failed output.',
};

/** The phone number parameter of an operation, with its own words and, for a write, required. */
export function phoneNumberField(
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		placeholder: '010-1234-5678',
		description,
		...extra,
	};
}
