/**
 * The Alimtalk send entries of the benchmark's table (workloads.cjs, which documents an entry's
 * fields): the package at three concurrencies, with and without a Deduplication Key, and the
 * references and the alternative it is measured against, all at the send latency.
 */
'use strict';

/** The send entries for the run's settings (see `workloads` in workloads.cjs). */
function sendWorkloads({ scaled, full, sendLatency, runs }) {
	const N_SEND = scaled(10000);
	// Sends take requests x latency / concurrency: 10,000 at concurrency 1 is 500 s alone. By
	// default the lower concurrencies send fewer items (15 s each at 50 ms), concurrency 20 the
	// full 10,000; --full sends 10,000 at every concurrency.
	const sendItems = (concurrency) =>
		full || concurrency >= 20 ? N_SEND : scaled(300 * concurrency);
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

	return { sendNoop, sends, dedupSends, readParameters, rawHttp, sendMinimal, batched };
}

module.exports = { sendWorkloads };
