/**
 * The commands of docs/development.md (the README's Development links it), run exactly as
 * written: `npm start`, `npm run sandbox`, and the others at their quickest setting, each as a
 * child process of npm with no stdin in its own process group (test/support/commands.ts).
 * `npm start` prepares the local n8n runtime itself when it is missing, as on a new machine.
 * `npm run start:queue` is in test/queue/start-queue.queue.ts; `npm install`, `npm test`,
 * `npm run test:unit`, `npm run build`, `npm run lint`, `npm run format:check`,
 * `npm run test:mutations`, `npm run test:package`, `npm run test:e2e`, `npm run test:compat` and
 * `npm run test:queue` are .ci/run's own steps.
 */
import * as rt from '../../scripts/runtime';
import {
	ownStderrLines,
	runCommand,
	startCommand,
	waitGone,
	describe as describeProcess,
	type RunningCommand,
} from '../support/commands';
import {
	modeOf,
	postEvent,
	readBanner,
	signIn,
	stoppedAnswering,
	type Banner,
} from '../support/demo';
import { fs, os, path, proc } from '../support/node';
import { expectWebhookSend } from './support';

const MINUTE = 60 * 1000;

const READY = /ready in \S+\. Press Ctrl\+C to stop n8n and the sandbox\./;

describe('npm start, exactly as the README says', () => {
	// A folder that does not exist yet, as on a fresh clone: npm start creates it.
	const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-npm-start-'));
	const demo = path.join(parent, 'demo');
	const env = { N8N_DEMO_USER_FOLDER: demo };
	let start: RunningCommand;
	let banner: Banner;
	let cookie = '';

	beforeAll(async () => {
		start = startCommand(['npm', 'start'], env);
		// A machine without the n8n runtime installs it first (about 6 minutes on 2 cores).
		await start.waitFor(READY, 25 * MINUTE);
		banner = readBanner(start.stdout());
		proc.stderr.write(`npm start: ready in ${banner.readyIn}\n`);
	}, 26 * MINUTE);

	afterAll(() => {
		start?.kill();
		fs.rmSync(parent, { recursive: true, force: true });
	});

	test('the editor answers and the printed login signs the owner in', async () => {
		expect((await rt.httpGet(`${banner.editor}/`)).status).toBe(200);
		cookie = await signIn(banner);
		expect(cookie).toMatch(/^n8n-auth=./);
	});

	test("the banner's password and webhook secret are made for this folder and kept its owner's only, like n8n's settings file", () => {
		expect(banner.password).toMatch(/^[A-Za-z0-9]{24}$/);
		expect(banner.webhookSecret.length).toBeGreaterThanOrEqual(32);
		expect(banner.curlHeader).toBe(`${rt.WEBHOOK_HEADER}: ${banner.webhookSecret}`);
		const file = path.join(demo, rt.SECRETS_FILE);
		expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
			ownerPassword: banner.password,
			webhookSecret: banner.webhookSecret,
		});
		expect({
			demoFolder: modeOf(demo),
			secretsFile: modeOf(file),
			n8nSettingsFile: modeOf(path.join(demo, '.n8n', 'config')),
		}).toEqual({ demoFolder: '700', secretsFile: '600', n8nSettingsFile: '600' });
	});

	test("the published example's webhook refuses a call without the secret header and sends nothing; with it, runs an execution that succeeds and sends through the sandbox", async () => {
		const event = { phoneNumber: '821012345678', name: 'Kim Minji', coupon: 'WELCOME10' };
		expect(await postEvent(banner.webhook, event)).toBe(403);
		expect(await postEvent(banner.webhook, event, 'not-the-secret')).toBe(403);
		await expectWebhookSend(banner, cookie, event);
	});

	test('a second npm start on the same demo folder says why in one line and exits non-zero', async () => {
		const second = await runCommand(['npm', 'start'], env);
		expect(second.code).not.toBe(0);
		expect(ownStderrLines(second.stderr)).toEqual([
			expect.stringMatching(
				/^npm start failed: npm start is already running \(pid \d+\) with .*; stop it first/,
			),
		]);
	});

	test('a folder that is not a demo folder is refused in one line, and nothing is written to it', async () => {
		const notDemo = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-not-demo-'));
		try {
			fs.writeFileSync(path.join(notDemo, 'database.sqlite'), "someone else's n8n");
			const result = await runCommand(['npm', 'start'], { N8N_DEMO_USER_FOLDER: notDemo });
			expect(result.code).not.toBe(0);
			expect(ownStderrLines(result.stderr)).toEqual([
				expect.stringMatching(
					/^npm start failed: N8N_DEMO_USER_FOLDER .* holds files and is not a demo folder of npm start/,
				),
			]);
			expect(fs.readdirSync(notDemo)).toEqual(['database.sqlite']);
		} finally {
			fs.rmSync(notDemo, { recursive: true, force: true });
		}
	});

	test('Ctrl-C stops n8n and the sandbox and leaves nothing running', async () => {
		const started = start.tree();
		// npm, the script, the sandbox, n8n and its task runner at least.
		expect(started.length).toBeGreaterThanOrEqual(4);
		const result = await start.interrupt();
		expect(result.stdout).toContain('SIGINT: stopping n8n and the sandbox...');
		expect(
			ownStderrLines(result.stderr).filter((line) =>
				/while stopping|failed|unexpectedly/.test(line),
			),
		).toEqual([]);
		expect((await waitGone(started)).map(describeProcess)).toEqual([]);
		expect(await stoppedAnswering(banner.editor)).toBe(true);
		expect(await stoppedAnswering(banner.sandbox)).toBe(true);
		expect(fs.existsSync(path.join(demo, 'npm-start.pid'))).toBe(false);
	});

	test(
		'the next npm start of the same folder signs in with the same password; a new folder gets another',
		async () => {
			const startOnce = async (folder: string) => {
				const again = startCommand(['npm', 'start', '--', '--no-build'], {
					N8N_DEMO_USER_FOLDER: folder,
				});
				try {
					await again.waitFor(READY, 10 * MINUTE);
					const printed = readBanner(again.stdout());
					await signIn(printed);
					return printed;
				} finally {
					const running = again.tree();
					await again.interrupt();
					await waitGone(running);
				}
			};
			const same = await startOnce(demo);
			expect([same.password, same.webhookSecret]).toEqual([banner.password, banner.webhookSecret]);
			const other = await startOnce(path.join(parent, 'another-demo'));
			expect(other.password).toMatch(/^[A-Za-z0-9]{24}$/);
			expect(other.password).not.toBe(banner.password);
			expect(other.webhookSecret).not.toBe(banner.webhookSecret);
		},
		22 * MINUTE,
	);
});

