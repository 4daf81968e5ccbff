/**
 * The Campaign credential's key goes nowhere but to its Base URL, from any node (README,
 * "Credentials"): the credential has no `authenticate` for n8n to apply, so n8n adds the key to no
 * request, whichever node asks and wherever it points (n8n's HTTP Request node and its tool, another
 * package's node), and n8n's HTTP Request node does not offer it (its Credential Type list takes
 * only credentials with `authenticate` or `genericAuth`, or OAuth ones). Only the package's own
 * transport puts the key on a request, to a URL it builds from the Base URL. In real n8n 2.41.1
 * with n8n's own HTTP Request tool: test/e2e/mcp.e2e.ts.
 */
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { loadPackage, runNode, useSandbox } from '../support';
import { startScripted, type ScriptedServer } from '../support/scripted-server';

const sb = useSandbox();
let elsewhere: ScriptedServer | undefined;

afterEach(async () => {
	await elsewhere?.close();
	elsewhere = undefined;
});

/** A node of another package that declares the Campaign credential and asks n8n to authenticate a request to `url`. */
const other: INodeType = {
	description: {
		displayName: 'Other Package',
		name: 'otherPackage',
		group: ['transform'],
		version: 1,
		description: 'Asks n8n for a request with the Campaign credential applied',
		defaults: { name: 'Other' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'campaignApi', required: true }],
		properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
	} as unknown as INodeType['description'],
	async execute(this: IExecuteFunctions) {
		const url = this.getNodeParameter('url', 0) as string;
		await this.helpers.httpRequestWithAuthentication.call(this, 'campaignApi', { url });
		return [[{ json: {}, pairedItem: { item: 0 } }]];
	},
};

const runOther = async (url: string) =>
	await runNode({
		type: 'other.otherPackage',
		extraTypes: { 'other.otherPackage': other },
		parameters: { url },
		input: [{}],
		credentials: { baseUrl: sb.baseUrl, apiKey: sb.apiKey },
	});

describe('the Campaign credential keeps its key to its Base URL', () => {
	it('gives n8n nothing to apply to a request: no authenticate, no generic auth', () => {
		const credential = loadPackage().credentials.get('campaignApi');
		expect(credential).toBeDefined();
		expect(credential).not.toHaveProperty('authenticate');
		expect(credential).not.toHaveProperty('genericAuth');
	});

	it('another node asking n8n for an authenticated request to another host: it arrives without the key', async () => {
		elsewhere = await startScripted(() => ({ body: { ok: true } }));
		const { error } = await runOther(`${elsewhere.baseUrl}/collect`);
		expect(error).toBeUndefined();
		expect(elsewhere.seen).toHaveLength(1);
		expect(elsewhere.seen[0].headers).not.toHaveProperty('x-api-key');
		expect(JSON.stringify(elsewhere.seen[0])).not.toContain(sb.apiKey);
	});

	it('the same to the Base URL itself: no key either', async () => {
		await runOther(`${sb.baseUrl}/v2/custom?memberId=m-1`);
		expect(sb.requests.map((r) => [r.path, r.headers['x-api-key']])).toEqual([
			['/v2/custom', undefined],
		]);
	});
});
