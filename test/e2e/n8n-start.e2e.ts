/**
 * End-to-end, part 2: `n8n start` (booted once for this file): the REST API lists the node and
 * credential types; the event example's webhook, once the workflow is published, sends through
 * the sandbox. Headless Chromium (Debian's chromium with playwright-core): sign in, find each node
 * through the node panel search, open it, and check its actions and operations render.
 * Screenshots go to test-artifacts/e2e/start/screenshots. The set-up is in support/.
 * Last, `npm start` (scripts/start.js) stopped by Ctrl-C while it still sets the demo up.
 */
import * as rt from '../../scripts/runtime';
import {
	ownStderrLines,
	startCommand,
	waitGone,
	describe as describeProcess,
	type RunningCommand,
} from '../support/commands';
import { postEvent } from '../support/demo';
import { delay, fs, os, path } from '../support/node';
import { startScripted } from '../support/scripted-server';
import {
	EXAMPLES,
	NODES,
	SCREENSHOTS,
	TYPE_PREFIX,
	launchChromium,
	openNodePanel,
	publishWorkflow,
	resetSandbox,
	sb,
	setupN8n,
	signInThroughForm,
	startN8n,
	userFolder,
	type Json,
} from './support';

setupN8n('start');

describe('n8n start: REST API, webhook and the editor in a real browser', () => {
	let n8n: rt.StartedN8n;
	let cookie: string;
	let nodeTypes: Json[] = [];
	let browser: rt.Browser | undefined;
	let context: rt.BrowserContext;

	beforeAll(
		async () => {
			n8n = await startN8n();
			cookie = (await rt.setupOwner(n8n.url, n8n.ownerPassword)).cookie;
			const res = await rt.httpRequest('GET', `${n8n.url}/types/nodes.json`, {
				headers: { cookie },
			});
			nodeTypes = JSON.parse(res.body) as Json[];
		},
		10 * 60 * 1000,
	);

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
	});

	test('n8n registers the four nodes and the credential of the community package', async () => {
		const ours = nodeTypes.filter((t) => String(t.name).startsWith(TYPE_PREFIX));
		const registered = new Set(ours.map((t) => String(t.name).slice(TYPE_PREFIX.length)));
		const missing = NODES.filter((n) => !registered.has(n.name)).map((n) => n.name);
		expect({ missing }).toEqual({ missing: [] });
		for (const node of NODES) {
			const type = ours.find((t) => t.name === `${TYPE_PREFIX}${node.name}`);
			expect(type?.displayName).toBe(node.displayName);
			expect(type?.credentials).toEqual([
				expect.objectContaining({ name: 'campaignApi', required: true }),
			]);
		}

		const res = await rt.httpRequest('GET', `${n8n.url}/types/credentials.json`, {
			headers: { cookie },
		});
		const credential = (JSON.parse(res.body) as Json[]).find((c) => c.name === 'campaignApi');
		expect(credential).toBeDefined();
		expect((credential?.properties as Json[]).map((p) => p.name)).toEqual(
			expect.arrayContaining(['baseUrl', 'apiKey', 'memberApiVersion']),
		);

		// The credential imported for the examples is there (its data stays encrypted).
		const creds = await rt.httpRequest('GET', `${n8n.url}/rest/credentials`, {
			headers: { cookie },
		});
		expect(JSON.parse(creds.body).data).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: rt.SANDBOX_CREDENTIAL.id, type: 'campaignApi' }),
			]),
		);
		expect(creds.body).not.toContain(sb.apiKey);
	});

	// Every n8n of these tests runs with unverified packages off (scripts/runtime/paths.js), n8n
	// 3.0's default: the package in ~/.n8n/nodes loads on 2.41 (the test above), and the Community
	// Nodes panel refuses to install it (this package is not verified by n8n).
	test("with unverified packages off (n8n 3.0's default), the Community Nodes panel refuses to install the package", async () => {
		const res = await rt.httpRequest('POST', `${n8n.url}/rest/community-packages`, {
			headers: { cookie },
			body: { name: rt.PACKAGE_NAME },
			timeoutMs: 120000,
		});
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(res.body).toContain('Installation of unverified community packages is forbidden!');
		// The package installed into the user folder still serves its nodes.
		const after = await rt.httpRequest('GET', `${n8n.url}/types/nodes.json`, {
			headers: { cookie },
		});
		const names = (JSON.parse(after.body) as Json[]).map((t) => String(t.name));
		expect(names).toEqual(expect.arrayContaining(NODES.map((n) => `${TYPE_PREFIX}${n.name}`)));
	});

	test("n8n's own credential test tells a working key from a wrong or expired one", async () => {
		const check = async (apiKey: string, baseUrl = sb.baseUrl) => {
			const res = await rt.httpRequest('POST', `${n8n.url}/rest/credentials/test`, {
				headers: { cookie },
				body: {
					credentials: {
						id: rt.SANDBOX_CREDENTIAL.id,
						name: rt.SANDBOX_CREDENTIAL.name,
						type: 'campaignApi',
						data: { baseUrl, apiKey, memberApiVersion: 'any' },
					},
				},
			});
			expect(res.status).toBe(200);
			return JSON.parse(res.body).data as { status: string; message: string };
		};
		expect(await check(sb.apiKey)).toMatchObject({ status: 'OK' });
		const wrong = await check('e2e-wrong-key');
		expect(wrong.status).toBe('Error');
		expect(wrong.message).toContain('The customer does not exist (wrong API key?) (code -1001)');
		expect(wrong.message).not.toContain('e2e-wrong-key');
		const expired = await check('e2e-expired-key');
		expect(expired).toMatchObject({
			status: 'Error',
			message: expect.stringContaining('(code -1003)'),
		});
		// A plain-http base URL on another machine is refused with the nodes' own words, before any request.
		const before = sb.requests.length;
		const plain = await check(sb.apiKey, 'http://campaign.invalid');
		expect(plain.status).toBe('Error');
		expect(plain.message).toContain('Base URL in the Campaign API credential must use https');
		// A user name in the URL (the part before "@" looks like this machine): refused the same way.
		const bypass = await check(sb.apiKey, 'http://127.0.0.1:80@campaign.invalid/');
		expect(bypass).toEqual({
			status: 'Error',
			message: expect.stringContaining(
				'Base URL in the Campaign API credential must not contain a user name or password',
			),
		});
		expect(sb.requests.length).toBe(before);
		// A Base URL that redirects: the test fails with what to fix, and nothing reaches the other host.
		const other = await startScripted(() => ({ body: { processCode: 0, processValue: [] } }));
		const redirector = await startScripted((req) => ({
			status: 307,
			headers: { location: `${other.baseUrl}${req.url}` },
		}));
		try {
			const redirected = await check(sb.apiKey, redirector.baseUrl);
			expect(redirected).toEqual({
				status: 'Error',
				message: expect.stringContaining(
					'The Base URL answered with a redirect (HTTP 307); redirects are never followed',
				),
			});
			expect({ redirector: redirector.seen.length, other: other.seen.length }).toEqual({
				redirector: 1,
				other: 0,
			});
		} finally {
			await other.close();
			await redirector.close();
		}
		// The three probes went to the sandbox with the key in its header (the sandbox logs it redacted).
		expect(
			sb.requests.filter(
				(r) => r.path === '/v2/custom' && r.query.memberId === 'n8n-credential-test',
			),
		).toHaveLength(3);
	});

	test('event to message: the published workflow refuses a call without its secret header (nothing sent), and with it sends', async () => {
		resetSandbox();
		const id = EXAMPLES.event.id;
		expect(await publishWorkflow(n8n.url, cookie, id)).toBe(200);
		const url = `${n8n.url}/webhook/campaign-event`;
		const secret = rt.folderSecrets(userFolder).webhookSecret;
		const event = { phoneNumber: '821099990001', name: 'Webhook Kim', coupon: 'HOOK5' };

		// Without the header, or with another value: refused. (n8n registers the webhook of a
		// just-published workflow a moment after answering; postEvent asks again while it is 404.)
		expect(await postEvent(url, event)).toBe(403);
		expect(await postEvent(url, event, 'not-the-secret')).toBe(403);
		await delay(2000);
		expect(sb.state.sent).toEqual([]);

		expect(await postEvent(url, event, secret)).toBe(200);
		for (let i = 0; i < 60 && sb.state.sent.length === 0; i++) await delay(500);
		expect(sb.state.sent.map((m) => [m.campaignKey, m.phoneNumber, m.properties])).toEqual([
			['DEMO-WELCOME', '821099990001', { name: 'Webhook Kim', coupon: 'HOOK5' }],
		]);

		await rt.httpRequest('POST', `${n8n.url}/rest/workflows/${id}/deactivate`, {
			headers: { cookie },
			body: {},
		});
	});

	describe('headless Chromium', () => {
		beforeAll(
			async () => {
				browser = await launchChromium();
				context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
			},
			10 * 60 * 1000,
		);

		test('the sign-in page signs the owner in', async () => {
			const page = await context.newPage();
			let passed = false;
			try {
				await signInThroughForm(page, n8n, () =>
					page.screenshot({ path: path.join(SCREENSHOTS, '00-signin.png') }),
				);
				// The home page lists the imported examples.
				await page
					.getByText('Campaign example: CRM sync to custom data')
					.first()
					.waitFor({ timeout: 60000 });
				await page.screenshot({ path: path.join(SCREENSHOTS, '01-home.png') });
				passed = true;
			} finally {
				if (!passed)
					await page
						.screenshot({ path: path.join(SCREENSHOTS, 'FAILED-signin.png') })
						.catch(() => undefined);
				await page.close();
			}
		});

		test.each(NODES)(
			'$displayName: found by the node panel search, its actions and operations render',
			async (node) => {
				const type = nodeTypes.find((t) => t.name === `${TYPE_PREFIX}${node.name}`);
				if (!type)
					throw new Error(
						`${node.displayName} (${TYPE_PREFIX}${node.name}) is not registered in n8n: is it built?`,
					);
				const operation = (type.properties as Json[]).find((p) => p.name === 'operation');
				const own = (operation?.options ?? []) as Json[];
				// n8n adds a "Custom API Call" (an HTTP Request node with the node's credential, to any
				// URL) only to nodes whose credential has `authenticate`: the Campaign credential has none.
				expect(own.map((o) => o.value)).not.toContain('__CUSTOM_API_CALL__');
				const actions = own.map((o) => String(o.action));
				const operations = own.map((o) => String(o.name));
				expect(own.length).toBeGreaterThan(0);
				const shot = (step: string) => path.join(SCREENSHOTS, `${node.name}-${step}.png`);

				const page = await context.newPage();
				let passed = false;
				try {
					const search = await openNodePanel(page, n8n, node);
					await search.fill(node.displayName);
					const result = page
						.locator('[data-test-id="node-creator-item-name"]', {
							hasText: new RegExp(`^${node.displayName}$`),
						})
						.first();
					await result.waitFor({ timeout: 30000 });
					await page.screenshot({ path: shot('1-search') });

					await result.click();
					const firstAction = page
						.locator('[data-test-id="node-creator-item-name"]', { hasText: actions[0] })
						.first();
					await firstAction.waitFor({ timeout: 30000 });
					const listed = (
						await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()
					).map((t: string) => t.trim());
					await delay(600); // let the panel finish sliding in, for a readable screenshot
					await page.screenshot({ path: shot('2-actions') });
					expect(listed).toEqual(expect.arrayContaining(actions));

					await firstAction.click();
					await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 30000 });
					await page.locator('[data-test-id="parameter-input-operation"]').click();
					await page.getByRole('option').first().waitFor({ timeout: 30000 });
					const options = (await page.getByRole('option').allInnerTexts()).map((t: string) =>
						t.split('\n')[0].trim(),
					);
					await page.screenshot({ path: shot('3-operations') });
					expect(options).toEqual(expect.arrayContaining(operations));
					await page.keyboard.press('Escape');
					// The credential imported for the examples was picked for the new node.
					const values = await page
						.locator('[data-test-id="ndv"] input')
						.evaluateAll((inputs: Array<{ value: string }>) => inputs.map((input) => input.value));
					expect(values).toContain(rt.SANDBOX_CREDENTIAL.name);
					passed = true;
				} finally {
					if (!passed) await page.screenshot({ path: shot('FAILED') }).catch(() => undefined);
					await page.close();
				}
			},
		);
	});
});

