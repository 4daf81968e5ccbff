/**
 * The operator's install path through the environment: a private registry (verdaccio on
 * 127.0.0.1) holds a scoped copy of the packed package; no process has it installed; main
 * installs it from N8N_COMMUNITY_PACKAGES at start and the workers reinstall it
 * (N8N_REINSTALL_MISSING_PACKAGES); webhook events then run on the workers. What happens when
 * the package is missing on one worker is the last round of cluster.queue.ts
 * (rounds/missing-package.ts).
 */
import * as rt from '../../scripts/runtime';
import { renamedCopy, startRegistry, type Registry } from '../../scripts/queue/registry';
import * as wf from '../../scripts/queue/workflows';
import { fs, os, path } from '../support/node';
import { leftoversOf, record, startQueueCluster, unsuccessful, type QueueCluster } from './support';

const SCOPED = '@campaign-lab/n8n-nodes-campaign-messaging';

describe('the operator install path: environment-managed packages from a private registry', () => {
	let registry: Registry;
	let c: QueueCluster;
	let integrity: string;
	let home: string;

	beforeAll(async () => {
		registry = await startRegistry();
		const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-scoped-'));
		try {
			const tarball = await rt.packPackage(scratch);
			await registry.publish(await renamedCopy(tarball, path.join(scratch, 'copy'), SCOPED));
		} finally {
			fs.rmSync(scratch, { recursive: true, force: true });
		}
		const meta = JSON.parse(
			(await rt.httpGet(`${registry.url}/${SCOPED.replace('/', '%2f')}`)).body,
		);
		const version = meta['dist-tags'].latest as string;
		integrity = meta.versions[version].dist.integrity as string;

		// The n8n user's ~/.npmrc, the same on every process that runs npm.
		home = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-home-'));
		fs.writeFileSync(path.join(home, '.npmrc'), registry.npmrc('@campaign-lab'));
		c = await startQueueCluster({
			workers: 2,
			package: false,
			home,
			env: {
				N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
				N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: SCOPED, version, checksum: integrity }]),
				N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
				N8N_REINSTALL_MISSING_PACKAGES: 'true',
			},
		});
		c.sandbox.addCampaign('QUEUE-ENV');
	});

	afterAll(async () => {
		await c?.stop();
		await registry?.stop();
		if (home) fs.rmSync(home, { recursive: true, force: true });
	});

	test('main installs it from the environment, every worker reinstalls it, and the workers send', async () => {
		// Every process installed it into its own folder (the logs of those that did not, if any).
		const without = [c.main, c.webhook, ...c.workers]
			.filter(
				(p) =>
					p &&
					!fs.existsSync(
						path.join(p.userFolder, '.n8n', 'nodes', 'node_modules', SCOPED, 'package.json'),
					),
			)
			.map(
				(p) =>
					`${p?.name}: ${p
						?.log()
						.split('\n')
						.filter((l) => /package|npm/i.test(l))
						.join('\n')}`,
			);
		expect(without).toEqual([]);
		const id = await c.deploy(
			wf.webhookSendWorkflow({
				path: 'queue-env',
				campaignKey: 'QUEUE-ENV',
				packageName: SCOPED,
			}),
		);
		const events = 40;
		await c.fireWebhooks(
			'queue-env',
			Array.from({ length: events }, (_, i) => wf.eventBody(i)),
			{ concurrency: 4 },
		);
		const rows = await c.db.waitForExecutions({ workflowId: id, count: events });
		expect(await unsuccessful(c, rows)).toEqual([]);
		expect(new Set(rows.map((r) => c.workerOf(r.id)))).toEqual(new Set(['worker-1', 'worker-2']));
		expect(c.sandbox.state.sent).toHaveLength(events);
		record('envInstall', { package: SCOPED, checksum: integrity, events, startMs: c.startMs });

		await c.stop();
		await registry.stop();
		fs.rmSync(home, { recursive: true, force: true });
		expect(await c.leftovers()).toEqual({ pids: [], ports: [] });
		expect(fs.existsSync(c.dir)).toBe(false);
		expect(await leftoversOf([registry.pid], [registry.port])).toEqual({ pids: [], ports: [] });
		expect(fs.existsSync(home)).toBe(false);
	});
});
