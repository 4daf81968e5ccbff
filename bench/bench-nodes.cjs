/**
 * Node types that exist only in the benchmark: the source that generates a workload's items, and
 * the references that separate n8n's own costs from the package's (reading the send node's
 * parameters without sending, sends with Node's own http client, a minimal send and a minimal bulk
 * create through n8n's request helper without any checks).
 */
'use strict';
const { CAMPAIGN, GENERATORS } = require('./steps.cjs');

/** The bench source node: `count` items of a generated shape. */
function sourceNodeType() {
	const compiled = {};
	return {
		description: {
			displayName: 'Bench Source',
			name: 'benchSource',
			group: ['input'],
			version: 1,
			description: 'Emits generated items',
			defaults: { name: 'Source' },
			inputs: [],
			outputs: ['main'],
			properties: [
				{ displayName: 'Shape', name: 'shape', type: 'string', default: 'one' },
				{ displayName: 'Count', name: 'count', type: 'number', default: 1 },
			],
		},
		async execute() {
			const shape = this.getNodeParameter('shape', 0);
			const count = this.getNodeParameter('count', 0);
			compiled[shape] = compiled[shape] ?? new Function(`return ${GENERATORS[shape]}`)();
			const make = compiled[shape];
			const items = new Array(count);
			for (let i = 0; i < count; i++) items[i] = { json: make(i) };
			return [items];
		},
	};
}

/**
 * Reads, for every item, the parameters the Alimtalk send node reads before sending (campaign
 * key, phone number, variables): what n8n's expression engine costs for the same items.
 */
function readSendParametersType(sendNodeType) {
	return {
		description: {
			...sendNodeType.description,
			name: 'benchReadSendParameters',
			displayName: 'Bench Read Send Parameters',
			credentials: [],
			outputs: ['main'],
		},
		async execute() {
			const items = this.getInputData();
			const out = new Array(items.length);
			for (let i = 0; i < items.length; i++) {
				out[i] = {
					json: {
						campaignKey: this.getNodeParameter('campaignKey', i, ''),
						phoneNumber: this.getNodeParameter('phoneNumber', i, ''),
						variablesInput: this.getNodeParameter('variablesInput', i, 'fields'),
						properties: this.getNodeParameter('properties.property', i, []),
					},
					pairedItem: { item: i },
				};
			}
			return [out];
		},
	};
}

/**
 * The same sends as the Alimtalk node makes, with Node's own http client and a new connection a
 * request (as n8n's request helper does), `concurrency` in flight: what the sandbox and the
 * machine allow without n8n.
 */
function rawHttpSendType({ baseUrl, apiKey }) {
	const http = require('node:http');
	const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
	const post = (json) =>
		new Promise((resolve, reject) => {
			const body = Buffer.from(
				JSON.stringify({
					campaignKey: CAMPAIGN,
					users: [{ phoneNumber: json.phone, properties: { name: json.name } }],
				}),
			);
			const req = http.request(
				`${baseUrl}/messages/alimtalk/trigger`,
				{
					agent,
					method: 'POST',
					headers: {
						'x-api-key': apiKey,
						'content-type': 'application/json',
						'content-length': body.length,
					},
				},
				(res) => {
					let text = '';
					res.setEncoding('utf8');
					res.on('data', (d) => (text += d));
					res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
				},
			);
			req.on('error', reject);
			req.end(body);
		});
	return benchNodeType(
		'benchRawHttpSend',
		'Bench Raw HTTP Send',
		'Sends with node:http',
		async function execute() {
			const items = this.getInputData();
			return [
				await eachInParallel(items.length, this.getNodeParameter('concurrency', 0), async (i) => ({
					json: await post(items[i].json),
					pairedItem: { item: i },
				})),
			];
		},
		{ properties: [CONCURRENCY_PROPERTY] },
	);
}

/** `task(i)` for every index, `concurrency` at a time; results in index order. */
async function eachInParallel(count, concurrency, task) {
	const out = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const i = next++;
			out[i] = await task(i);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return out;
}

/** A bench-only node type: `name` as its type name, `execute` as given. */
function benchNodeType(
	name,
	displayName,
	description,
	execute,
	{ credentials = false, properties = [] } = {},
) {
	return {
		description: {
			displayName,
			name,
			group: ['output'],
			version: 1,
			description,
			defaults: { name: displayName.replace(/^Bench /, '') },
			inputs: ['main'],
			outputs: ['main'],
			...(credentials ? { credentials: [{ name: 'campaignApi', required: true }] } : {}),
			properties,
		},
		execute,
	};
}

/**
 * POSTs a JSON body through n8n's request helper with the credential, as plainly as a node can.
 * The credential has no `authenticate`: the key goes in the header as the package's transport puts it.
 */
async function postThroughN8n(ctx, url, body) {
	const { apiKey } = await ctx.getCredentials('campaignApi');
	const response = await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'campaignApi', {
		method: 'POST',
		url,
		body: Buffer.from(JSON.stringify(body), 'utf8'),
		headers: {
			Accept: 'application/json',
			'Content-Type': 'application/json',
			'x-api-key': apiKey,
		},
		encoding: 'text',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: 30000,
	});
	return { status: response.statusCode, body: JSON.parse(response.body) };
}

const CONCURRENCY_PROPERTY = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	default: 1,
};

/** See STEPS.minimalSend: one send an item through n8n's request helper, nothing else. */
function minimalSendType({ baseUrl }) {
	return benchNodeType(
		'benchMinimalSend',
		'Bench Minimal Send',
		"Sends through n8n's request helper without checks",
		async function execute() {
			const items = this.getInputData();
			return [
				await eachInParallel(items.length, this.getNodeParameter('concurrency', 0), async (i) => {
					const { phone, name } = items[i].json;
					const { status } = await postThroughN8n(this, `${baseUrl}/messages/alimtalk/trigger`, {
						campaignKey: CAMPAIGN,
						users: [{ phoneNumber: phone, properties: { name } }],
					});
					return { json: { status }, pairedItem: { item: i } };
				}),
			];
		},
		{ credentials: true, properties: [CONCURRENCY_PROPERTY] },
	);
}

/** See STEPS.minimalBulkCreate. */
function minimalBulkCreateType({ baseUrl }) {
	return benchNodeType(
		'benchMinimalBulkCreate',
		'Bench Minimal Bulk',
		'Sends 1,000-member bodies without checks',
		async function execute() {
			const items = this.getInputData();
			const out = [];
			for (let start = 0; start < items.length; start += 1000) {
				const body = {};
				const part = [];
				for (let i = start; i < Math.min(items.length, start + 1000); i++) {
					const json = items[i].json;
					const values = {
						name: json.name,
						points: json.points,
						joined: json.joined,
						vip: String(json.vip),
						grade: json.grade,
					};
					body[json.memberId] = values;
					part.push({
						json: { memberId: json.memberId, keys: Object.keys(values), values },
						pairedItem: { item: i },
					});
				}
				const response = await postThroughN8n(this, `${baseUrl}/v2/custom`, body);
				if (response.body.processCode !== 0)
					throw new Error(`not stored: ${JSON.stringify(response.body)}`);
				for (const item of part) out.push(item);
			}
			return [out];
		},
		{ credentials: true },
	);
}

module.exports = {
	sourceNodeType,
	readSendParametersType,
	rawHttpSendType,
	minimalSendType,
	minimalBulkCreateType,
};
