/**
 * `npm run start:queue`, exactly as the README says (test/support/commands.ts): a child process of
 * npm with no stdin in its own process group. It reaches its ready banner, the printed editor and
 * login (a password made for this start) work, the published example's webhook (on the webhook
 * process) refuses a call without its secret header and, with it, runs an execution on a
 * worker that succeeds and sends through the sandbox, and Ctrl-C stops PostgreSQL, Redis, every
 * n8n process and the sandbox, removes the data folder, and leaves nothing running.
 */
import * as rt from '../../scripts/runtime';
import {
	describe as describeProcess,
	startCommand,
	waitGone,
	type RunningCommand,
} from '../support/commands';
import * as demo from '../support/demo';
import { fs, proc } from '../support/node';
import { expectWebhookSend } from '../e2e/support';

const MINUTE = 60 * 1000;

let start: RunningCommand;
let banner: demo.Banner;
let dataDir = '';

beforeAll(async () => {
	start = startCommand(['npm', 'run', 'start:queue']);
	await start.waitFor(/ready in \S+\. Press Ctrl\+C to stop everything\./, 20 * MINUTE);
	banner = demo.readBanner(start.stdout());
	dataDir = /^\s+data\s+(\S+)/m.exec(start.stdout())?.[1] ?? '';
	proc.stderr.write(`npm run start:queue: ready in ${banner.readyIn}\n`);
}, 21 * MINUTE);

afterAll(() => start?.kill());

test("the editor answers, the printed login (made for this start) signs in, and the data folder is its owner's only", async () => {
	expect((await rt.httpGet(`${banner.editor}/`)).status).toBe(200);
	expect(banner.password).toMatch(/^[A-Za-z0-9]{24}$/);
	expect(await demo.signIn(banner)).toMatch(/^n8n-auth=./);
	expect(banner.curlHeader).toBe(`${rt.WEBHOOK_HEADER}: ${banner.webhookSecret}`);
	expect({
		data: demo.modeOf(dataDir),
		secrets: demo.modeOf(`${dataDir}/${rt.SECRETS_FILE}`),
	}).toEqual({
		data: '700',
		secrets: '600',
	});
});

test("the published example's webhook runs an execution on a worker that succeeds and sends through the sandbox", async () => {
	const event = { phoneNumber: '821012345679', name: 'Lee Jun', coupon: 'QUEUE10' };
	expect(await demo.postEvent(banner.webhook, event)).toBe(403);
	const run = await expectWebhookSend(banner, await demo.signIn(banner), event);
	// A worker ran it: the log of one of the printed workers says so.
	const workerLogs = [...start.stdout().matchAll(/^\s+worker-\d+\s+pid \d+, .*, log (\S+)$/gm)].map(
		(m) => m[1],
	);
	expect(workerLogs).toHaveLength(2);
	const ranOn = workerLogs.filter((file) =>
		new RegExp(`Worker started execution ${run.id} \\(job`).test(fs.readFileSync(file, 'utf8')),
	);
	expect(ranOn).toHaveLength(1);
});

test(
	'Ctrl-C stops everything, removes the data and leaves nothing running',
	async () => {
		const started = start.tree();
		// npm, the script, the sandbox, PostgreSQL, Redis, main, webhook and two workers at least.
		expect(started.length).toBeGreaterThanOrEqual(9);
		const result = await start.interrupt(3 * MINUTE);
		expect(result.stdout).toContain(
			'SIGINT: stopping n8n (main, webhook, workers), PostgreSQL, Redis and the sandbox...',
		);
		expect(result.stderr).not.toMatch(/while stopping|unexpectedly|failed/);
		expect((await waitGone(started)).map(describeProcess)).toEqual([]);
		expect(await demo.stoppedAnswering(banner.editor)).toBe(true);
		expect(await demo.stoppedAnswering(banner.webhook)).toBe(true);
		expect(await demo.stoppedAnswering(banner.sandbox)).toBe(true);
		expect(fs.existsSync(dataDir)).toBe(false);
	},
	4 * MINUTE,
);
