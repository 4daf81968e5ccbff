/**
 * The benchmark's workloads, in one table: the runner (run.mjs) runs what is here and the report
 * (targets.mjs, report.mjs) reads the comparisons from here. Adding a workload is one entry.
 *
 * An entry:
 * - id: unique, `<group>.<what>.<size>`; group: create | getall | members | send | queue (report sections);
 * - kind: package (this package), alternative (the same job with n8n's own nodes), baseline (No
 *   Operation over the same items: n8n's own cost), reference (a bench-only node that isolates a cost);
 * - label; steps: a step list of steps.cjs; shape: an item generator of steps.cjs;
 * - items; requests: the physical minimum; latency: ms a request at the sandbox (default: the
 *   run's data or send latency, by group); concurrency:
 *   requests in flight by design; params: step parameters; sourceCount: items the source emits when
 *   not `items`; seedEntries: custom data entries in the sandbox before the run; warmupItems;
 * - verify: custom | members | sent (what the sandbox must hold afterwards);
 * - cli: true for the comparisons that run through the n8n command line (they need n8n's task runner);
 * - queue: for n8n queue-mode entries (bench/queue.mjs), `{ workers, mode }` of the installation they
 *   run on; their `compare` is `{ with: <entry id>, label }` (a ratio of wall times); `path` their
 *   webhook path; `dedup: { history, prefill }` a Deduplication Key on the send with `prefill` keys
 *   recorded before each run;
 * - comparisonOnly: the package at a comparison's size (its targets are checked at the full size);
 * - baseline: the No Operation entry whose cost is n8n's own for these items;
 * - minimal: the reference entry doing the same requests through n8n without the package's checks;
 * - compare: for an alternative, `{ with: [package entries], rule }`, rule one of
 *   'info' (figures side by side), 'rows50' (the package must do >= 50x its rows/s),
 *   'noSlower' (the package's node time no longer than the alternative's).
 */
'use strict';

/**
 * The table for the run's settings: `scaled(n)` (the --scale factor), `full` (--full: the full
 * sizes for every send), `latency` and `sendLatency` (ms), `runs` (measured runs a workload).
 */
