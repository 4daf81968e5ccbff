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
const { sendWorkloads } = require('./workloads-send.cjs');
const { queueWorkloads } = require('./workloads-queue.cjs');

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
	const bulk = (n) => Math.ceil(n / 1000);

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
		...perItem,
		id: 'create.http-per-item-paced.500',
		label: `HTTP Request, one request per item, paced (Batching: 1 item every ${latency} ms)`,
		items: N_PACED,
		requests: N_PACED,
		params: { batchSize: 1, batchInterval: latency },
		warmupItems: 20,
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
	// Both ways read all N_READ seeded entries from one source item.
	const readAllEntries = {
		group: 'getall',
		shape: 'one',
		sourceCount: 1,
		items: N_READ,
		requests: bulk(N_READ),
		latency,
		concurrency: 1,
		seedEntries: N_READ,
	};
	const getAll = {
		id: 'getall.package.200k',
		kind: 'package',
		label: 'Campaign Custom Data: get many (return all)',
		steps: 'customGetAll',
		...readAllEntries,
		baseline: getAllNoop,
	};
	const paginate = {
		id: 'getall.http-paginate.200k',
		kind: 'alternative',
		label: 'HTTP Request pagination + Split Out',
		steps: 'httpPaginate',
		...readAllEntries,
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

	// 4. Alimtalk sends at the send latency (workloads-send.cjs)
	const { sendNoop, sends, dedupSends, readParameters, rawHttp, sendMinimal, batched } =
		sendWorkloads({ scaled, full, latency, sendLatency, runs });

	// 6. n8n queue mode (workloads-queue.cjs)
	const { queueSend1, queueSend2, queueDedup, singleSend, singleDedup, singleSync, queueSync } =
		queueWorkloads({
			scaled,
			latency,
			sendLatency,
			bulk,
		});

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
		singleSend,
		singleDedup,
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