const MINUTE = 60 * 1000;

/** The banner's last line once `npm start` is ready (scripts/start.js). */
const READY = /ready in \S+\. Press Ctrl\+C to stop n8n and the sandbox\./;

/** Lines of `npm start`'s own stderr that say something went wrong while it stopped. */
const stopProblems = (command: RunningCommand) =>
	ownStderrLines(command.stderr()).filter((line) =>
		/while stopping|failed|unexpectedly/.test(line),
	);

/** Polls until `happened` says yes; fails after `timeoutMs` with what `command` printed. */
async function until(
	command: RunningCommand,
	what: string,
	happened: () => boolean,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!happened()) {
		if (Date.now() > deadline)
			throw new Error(
				`no ${what} within ${timeoutMs} ms:\n${command.stdout().slice(-3000)}\n${command.stderr().slice(-3000)}`,
			);
		await delay(100);
	}
}

// `npm start` as a user runs it (test/support/commands.ts: its own process group, Ctrl-C to the
// whole group), on a demo folder of its own.
describe('npm start: Ctrl-C during its setup', () => {
	const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-start-setup-'));
	const demo = path.join(parent, 'demo');
	const env = { N8N_DEMO_USER_FOLDER: demo };
	const commands: RunningCommand[] = [];

	afterAll(() => {
		for (const command of commands) command.kill();
		fs.rmSync(parent, { recursive: true, force: true });
	});

	test(
		'Ctrl-C while npm start imports its credential stops everything it started before it exits, removes its files, and the next npm start gets ready',
		async () => {
			const first = startCommand(['npm', 'start', '--', '--no-build'], env);
			commands.push(first);
			// The setup step under way: `n8n import:credentials` running, with the demo folder's
			// database open (n8n's CLI handles Ctrl-C itself from then on).
			const database = path.join(demo, '.n8n', 'database.sqlite');
			await until(
				first,
				'n8n import:credentials with the database open',
				() =>
					first.tree().some((pid) => / import:credentials /.test(describeProcess(pid))) &&
					fs.existsSync(database),
				5 * MINUTE,
			);
			const script = first
				.tree()
				.filter((pid) => /^\d+ \S*node scripts\/start\.js/.test(describeProcess(pid)));
			expect(script).toHaveLength(1);

			await first.interrupt();
			// npm may exit before scripts/start.js (Ctrl-C reaches its whole group); scripts/start.js
			// exits once it stopped what it started: nothing of it is left then (every process seen
			// under it, whatever its process group).
			expect((await waitGone(script, 2 * MINUTE)).map(describeProcess)).toEqual([]);
			expect(first.tree().map(describeProcess)).toEqual([]);
			expect(first.stdout()).toContain('SIGINT: stopping n8n and the sandbox...');
			expect(stopProblems(first)).toEqual([]);
			// What it writes for a while is gone: the pid file, the credentials file (keys in clear).
			expect(
				fs.readdirSync(demo).filter((f) => f === 'npm-start.pid' || f.startsWith('import-')),
			).toEqual([]);

			// The next start gets the database and the folder, and Ctrl-C stops it cleanly.
			const second = startCommand(['npm', 'start', '--', '--no-build'], env);
			commands.push(second);
			await second.waitFor(READY, 10 * MINUTE);
			const running = second.tree();
			await second.interrupt();
			expect((await waitGone(running, 2 * MINUTE)).map(describeProcess)).toEqual([]);
			expect(second.stdout()).toContain('SIGINT: stopping n8n and the sandbox...');
			expect(stopProblems(second)).toEqual([]);
			expect(fs.existsSync(path.join(demo, 'npm-start.pid'))).toBe(false);
		},
		15 * MINUTE,
	);
});
