/**
 * The package missing on one worker (the shared cluster's last round: test/queue/cluster.queue.ts):
 * a worker started without it joins the one live worker; the executions that land on it fail with
 * the error the README's Troubleshooting section quotes, the others send.
 */
import * as wf from '../../../scripts/queue/workflows';
import { record, settle, unsuccessful } from '../support';
import { c } from '../support/shared';

const CAMPAIGN = 'QUEUE-MISSING';

export function missingPackageRound(): void {
	test('the package missing on one worker: executions there fail with "Unrecognized node type"; the others send', async () => {
		const without = await c.addWorker({ install: false });
		const withIt = c.workers.filter((w) => w.alive() && w !== without).map((w) => w.name);
		expect(withIt).toHaveLength(1);
		c.sandbox.addCampaign(CAMPAIGN);
		c.sandbox.configure({ latencyMs: 20 });
		const id = await c.deploy(
			wf.webhookSendWorkflow({ path: 'queue-missing', campaignKey: CAMPAIGN }),
		);
		const events = 40;
		const fired = await c.fireWebhooks(
			'queue-missing',
			Array.from({ length: events }, (_, i) => wf.eventBody(i)),
			{ concurrency: 4 },
		);
		expect(fired.statuses.filter((s) => s !== 200)).toEqual([]);
		// Now and then an execution on the worker without the package never leaves "running"
		// (seen once in 40): the records are taken as they are once all are final, or once none
		// changed for 15 s (before: up to 2 minutes waited for one that never ends).
		const rows = await settle(c, [id], { expected: events, quietMs: 15000 });
		expect(rows).toHaveLength(events);
		const failed = rows.filter((r) => c.workerOf(r.id) === without.name);
		const sent = rows.filter((r) => c.workerOf(r.id) === withIt[0]);
		expect(failed.length).toBeGreaterThan(0);
		expect(sent.length).toBeGreaterThan(0);
		expect(failed.length + sent.length).toBe(events);
		expect(await unsuccessful(c, sent)).toEqual([]);
		// Nothing the worker without the package took succeeded or sent anything.
		expect(failed.filter((r) => !['error', 'running'].includes(r.status))).toEqual([]);
		expect(c.sandbox.state.sent.filter((m) => m.campaignKey === CAMPAIGN)).toHaveLength(
			sent.length,
		);
		const errors = failed.filter((r) => r.status === 'error');
		expect(errors.length).toBeGreaterThan(0);

		const data = await c.db.runData(errors[0].id);
		const message = String(data?.resultData?.error?.message ?? '');
		expect(message).toBe('Unrecognized node type: n8n-nodes-campaign-messaging.campaignAlimtalk');
		record('missingPackage', {
			events,
			failedOnWorkerWithout: errors.length,
			stuckRunningOnWorkerWithout: failed.length - errors.length,
			sentByWorkerWith: sent.length,
			message,
		});
	});
}
