/**
 * `npm run start:queue`, exactly as the README says (test/support/commands.ts): a child process of
 * npm with no stdin in its own process group.
 *
 * First, Ctrl-C while it still sets the cluster up (n8n import:credentials against the new
 * PostgreSQL): it stops everything it started, waits for it, removes its temporary folders and
 * exits. Then the next start: it reaches its ready banner, the printed editor and login (a password
 * made for this start) work, the published example's webhook (on the webhook process) refuses a
 * call without its secret header and, with it, runs an execution on a worker that succeeds and
 * sends through the sandbox, and Ctrl-C stops PostgreSQL, Redis, every n8n process and the sandbox,
 * removes the data folder, and leaves nothing running.
 */
import * as rt from '../../scripts/runtime';
import {
	describe as describeProcess,
	ownStderrLines,
	startCommand,
	waitGone,
	type RunningCommand,
} from '../support/commands';
import * as demo from '../support/demo';
import { delay, fs, os, path, proc } from '../support/node';
import { expectWebhookSend } from '../e2e/support';

const MINUTE = 60 * 1000;

/** A process's command name, state and process group (/proc/<pid>/stat), undefined once it is gone. */
function statOf(pid: number): { name: string; state: string; group: number } | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return {
			name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
			state,
			group: Number(group),
		};
	} catch {
		return undefined;
	}
}

/** A process, for messages about what is left: its command line, name, state and group. */
function what(pid: number): string {
	const stat = statOf(pid);
	return stat
		? `${describeProcess(pid)} (${stat.name}, state ${stat.state}, group ${stat.group})`
		: `${pid} (gone)`;
}

/** Every process in the process group `group` (/proc), zombies included. */
function membersOf(group: number): number[] {
	return fs
		.readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name))
		.map(Number)
		.filter((pid) => statOf(pid)?.group === group);
}

// Its own temporary folder (TMPDIR): every folder it makes (the cluster's data, PostgreSQL's,
// Redis's, the packed package) goes there, so what is left of this start is all there is in it.
describe('npm run start:queue: Ctrl-C during its setup', () => {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'start-queue-setup-'));
	// As root, PostgreSQL and Redis run as their own users, through this folder to theirs.
	fs.chmodSync(tmp, 0o755);
	let first: RunningCommand | undefined;

	afterAll(() => {
		first?.kill();
		fs.rmSync(tmp, { recursive: true, force: true });
	});

	test(
		'Ctrl-C while the cluster imports its credential stops PostgreSQL, Redis, the sandbox and the import, waits for them, removes its temporary folders and exits',
		async () => {
			const command = startCommand(['npm', 'run', 'start:queue', '--', '--no-build'], {
				TMPDIR: tmp,
			});
			first = command;
			// Every process group seen under it, whatever group a process moved to.
			const groups = new Set<number>();
			const running = () =>
				command.tree().map((pid) => {
					const group = statOf(pid)?.group;
					if (group !== undefined) groups.add(group);
					return describeProcess(pid);
				});
			// The setup step under way: `n8n import:credentials` against the cluster's new
			// PostgreSQL, with Redis and the sandbox up.
			const deadline = Date.now() + 10 * MINUTE;
			for (;;) {
				const lines = running();
				if (
					lines.some((line) => / import:credentials /.test(line)) &&
					lines.some((line) => /\/postgres -D /.test(line)) &&
					lines.some((line) => /redis-server/.test(line))
				)
					break;
				if (Date.now() > deadline)
					throw new Error(
						`no n8n import:credentials beside PostgreSQL and Redis within 10 minutes:\n${command.stdout().slice(-3000)}\n${command.stderr().slice(-3000)}`,
					);
				await delay(100);
			}
			const script = command
				.tree()
				.filter((pid) => /^\d+ node scripts\/start-queue\.js/.test(describeProcess(pid)));
			expect(script).toHaveLength(1);
			expect(fs.readdirSync(tmp).filter((name) => name.startsWith('campaign-queue-'))).toHaveLength(
				1,
			);

			await command.interrupt(3 * MINUTE);
			// npm may exit before scripts/start-queue.js (Ctrl-C reaches its whole group); the script
			// exits once it stopped what it started: nothing of it is left then, in any group.
			expect((await waitGone(script, 2 * MINUTE)).map(what)).toEqual([]);
			expect(command.tree().map(what)).toEqual([]);
			expect([...groups].flatMap(membersOf).map(what)).toEqual([]);
			expect(command.stdout()).toContain(
				'SIGINT: stopping n8n (main, webhook, workers), PostgreSQL, Redis and the sandbox...',
			);
			expect(
				ownStderrLines(command.stderr()).filter((line) =>
					/while stopping|unexpectedly|failed/.test(line),
				),
			).toEqual([]);
			// Its folders are gone: the cluster's (user folders, the credentials file with keys in
			// clear), PostgreSQL's and Redis's data.
			expect(fs.readdirSync(tmp)).toEqual([]);
		},
		15 * MINUTE,
	);
});

// The next start (after the interrupted one above) gets ready and works.
describe('npm run start:queue: ready, used, and stopped with Ctrl-C', () => {
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
		const workerLogs = [
			...start.stdout().matchAll(/^\s+worker-\d+\s+pid \d+, .*, log (\S+)$/gm),
		].map((m) => m[1]);
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
});
