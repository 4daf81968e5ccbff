/**
 * Shared by the send suites (send.test.ts, send-concurrency.test.ts, send-failures.test.ts): the
 * sandbox with its campaigns, the check that nothing logged holds the key, and a runner of the
 * send through the real engine.
 */
import type { IDataObject } from 'n8n-workflow';
import { logLines, runNode, useSandbox, withFast } from '../support';

export const phone = (i: number) => `8210${String(10000000 + i).slice(-8)}`;

/**
 * The fixture of a send suite, called once at the top of the file: a sandbox (with an expired
 * and a no-permission account) holding the campaigns WELCOME (variable `name`) and BLOCKED
 * before each test, and after each test the check that n8n logged nothing holding the key.
 * `send` runs the send with the sandbox's credential unless given another.
 */
export function useSendFixture() {
	const sb = useSandbox({ accounts: { 'expired-key': 'expired', 'unknown-perm': 'noPermission' } });
	let logged = 0;
	afterEach(() => {
		// Nothing n8n logged during this test holds the key (the test fails on its own).
		const fresh = logLines.slice(logged);
		logged = logLines.length;
		expect(fresh.filter((line) => line.includes(sb.apiKey))).toEqual([]);
	});
	beforeEach(() => {
		sb.addCampaign('WELCOME', { requiredVariables: ['name'] });
		sb.addCampaign('BLOCKED', { templateState: 'blocked' });
	});

	async function send(
		input: IDataObject[],
		parameters: IDataObject = {},
		credentials?: IDataObject,
	) {
		return await runNode({
			type: 'campaignAlimtalk',
			parameters: withFast({
				operation: 'send',
				campaignKey: '={{$json.campaign}}',
				phoneNumber: '={{$json.phone}}',
				properties: { property: [{ key: 'name', value: '={{$json.name}}' }] },
				...parameters,
			}),
			input,
			credentials: (credentials ?? { baseUrl: sb.baseUrl, apiKey: sb.apiKey }) as never,
		});
	}

	return { sb, send };
}
