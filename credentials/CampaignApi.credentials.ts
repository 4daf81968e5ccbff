import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';
import { ACCOUNT_CODES, describeCode } from '../nodes/shared/codes';
import { baseUrlProblem } from '../nodes/shared/transport/credentials';

/**
 * The credential test reads one (non-existent) member's custom data: a harmless read that
 * every account may do. The service can answer HTTP 200 with a failing code, so each account
 * code is a rule that fails the test with the service's own meaning: as a number and as a
 * numeric string (both are seen), under `processCode` (the data and member APIs) and under
 * `code` (the triggered-send family: 1101, 1401-1405).
 */
const accountRules: IAuthenticateRuleResponseSuccessBody[] = ACCOUNT_CODES.flatMap((code) =>
	['processCode', 'code'].flatMap((key) =>
		[Number(code), code].map((value) => ({
			type: 'responseSuccessBody' as const,
			properties: {
				key,
				value,
				message: `${describeCode(code).message} (code ${code}). ${describeCode(code).hint}`,
			},
		})),
	),
);

/**
 * When the service answers an account failure with an HTTP error status, n8n checks only the
 * status (not the body): say what those statuses mean here instead of a bare "Unauthorized".
 */
const statusRules: IAuthenticateRuleResponseCode[] = [401, 403].map((value) => ({
	type: 'responseCode' as const,
	properties: {
		value,
		message: `The service refused the API key (HTTP ${value}): the key is missing or wrong, or the customer account is unknown, not approved or expired. Check the key in the service site settings, under key management.`,
	},
}));

/**
 * A redirect is not followed (the request carries the API key): a 3xx fails the test with what
 * to fix. (The nodes name the host it pointed to; a rule's words are fixed text.)
 */
const redirectRules: IAuthenticateRuleResponseCode[] = [301, 302, 303, 307, 308].map((value) => ({
	type: 'responseCode' as const,
	properties: {
		value,
		message: `The Base URL answered with a redirect (HTTP ${value}); redirects are never followed, so the API key was not sent on. Set the Base URL to the address the service answers at itself (for example https:// instead of http://, or the final host name).`,
	},
}));

/**
 * The base URL the test calls, as an n8n expression: refused with the nodes' own words by the
 * nodes' own rule (baseUrlProblem's source runs inside the expression, which has no URL class),
 * then trimmed and without trailing slashes. n8n's expression engine drops any error an
 * expression throws except its own expression errors, so the expression takes one from
 * `$ifEmpty()` called without arguments and gives it the rule's words.
 */
const testBaseUrl = `={{ (() => { const problem = (${baseUrlProblem.toString()})($credentials.baseUrl); if (problem !== "") { try { $ifEmpty(); } catch (error) { error.message = "Base URL in the Campaign API credential " + problem; throw error; } } return String($credentials.baseUrl).trim().replace(/\\/+$/, ""); })() }}`;

/**
 * No `authenticate`: n8n would add the key to any request made with this credential, wherever it
 * points (n8n's HTTP Request node and its tool offer such credentials to every URL). The package's
 * transport adds the key itself, only to URLs it builds from the Base URL
 * (nodes/shared/transport/call.ts); the test request names it in its own headers.
 */
export class CampaignApi implements ICredentialType {
	name = 'campaignApi';

	displayName = 'Campaign API';

	icon: Icon = { light: 'file:../icons/campaign.svg', dark: 'file:../icons/campaign.dark.svg' };

	documentationUrl =
		'https://github.com/campaign-messaging/n8n-nodes-campaign-messaging#credentials';

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

	test: ICredentialTestRequest = {
		request: {
			baseURL: testBaseUrl,
			url: '/v2/custom',
			method: 'GET',
			qs: { memberId: 'n8n-credential-test' },
			headers: { 'x-api-key': '={{$credentials.apiKey}}' },
			disableFollowRedirect: true,
		},
		// Other HTTP errors (a wrong Base URL answering 404) fail the test by their status already.
		// n8n's tester checks each rule by its type (status rules on an HTTP error, body rules on a
		// success), so one list may hold both; its type only names lists of one kind.
		rules: [
			...statusRules,
			...redirectRules,
			...accountRules,
		] as unknown as IAuthenticateRuleResponseSuccessBody[],
	};
}
