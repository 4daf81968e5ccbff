/**
 * The queue-mode tests' support, one import for every file of test/queue:
 * - cluster.ts: startQueueCluster, n8n in queue mode around the API sandbox,
 * - dedup.ts: the Deduplication Key rounds (workflow, events, kill-round verdict),
 * - two-nodes.ts: the rounds with two keyed send nodes in one workflow,
 * - faults.ts: the infrastructure fault rounds (PostgreSQL, Redis restarted or down),
 * - retry.ts: retrying executions through main as a user does, by n8n's rules, each outcome said,
 * - `record` below: measured figures.
 *
 * Measured figures of the queue-mode tests (counts, statuses, durations), collected in
 * test-artifacts/queue/figures.json for the README and the closing notes. Never asserted on
 * for speed: timings are recorded, not checked.
 */
import { fs, path, ROOT } from '../../support/node';
import type { Json } from './cluster';

export * from './cluster';
export * from './dedup';
export * from './dedup-counts';
export * from './faults';
export * from './retry';
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

/** What `unsuccessful` says of one execution that did not end in success. */
export interface Unsuccessful {
	id: number;
	status: string;
	/** The webhook event it ran for (`body.eventId`), when it had one. */
	eventId?: string;
	error?: { node?: string; message?: unknown; description?: unknown };
}

/**
 * The executions that did not end in success, each with the error n8n stored for it (the node,
 * message and description) and its webhook event, so that a failed round says why.
 */
export async function unsuccessful(
	c: { db: { runData: (id: number) => Promise<unknown> } },
	rows: Array<{ id: number; status: string }>,
): Promise<Unsuccessful[]> {
	return await Promise.all(
		rows
			.filter((r) => r.status !== 'success')
			.map(async (r) => {
				const data = (await c.db.runData(r.id).catch(() => undefined)) as Json | undefined;
				const result = data?.resultData as Json | undefined;
				const error = result?.error as Json | undefined;
				const eventId = result?.runData?.Webhook?.[0]?.data?.main?.[0]?.[0]?.json?.body?.eventId;
				return {
					id: r.id,
					status: r.status,
					...(eventId === undefined ? {} : { eventId: String(eventId) }),
					...(error && {
						error: {
							node: result?.lastNodeExecuted as string | undefined,
							message: error.message,
							description: error.description,
						},
					}),
				};
			}),
	);
}
