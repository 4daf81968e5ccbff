import type {
	IAuthenticateGeneric,
	IAuthenticateRuleResponseSuccessBody,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';
import { ACCOUNT_CODES, describeCode } from '../nodes/shared/codes';

/**
 * The credential test reads one (non-existent) member's custom data: a harmless read that
 * every account may do. The service can answer HTTP 200 with a failing `processCode`, so each
 * account code (as a number and as a numeric string, both are seen) is a rule that fails the
 * test with the service's own meaning.
 */
const accountRules: IAuthenticateRuleResponseSuccessBody[] = ACCOUNT_CODES.flatMap((code) =>
	[Number(code), code].map((value) => ({
		type: 'responseSuccessBody' as const,
		properties: {
			key: 'processCode',
			value,
			message: `${describeCode(code).message} (code ${code}). ${describeCode(code).hint}`,
		},
	})),
);

export class CampaignApi implements ICredentialType {
	name = 'campaignApi';

	displayName = 'Campaign API';

	icon: Icon = { light: 'file:../icons/campaign.svg', dark: 'file:../icons/campaign.dark.svg' };

	documentationUrl = 'https://github.com/campaign-messaging/n8n-nodes-campaign-messaging#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Address of the campaign service API, as given in its documentation (must be https; http is allowed only for localhost)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Issued in the service site settings, under key management',
		},
		{
			displayName: 'Member API Version',
			name: 'memberApiVersion',
			type: 'options',
			default: 'any',
			options: [
				{ name: 'Any', value: 'any', description: 'Do not check which member API the nodes use' },
				{ name: 'V1 Only', value: 'v1', description: 'This account uses member API v1' },
				{ name: 'V2 Only', value: 'v2', description: 'This account uses member API v2' },
			],
			description:
				'The service forbids using member API v1 and v2 on one account. Set the version this account uses and a Campaign Members node set to the other version fails before sending anything.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'x-api-key': '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: '/v2/custom',
			method: 'GET',
			qs: { memberId: 'n8n-credential-test' },
		},
		// HTTP errors (a wrong Base URL answering 404, a 401) fail the test by their status already.
		rules: accountRules,
	};
}
