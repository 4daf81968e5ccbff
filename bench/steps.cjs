/**
 * What the workloads run, as workflows: each step list is the job done with this package, the
 * same job done the way a user would without it (n8n's own nodes), or n8n's own cost for the same
 * items (a No Operation node). A workload (workloads.cjs) names its step list and item shape; one
 * definition serves the in-process engine (worker.cjs) and the n8n command line (n8n-execute.cjs).
 * The last node of a step list holds the workload's result rows.
 */
'use strict';
const { autoMappedCreate } = require('../scripts/queue/workflows.js');

const PKG = 'n8n-nodes-campaign-messaging';
const SOURCE_TYPE = 'bench.source';

/** The campaign the send workloads use, and the custom data keys the write workloads use. */
const CAMPAIGN = 'BENCH';
const CUSTOM_KEYS = {
	name: 'string',
	points: 'number',
	joined: 'date',
	vip: 'string',
	grade: 'string',
};

/**
 * Item generators, as source text so that the n8n command line can run the very same code in a
 * Code node. Realistic CRM rows: text, numbers, dates, booleans.
 */
const GENERATORS = {
	custom: `(i) => ({ memberId: 'm' + String(i).padStart(6, '0'), name: 'Kim ' + i, points: i % 1000, joined: '2024-' + String(1 + (i % 12)).padStart(2, '0') + '-' + String(1 + (i % 28)).padStart(2, '0'), vip: i % 7 === 0, grade: ['gold', 'silver', 'bronze'][i % 3] })`,
	members: `(i) => ({ memberId: 'm' + String(i).padStart(6, '0'), phoneNumber: '010-' + String(i).padStart(8, '0').slice(0, 4) + '-' + String(i).padStart(8, '0').slice(4), isReceive: i % 2 === 0, name: 'Kim ' + i })`,
	send: `(i) => ({ campaign: '${CAMPAIGN}', phone: '8210' + String(i).padStart(8, '0'), name: 'Kim ' + i })`,
	entry: `(i) => ({ memberId: 'm' + String(Math.floor(i / 5)).padStart(6, '0'), key: ['name', 'points', 'joined', 'vip', 'grade'][i % 5], value: 'v' + i })`,
	one: `(i) => ({ run: i })`,
};

/** Fills a custom data store with `members` members of the five keys (the getAll workloads). */
function fillCustom(store, members) {
	const make = new Function(`return ${GENERATORS.custom}`)();
	for (let i = 0; i < members; i++) {
		const row = make(i);
		store.set(
			row.memberId,
			new Map([
				['name', row.name],
				['points', row.points],
				['joined', row.joined],
				['vip', String(row.vip)],
				['grade', row.grade],
			]),
		);
	}
}

const position = (n) => [n * 220, 0];

function node(name, type, typeVersion, parameters, index, extra = {}) {
	return {
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type,
		typeVersion,
		position: position(index),
		parameters,
		...extra,
	};
}

function chain(nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return connections;
}

const CREDENTIALS = { campaignApi: { id: 'benchCampaign', name: 'Bench Campaign' } };

/** n8n's HTTP Request node POSTing `jsonBody` (an expression) to `path`, the key as a header: what a user builds. */
function httpPostNode({ baseUrl, apiKey }, path, jsonBody, options, index) {
	return node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: `${baseUrl}${path}`,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'x-api-key', value: apiKey }] },
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody,
			options,
		},
		index,
	);
}