function workloads({ scaled, full, latency, sendLatency, runs }) {
	const N_CREATE = scaled(100000);
	const N_COMPARE = scaled(5000);
	// Paced requests take requests x latency: 500 keep it to about 12 s a run.
	const N_PACED = scaled(500);
	const N_READ = scaled(200000);
	const N_MEMBERS = scaled(100000);
	const N_SEND = scaled(10000);
	// Sends take requests x latency / concurrency: 10,000 at concurrency 1 is 500 s alone. By
	// default the lower concurrencies send fewer items (15 s each at 50 ms), concurrency 20 the
	// full 10,000; --full sends 10,000 at every concurrency.
	const sendItems = (concurrency) =>
		full || concurrency >= 20 ? N_SEND : scaled(300 * concurrency);
	const bulk = (n) => Math.ceil(n / 1000);
	const N_SEND_REFERENCE = scaled(4000);
	const sendAt20 = {
		shape: 'send',
		items: N_SEND_REFERENCE,
		requests: N_SEND_REFERENCE,
		latency: sendLatency,
		concurrency: 20,
		warmupItems: 40,
		verify: 'sent',
	};

	// 1. custom data create, 5 keys a member
	const createNoop = {
		id: 'create.noop.100k',
		group: 'create',
		kind: 'baseline',
		label: 'No Operation',
		steps: 'noop',
		shape: 'custom',
		items: N_CREATE,
	};
	const createMinimal = {
		id: 'create.minimal-bulk.100k',
		group: 'create',
		kind: 'reference',
		label: "Minimal node: the same bodies through n8n's request helper, no checks",
		steps: 'minimalBulkCreate',
		shape: 'custom',
		items: N_CREATE,
		requests: bulk(N_CREATE),
		verify: 'custom',
	};
	const create = {
		id: 'create.package.100k',
		group: 'create',
		kind: 'package',
		label: 'Campaign Custom Data: create',
		steps: 'customCreate',
		shape: 'custom',
		items: N_CREATE,
		requests: bulk(N_CREATE),
		latency,
		concurrency: 1,
		baseline: createNoop,
		minimal: createMinimal,
		verify: 'custom',
	};
	const createNoop5k = {
		id: 'create.noop.5k',
		group: 'create',
		kind: 'baseline',
		label: 'No Operation',
		steps: 'noop',
		shape: 'custom',
		items: N_COMPARE,
	};
	// The same job at the size of the HTTP Request comparison (the targets are checked on the full sizes).
	const create5k = {
		id: 'create.package.5k',
		group: 'create',
		kind: 'package',
		comparisonOnly: true,
		label: 'Campaign Custom Data: create',
		steps: 'customCreate',
		shape: 'custom',
		items: N_COMPARE,
		requests: bulk(N_COMPARE),
		latency,
		concurrency: 1,
		baseline: createNoop5k,
		verify: 'custom',
	};
	const perItem = {
		id: 'create.http-per-item.5k',
		group: 'create',
		kind: 'alternative',
		label: 'HTTP Request, one request per item',
		steps: 'httpPerItem',
		shape: 'custom',
		items: N_COMPARE,
		requests: N_COMPARE,
		latency,
		warmupItems: 50,
		verify: 'custom',
		compare: { with: [create, create5k], rule: 'rows50' },
	};
	// The same, paced to about one request in flight (Batching: 1 item every latency), as a user does to spare the service.
	const perItemPaced = {
		id: 'create.http-per-item-paced.500',
		group: 'create',
		kind: 'alternative',
		label: `HTTP Request, one request per item, paced (Batching: 1 item every ${latency} ms)`,
		steps: 'httpPerItem',
		shape: 'custom',
		items: N_PACED,
		requests: N_PACED,
		latency,
		params: { batchSize: 1, batchInterval: latency },
		warmupItems: 20,
		verify: 'custom',
		compare: { with: [create, create5k], rule: 'rows50' },
	};

	// 2. getAll over 200,000 entries
	const getAllNoop = {
		id: 'getall.noop.200k',
		group: 'getall',
		kind: 'baseline',
		label: 'No Operation',
		steps: 'noop',
		shape: 'entry',
		items: N_READ,
	};
	const getAll = {
		id: 'getall.package.200k',
		group: 'getall',
		kind: 'package',
		label: 'Campaign Custom Data: get many (return all)',
		steps: 'customGetAll',
		shape: 'one',
		sourceCount: 1,
		items: N_READ,
		requests: bulk(N_READ),
		latency,
		concurrency: 1,
		seedEntries: N_READ,
		baseline: getAllNoop,
	};
	const paginate = {
		id: 'getall.http-paginate.200k',
		group: 'getall',
		kind: 'alternative',
		label: 'HTTP Request pagination + Split Out',
		steps: 'httpPaginate',
		shape: 'one',
		sourceCount: 1,
		items: N_READ,
		requests: bulk(N_READ),
		latency,
		concurrency: 1,
		seedEntries: N_READ,
		compare: { with: [getAll], rule: 'info' },
	};

	// 3. members v2 upsert
	const membersNoop = {
		id: 'members.noop.100k',
		group: 'members',
		kind: 'baseline',
		label: 'No Operation',
		steps: 'noop',
		shape: 'members',
		items: N_MEMBERS,
	};
	const members = {
		id: 'members.package.100k',
		group: 'members',
		kind: 'package',
		label: 'Campaign Members v2: create or update',
		steps: 'membersUpsert',
		shape: 'members',
		items: N_MEMBERS,
		requests: bulk(N_MEMBERS),
		latency,
		concurrency: 1,
		baseline: membersNoop,
		verify: 'members',
	};

	// 4. Alimtalk sends at the send latency
	const sendNoop = {
		id: 'send.noop.10k',
		group: 'send',
		kind: 'baseline',
		label: 'No Operation',
		steps: 'noop',
		shape: 'send',
		items: N_SEND,
	};
	const sendMinimal = {
		id: 'send.minimal.c20',
		group: 'send',
		kind: 'reference',
		label: "Minimal node: the same sends through n8n's request helper, no checks, concurrency 20",
		steps: 'minimalSend',
		params: { concurrency: 20 },
		...sendAt20,
	};
	const sends = [1, 5, 20].map((concurrency) => ({
		id: `send.package.c${concurrency}`,
		group: 'send',
		kind: 'package',
		label: `Campaign Alimtalk: send, concurrency ${concurrency}`,
		steps: 'send',
		shape: 'send',
		items: sendItems(concurrency),
		requests: sendItems(concurrency),
		latency: sendLatency,
		concurrency,
		params: { concurrency },
		warmupItems: Math.min(sendItems(concurrency), concurrency * 4),
		baseline: sendNoop,
		minimal: concurrency === 20 ? sendMinimal : undefined,
		verify: 'sent',
		// --full: the lower concurrencies send the full 10,000 items once.
		runs: full && concurrency < 20 ? 1 : runs,
	}));
	// The same sends with a Deduplication Key (keys in the test store of test/support/dedup-store.ts,
	// which behaves like n8n's: every database step 0 to 2 ms), in the same run as the ones without.
	const dedupSends = [5, 20].map((concurrency, i) => ({
		...sends[i + 1],
		id: `send.dedup.c${concurrency}`,
		label: `Campaign Alimtalk: send with a Deduplication Key, concurrency ${concurrency}`,
		params: { concurrency, deduplicationKey: '={{ $json.phone }}' },
		minimal: undefined,
		comparisonOnly: true,
		compare: { with: [sends[i + 1]], rule: 'info' },
	}));
	const readParameters = {
		id: 'send.read-parameters.10k',
		group: 'send',
		kind: 'reference',
		label: "n8n reading the send node's parameters (expressions), no requests",
		steps: 'readSendParameters',
		shape: 'send',
		items: N_SEND,
		warmupItems: 200,
	};
	const rawHttp = {
		id: 'send.raw-http.c20',
		group: 'send',
		kind: 'reference',
		label: "Node's http client, no n8n, concurrency 20 (the sandbox's ceiling)",
		steps: 'rawHttpSend',
		params: { concurrency: 20 },
		...sendAt20,
	};
	const batched = {
		id: 'send.http-batched.c20',
		group: 'send',
		kind: 'alternative',
		label: 'HTTP Request, batching 20 items / 50 ms',
		steps: 'httpSendBatched',
		params: { batchSize: 20, batchInterval: sendLatency },
		...sendAt20,
		compare: { with: [sends[2]], rule: 'info' },
	};

	// 5. through the n8n command line: the same 5,000-member create, as the package and as Code + HTTP Request
	const cliCreate = {
		id: 'cli.create.package.5k',
		cli: true,
		group: 'create',
		kind: 'package',
		label: 'Campaign Custom Data: create (generated by a Code node)',
		steps: 'customCreate',
		shape: 'custom',
		items: N_COMPARE,
		requests: bulk(N_COMPARE),
		verify: 'custom',
	};
	const cliCodeHttp = {
		id: 'cli.create.code-http.5k',
		cli: true,
		group: 'create',
		kind: 'alternative',
		label: 'Code (1,000-member bodies) + HTTP Request',
		steps: 'codeHttp',
		shape: 'custom',
		items: N_COMPARE,
		requests: bulk(N_COMPARE),
		verify: 'custom',
		compare: { with: [cliCreate], rule: 'noSlower' },
	};

	// 6. n8n queue mode (bench/queue.mjs): webhook-triggered sends with one worker and with two,
	// and the 50,000-row sync in queue mode next to one n8n process. Two runs each (a 50,000-row
	// sync is about a minute a run).
	const N_QUEUE_EVENTS = scaled(1000);
	const N_QUEUE_SYNC = scaled(50000);
	const queueSend1 = {
		id: 'queue.webhook-send.1-worker',
		group: 'queue',
		kind: 'queue',
		queue: { workers: 1 },
		label: 'Webhook-triggered Alimtalk sends, 1 worker',
		steps: 'webhookSend',
		items: N_QUEUE_EVENTS,
		requests: N_QUEUE_EVENTS,
		latency: sendLatency,
		runs: 2,
	};
	const queueSend2 = {
		...queueSend1,
		id: 'queue.webhook-send.2-workers',
		queue: { workers: 2 },
		label: 'Webhook-triggered Alimtalk sends, 2 workers',
		compare: { with: queueSend1.id, label: 'Two workers against one (events a second)' },
	};
	// The same sends with a Deduplication Key, its record holding 10,000 and 100,000 keys
	// (n8n rewrites the whole record on every call: about 27 bytes a key).
	const queueDedup = [10000, 100000].map((keys) => ({
		...queueSend2,
		id: `queue.webhook-send.dedup-${keys / 1000}k`,
		label: `Webhook-triggered Alimtalk sends with a Deduplication Key, ${keys / 1000},000 keys recorded, 2 workers`,
		path: `bench-dedup-${keys / 1000}k`,
		dedup: { history: Math.min(100000, keys + N_QUEUE_EVENTS), prefill: keys },
		compare: {
			with: queueSend2.id,
			label: `The key with ${keys / 1000},000 keys recorded against none (events a second; below 1 is slower)`,
		},
	}));
	const singleSync = {
		id: 'queue.sync.single-process',
		group: 'queue',
		kind: 'queue',
		queue: { workers: 0, mode: 'regular' },
		label: `Custom data sync, ${N_QUEUE_SYNC} rows, one n8n process (no queue)`,
		steps: 'sync',
		items: N_QUEUE_SYNC,
		requests: bulk(N_QUEUE_SYNC),
		latency,
		runs: 2,
	};
	const queueSync = {
		...singleSync,
		id: 'queue.sync.queue-mode',
		queue: { workers: 2 },
		label: `Custom data sync, ${N_QUEUE_SYNC} rows, queue mode (on a worker)`,
		compare: {
			with: singleSync.id,
			label: 'Queue mode against one process (sync wall time; above 1 is faster)',
		},
	};

	const list = [
		createNoop,
		create,
		createMinimal,
		createNoop5k,
		create5k,
		perItem,
		perItemPaced,
		getAllNoop,
		getAll,
		paginate,
		membersNoop,
		members,
		sendNoop,
		...sends,
		...dedupSends,
		readParameters,
		rawHttp,
		sendMinimal,
		batched,
		cliCreate,
		cliCodeHttp,
		queueSend1,
		queueSend2,
		...queueDedup,
		singleSync,
		queueSync,
	];
	const ids = new Set();
	for (const w of list) {
		if (ids.has(w.id)) throw new Error(`two workloads with the id ${w.id}`);
		ids.add(w.id);
		w.warmupItems = w.warmupItems ?? Math.min(w.items, 2000);
		// The sandbox's latency during the entry's runs (entries without requests do not feel it).
		w.latency = w.latency ?? (w.group === 'send' ? sendLatency : latency);
		w.runs = w.runs ?? runs;
	}
	return list;
}

module.exports = { workloads };
