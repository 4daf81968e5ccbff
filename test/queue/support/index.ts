/**
 * The queue-mode tests' support, one import for every file of test/queue:
 * - cluster.ts: startQueueCluster, n8n in queue mode around the API sandbox,
 * - dedup.ts: the Deduplication Key rounds (workflow, events, kill-round verdict),
 * - two-nodes.ts: the rounds with two keyed send nodes in one workflow,
 * - faults.ts: the infrastructure fault rounds (PostgreSQL, Redis restarted or down),
 * - `record` below: measured figures.
 *
 * Measured figures of the queue-mode tests (counts, statuses, durations), collected in
 * test-artifacts/queue/figures.json for the README and the closing notes. Never asserted on
 * for speed: timings are recorded, not checked.
 */
import { fs, path, ROOT } from '../../support/node';

export * from './cluster';
export * from './dedup';
export * from './faults';
export * from './two-nodes';

const FILE = path.join(ROOT, 'test-artifacts', 'queue', 'figures.json');

/** Merges `values` under `section` in the figures file. */
export function record(section: string, values: Record<string, unknown>): void {
	fs.mkdirSync(path.dirname(FILE), { recursive: true });
	let all: Record<string, unknown> = {};
	try {
		all = JSON.parse(fs.readFileSync(FILE, 'utf8')) as Record<string, unknown>;
	} catch {
		// first figure of this run
	}
	all[section] = {
		...(all[section] as Record<string, unknown> | undefined),
		...values,
		at: new Date().toISOString(),
	};
	fs.writeFileSync(FILE, `${JSON.stringify(all, null, '\t')}\n`);
}