describe('npm run sandbox, exactly as the README says', () => {
	let sandbox: RunningCommand;
	let port = 0;

	afterAll(() => sandbox?.kill());

	test(
		'answers with the printed base URL and key; a busy port is one line and a non-zero exit; Ctrl-C stops it',
		async () => {
			port = await rt.freePort(18787);
			sandbox = startCommand(['npm', 'run', 'sandbox'], { SANDBOX_PORT: String(port) });
			const url = (await sandbox.waitFor(/listening on (http:\/\/\S+)/, 5 * MINUTE))[1];
			const key = (await sandbox.waitFor(/API key: (\S+)/, 10000))[1];
			await sandbox.waitFor(/Press Ctrl\+C to stop\./, 10000);
			expect(url).toBe(`http://127.0.0.1:${port}`);

			const read = await rt.httpRequest('GET', `${url}/v2/custom?memberId=readme-check`, {
				headers: { 'x-api-key': key },
			});
			expect(read.status).toBe(200);
			expect(() => JSON.parse(read.body)).not.toThrow();

			const busy = await runCommand(['npm', 'run', 'sandbox'], { SANDBOX_PORT: String(port) });
			expect(busy.code).not.toBe(0);
			expect(ownStderrLines(busy.stderr)).toEqual([
				expect.stringMatching(/^Sandbox failed to start: .*EADDRINUSE/),
			]);

			const running = sandbox.tree();
			const result = await sandbox.interrupt();
			expect(result.stdout).toContain('SIGINT: stopping the sandbox');
			expect((await waitGone(running)).map(describeProcess)).toEqual([]);
			expect(await stoppedAnswering(url)).toBe(true);
		},
		10 * MINUTE,
	);
});

describe("the README's other commands at their quickest setting", () => {
	test.each([
		[['npm', 'start', '--', '--help'], /^Usage: npm start/m],
		[['npm', 'run', 'start:queue', '--', '--help'], /^Usage: npm run start:queue/m],
		[['npm', 'run', 'test:compat', '--', '--list'], /2\.41/],
		[['npm', 'run', 'bench', '--', '--list'], /send\./],
	])('%j prints what it says and exits 0', async (args, expected) => {
		const result = await runCommand(args);
		expect({
			code: result.code,
			stderr: ownStderrLines(result.stderr).filter((l) => /error|failed/i.test(l)),
		}).toEqual({ code: 0, stderr: [] });
		expect(result.stdout).toMatch(expected);
	});

	test.each([
		[['npm', 'start', '--', '--no-such-option'], /^npm start: Unknown option '--no-such-option'/],
		[
			['npm', 'start', '--', '--port', 'eighty'],
			/^npm start: --port must be a whole number from 1 to 65535, got "eighty"/,
		],
		[
			['npm', 'run', 'start:queue', '--', '--workers', '0'],
			/^npm run start:queue: --workers must be a whole number from 1 to 16, got "0"/,
		],
	])('%j says why in one line and exits non-zero', async (args, expected) => {
		const result = await runCommand(args);
		expect(result.code).not.toBe(0);
		expect(ownStderrLines(result.stderr)).toEqual([expect.stringMatching(expected)]);
	});

	test(
		'node scripts/runtime/install.js --chromium finds the runtime and Chromium ready',
		async () => {
			const result = await runCommand(
				['node', 'scripts/runtime/install.js', '--chromium'],
				{},
				20 * MINUTE,
			);
			expect(result.code).toBe(0);
			expect(result.stderr).toMatch(/ready: \S+n8n-\d/);
		},
		21 * MINUTE,
	);

	test(
		'npm run dev compiles, watches, and Ctrl-C stops it',
		async () => {
			const dev = startCommand(['npm', 'run', 'dev']);
			try {
				await dev.waitFor(/Watching for file changes/, 5 * MINUTE);
				const running = dev.tree();
				await dev.interrupt();
				expect((await waitGone(running)).map(describeProcess)).toEqual([]);
			} finally {
				dev.kill();
			}
		},
		6 * MINUTE,
	);
});