/** The package's nodes and n8n's own, by what each workload does after its source. */
const STEPS = {
	noop: () => [node('No Operation', 'n8n-nodes-base.noOp', 1, {}, 1)],
	customCreate: () => [
		node('Campaign Custom Data', `${PKG}.campaignCustomData`, 1, autoMappedCreate(), 1, {
			credentials: CREDENTIALS,
		}),
	],
	customGetAll: () => [
		node(
			'Campaign Custom Data',
			`${PKG}.campaignCustomData`,
			1,
			{ operation: 'getAll', returnAll: true, options: {} },
			1,
			{
				credentials: CREDENTIALS,
			},
		),
	],
	membersUpsert: () => [
		node(
			'Campaign Members',
			`${PKG}.campaignMembers`,
			1,
			{ apiVersion: 'v2', operation: 'upsert', mappingMode: 'autoMapInputData', options: {} },
			1,
			{ credentials: CREDENTIALS },
		),
	],
	send: ({ concurrency, deduplicationKey }) => [
		node(
			'Campaign Alimtalk',
			`${PKG}.campaignAlimtalk`,
			1,
			{
				operation: 'send',
				campaignKey: CAMPAIGN,
				phoneNumber: '={{ $json.phone }}',
				variablesInput: 'fields',
				properties: { property: [{ key: 'name', value: '={{ $json.name }}' }] },
				options: deduplicationKey ? { concurrency, deduplicationKey } : { concurrency },
			},
			1,
			{ credentials: CREDENTIALS },
		),
	],
	/** (a) One HTTP Request per item: the body of one member, built with an expression. */
	httpPerItem: ({ baseUrl, apiKey, batchSize, batchInterval }) => [
		httpPostNode(
			{ baseUrl, apiKey },
			'/v2/custom',
			'={{ JSON.stringify({ [$json.memberId]: { name: $json.name, points: $json.points, joined: $json.joined, vip: String($json.vip), grade: $json.grade } }) }}',
			// By default n8n starts every item's request at once; Batching paces the starts (it
			// never waits for an answer before the next batch).
			batchSize ? { batching: { batch: { batchSize, batchInterval } } } : {},
			1,
		),
	],
	/** (b) A Code node that builds 1,000-member bodies, then one HTTP Request per body. */
	codeHttp: ({ baseUrl, apiKey }) => [
		node(
			'Build Bodies',
			'n8n-nodes-base.code',
			2,
			{
				mode: 'runOnceForAllItems',
				language: 'javaScript',
				jsCode: [
					'const items = $input.all();',
					'const out = [];',
					'for (let start = 0; start < items.length; start += 1000) {',
					'  const body = {};',
					'  for (const { json } of items.slice(start, start + 1000)) {',
					'    body[json.memberId] = { name: json.name, points: json.points, joined: json.joined, vip: String(json.vip), grade: json.grade };',
					'  }',
					'  out.push({ json: { body } });',
					'}',
					'return out;',
				].join('\n'),
			},
			1,
		),
		httpPostNode({ baseUrl, apiKey }, '/v2/custom', '={{ JSON.stringify($json.body) }}', {}, 2),
	],
	/** The HTTP Request node's own pagination (seq from the response, done when nextPageSeq is empty), then Split Out. */
	httpPaginate: ({ baseUrl, apiKey }) => [
		node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			4.2,
			{
				method: 'GET',
				url: `${baseUrl}/v2/custom`,
				sendHeaders: true,
				headerParameters: { parameters: [{ name: 'x-api-key', value: apiKey }] },
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [
									{
										type: 'qs',
										name: 'seq',
										value: '={{ $response.body?.processValue?.nextPageSeq ?? "" }}',
									},
								],
							},
							paginationCompleteWhen: 'other',
							completeExpression: '={{ !$response.body.processValue.nextPageSeq }}',
						},
					},
				},
			},
			1,
		),
		node(
			'Split Out',
			'n8n-nodes-base.splitOut',
			1,
			{ fieldToSplitOut: 'processValue.dataList', include: 'noOtherFields', options: {} },
			2,
		),
	],
	/** Sends with the HTTP Request node's batching: `batchSize` requests every `batchInterval` ms. */
	httpSendBatched: ({ baseUrl, apiKey, batchSize, batchInterval }) => [
		httpPostNode(
			{ baseUrl, apiKey },
			'/messages/alimtalk/trigger',
			`={{ JSON.stringify({ campaignKey: '${CAMPAIGN}', users: [{ phoneNumber: $json.phone, properties: { name: $json.name } }] }) }}`,
			{ batching: { batch: { batchSize, batchInterval } } },
			1,
		),
	],
	/** n8n's own cost of reading the send node's parameters (the same expressions) for every item, without sending. */
	readSendParameters: () => {
		const { credentials, ...send } = STEPS.send({ concurrency: 1 })[0];
		return [
			{ ...send, name: 'Read Parameters', id: 'read-parameters', type: 'bench.readSendParameters' },
		];
	},
	/**
	 * The least a node can do for the same create: 1,000-member bodies built straight from the
	 * items (no checks, no merging, no failure rows) sent through n8n's request helper, one
	 * Success-like item per member. Separates the engine's cost of 100 bulk requests and 100,000
	 * output items from what the package adds.
	 */
	minimalBulkCreate: () => [
		node('Minimal Bulk', 'bench.minimalBulkCreate', 1, {}, 1, { credentials: CREDENTIALS }),
	],
	/** The machine's and the sandbox's own ceiling: the same sends with Node's http client (no n8n), `concurrency` at a time. */
	rawHttpSend: ({ concurrency }) => [node('Raw HTTP', 'bench.rawHttpSend', 1, { concurrency }, 1)],
	/** The same sends through n8n's request helper with no checks: n8n's own cost of a request. */
	minimalSend: ({ concurrency }) => [
		node('Minimal Send', 'bench.minimalSend', 1, { concurrency }, 1, { credentials: CREDENTIALS }),
	],
};

