/**
 * The queue-mode entries of the benchmark's table (workloads.cjs, which documents an entry's
 * fields; bench/queue.mjs runs them): webhook-triggered sends with one worker and with two, with
 * a Deduplication Key over a filled record, the same in one n8n process, and the 50,000-row sync in queue mode next to one
 * n8n process.
 */
'use strict';

/** The queue-mode entries for the run's settings (see `workloads` in workloads.cjs). */
function queueWorkloads({ scaled, latency, sendLatency, bulk }) {
	// Two runs each (a 50,000-row sync is about a minute a run).
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
	// One n8n process (regular mode), one webhook event an execution, with the key and without.
	const singleSend = {
		...queueSend1,
		id: 'queue.webhook-send.single-process',
		queue: { workers: 0, mode: 'regular' },
		label: 'Webhook-triggered Alimtalk sends, one n8n process (no queue)',
	};
	const singleDedup = {
		...singleSend,
		id: 'queue.webhook-send.single-process.dedup-10k',
		label:
			'Webhook-triggered Alimtalk sends with a Deduplication Key, 10,000 keys recorded, one n8n process',
		path: 'bench-single-dedup-10k',
		dedup: queueDedup[0].dedup,
		compare: {
			with: singleSend.id,
			label:
				'The key with 10,000 keys recorded against none, one process (events a second; below 1 is slower)',
		},
	};
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

	return { queueSend1, queueSend2, queueDedup, singleSend, singleDedup, singleSync, queueSync };
}

module.exports = { queueWorkloads };
