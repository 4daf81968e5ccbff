/**
 * The workflows the queue-mode tests, `npm run start:queue` and the benchmark run, built in one
 * place: a webhook-triggered Alimtalk send, a generated-rows custom data sync, and a long send
 * run. Each uses the credential "Campaign Sandbox" (SANDBOX_CREDENTIAL in scripts/runtime/).
 */
'use strict';
const crypto = require('node:crypto');
const { SANDBOX_CREDENTIAL } = require('../runtime/index.js');

const PKG = 'n8n-nodes-campaign-messaging';
const CREDENTIALS = { campaignApi: { id: SANDBOX_CREDENTIAL.id, name: SANDBOX_CREDENTIAL.name } };

/** The phone number of event `i` (distinct for i below 10^8). */
const phoneOf = (i) => `8210${String(i).padStart(8, '0')}`;

function node(name, type, typeVersion, parameters, index, extra = {}) {
	const id = `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
	return { id, name, type, typeVersion, position: [index * 240, 0], parameters, ...extra };
}

function workflow(name, nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return { name, nodes, connections, settings: { executionOrder: 'v1' }, pinData: {} };
}

function sendNode(index, { campaignKey, phone, properties, concurrency, packageName = PKG }) {
	return node(
		'Campaign Alimtalk',
		`${packageName}.campaignAlimtalk`,
		1,
		{
			operation: 'send',
			campaignKey,
			phoneNumber: phone,
			variablesInput: 'fields',
			properties: { property: Object.entries(properties).map(([key, value]) => ({ key, value })) },
			options: { concurrency },
		},
		index,
		{ credentials: CREDENTIALS },
	);
}

/**
 * Webhook (POST /webhook/<path>, answered at once) -> Campaign Alimtalk send of the event's
 * phone number, with the event id and n8n's execution id as variables, so the sandbox's record
 * of each message names the event and the execution that sent it. `packageName` is the package
 * the node type comes from (a scoped copy has its own).
 */
function webhookSendWorkflow({
	path,
	campaignKey,
	webhookId = webhookIdFor(path),
	concurrency = 5,
	packageName = PKG,
}) {
	return workflow(`queue: webhook send (${path})`, [
		node(
			'Webhook',
			'n8n-nodes-base.webhook',
			2,
			{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			0,
			{
				webhookId,
			},
		),
		sendNode(1, {
			campaignKey,
			phone: '={{ $json.body.phoneNumber }}',
			properties: { eventId: '={{ $json.body.eventId }}', execution: '={{ $execution.id }}' },
			concurrency,
			packageName,
		}),
	]);
}

/** A webhook id (a UUID) that stays the same for one path. */
function webhookIdFor(path) {
	const hex = crypto.createHash('sha256').update(path).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The body of webhook event `i`. */
const eventBody = (i, prefix = 'evt') => ({ eventId: `${prefix}-${i}`, phoneNumber: phoneOf(i) });

/** A Code node that emits `count` generated items from `generator` (source text of `(i) => json`). */
function generatorNode(index, count, generator) {
	const jsCode = `const make = ${generator};\nconst out = [];\nfor (let i = 0; i < ${count}; i++) out.push({ json: make(i) });\nreturn out;`;
	return node('Generate rows', 'n8n-nodes-base.code', 2, { jsCode }, index);
}

/** The custom data row `i` of the sync: a member id and two keys. */
const SYNC_ROW = `(i) => ({ memberId: 'sync-' + String(i).padStart(6, '0'), points: i % 5000, grade: ['gold', 'silver', 'bronze'][i % 3] })`;
/** @type {Record<string, 'string' | 'number' | 'date'>} */
const SYNC_KEYS = { points: 'number', grade: 'string' };

/** Campaign Custom Data's create, its columns mapped from the input items (the benchmark's too). */
const autoMappedCreate = () => ({
	operation: 'create',
	mappingMode: 'autoMapInputData',
	memberIdField: 'memberId',
	options: {},
});

/** Manual trigger -> `rows` generated rows -> Campaign Custom Data create (auto-mapped, 1000 members a request). */
function syncWorkflow({ rows }) {
	return workflow(`queue: ${rows}-row custom data sync`, [
		node('Run', 'n8n-nodes-base.manualTrigger', 1, {}, 0),
		generatorNode(1, rows, SYNC_ROW),
		node('Campaign Custom Data', `${PKG}.campaignCustomData`, 1, autoMappedCreate(), 2, {
			credentials: CREDENTIALS,
		}),
	]);
}

/** Manual trigger -> `count` messages -> Campaign Alimtalk send (a long send run). */
function sendRunWorkflow({ count, campaignKey, concurrency = 2 }) {
	return workflow(`queue: ${count}-message send run`, [
		node('Run', 'n8n-nodes-base.manualTrigger', 1, {}, 0),
		generatorNode(
			1,
			count,
			`(i) => ({ phoneNumber: '8210' + String(i).padStart(8, '0'), n: 'msg-' + i })`,
		),
		sendNode(2, {
			campaignKey,
			phone: '={{ $json.phoneNumber }}',
			properties: { n: '={{ $json.n }}' },
			concurrency,
		}),
	]);
}

module.exports = {
	webhookSendWorkflow,
	eventBody,
	phoneOf,
	syncWorkflow,
	SYNC_KEYS,
	autoMappedCreate,
	sendRunWorkflow,
};