/**
 * The in-process workflow: the bench source (items generated inside the run, so that the
 * engine's cost of making them is in every workload alike) and the steps.
 */
function inProcessWorkflow(workload, env) {
	const source = node(
		'Source',
		SOURCE_TYPE,
		1,
		{ shape: workload.shape, count: workload.sourceCount ?? workload.items },
		0,
	);
	const steps = STEPS[workload.steps](env);
	const nodes = [source, ...steps.map((n, i) => ({ ...n, position: position(i + 1) }))];
	return { nodes, connections: chain(nodes), resultNode: steps[steps.length - 1].name };
}

/** The command-line workflow: Manual Trigger, a Code node that generates the items, then the steps. */
function cliWorkflow(workload, env, id) {
	const count = workload.sourceCount ?? workload.items;
	const trigger = node('Start', 'n8n-nodes-base.manualTrigger', 1, {}, 0);
	const generate = node(
		'Generate Items',
		'n8n-nodes-base.code',
		2,
		{
			mode: 'runOnceForAllItems',
			language: 'javaScript',
			jsCode: `const make = ${GENERATORS[workload.shape]};\nreturn Array.from({ length: ${count} }, (_, i) => ({ json: make(i) }));`,
		},
		1,
	);
	const steps = STEPS[workload.steps](env).map((n, i) => ({ ...n, position: position(i + 2) }));
	const nodes = [trigger, generate, ...steps];
	return {
		id,
		name: `bench ${workload.id}`,
		active: false,
		isArchived: false,
		nodes,
		connections: chain(nodes),
		settings: {
			executionOrder: 'v1',
			saveDataSuccessExecution: 'none',
			saveManualExecutions: false,
		},
		pinData: {},
		resultNode: steps[steps.length - 1].name,
		measuredNodes: steps.map((n) => n.name),
	};
}

/** The item counts a step list's last node should output for `items` input items. */
function expectedOutputs(steps, items) {
	if (steps === 'codeHttp') return [Math.ceil(items / 1000)];
	// The package's write nodes: Success and Failed.
	if (['customCreate', 'membersUpsert', 'send'].includes(steps)) return [items, 0];
	return [items];
}

module.exports = {
	PKG,
	SOURCE_TYPE,
	CAMPAIGN,
	CUSTOM_KEYS,
	GENERATORS,
	STEPS,
	fillCustom,
	inProcessWorkflow,
	cliWorkflow,
	expectedOutputs,
};
