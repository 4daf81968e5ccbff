/**
 * End-to-end: the packed package inside a real n8n (the version scripts/runtime/paths.js pins, on
 * Node 24), in a fresh n8n user folder, against the API sandbox started here on 127.0.0.1.
 *
 *   1. n8n loads the package as a community package (unpacked `npm pack` tarball under
 *      <user>/.n8n/nodes/node_modules): the four nodes and the credential are registered.
 *   2. Every example workflow (examples/*.json) is imported and run with `n8n execute`; the test
 *      asserts the run data of the workflow and the sandbox's state.
 *   3. `n8n start`: the REST API lists the node and credential types; the event example's
 *      webhook, once the workflow is published, sends through the sandbox.
 *   4. Headless Chromium (Debian's chromium with playwright-core): sign in, find each node
 *      through the node panel search, open it, and check its actions and operations render.
 *      Screenshots go to test-artifacts/e2e/screenshots.
 *
 * Run with `npm run test:e2e`. The first run prepares the n8n runtime (several minutes).
 */
import * as rt from '../../scripts/runtime';
import { seedDemoData } from '../../sandbox/demo';
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { delay, fs, path, ROOT } from '../support/node';

const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e');
const SCREENSHOTS = path.join(ARTIFACTS, 'screenshots');
const TYPE_PREFIX = `${rt.PACKAGE_NAME}.`;

/** The nodes of the package (INTERFACE.md) and their display names. */
const NODES: Array<{ name: string; displayName: string }> = [
	{ name: 'campaignCustomData', displayName: 'Campaign Custom Data' },
	{ name: 'campaignLegacyData', displayName: 'Campaign Legacy Data' },
	{ name: 'campaignMembers', displayName: 'Campaign Members' },
	{ name: 'campaignAlimtalk', displayName: 'Campaign Alimtalk' },
];

const EXAMPLES = {
	crmSync: { file: 'crm-sync.json', id: 'cmExampleCrmSync' },
	consent: { file: 'member-consent-sync.json', id: 'cmExampleConsent' },
	event: { file: 'event-to-message.json', id: 'cmExampleEventMsg' },
	fullRead: { file: 'full-read.json', id: 'cmExampleFullRead' },
};

// Run data and REST answers are untyped JSON; the assertions are the type checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

let paths: rt.RuntimePaths;
let sb: Sandbox;
let userFolder: string;
let installedFolder: string;
const timings: Record<string, string> = {};

function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
	const started = Date.now();
	return fn().finally(() => {
		timings[label] = rt.formatDuration(Date.now() - started);
	});
}

/** One scratch workflow per node for the browser check (n8n 2.x autosaves what the browser adds). */
function scratchWorkflow(node: { name: string; displayName: string }): Json {
	return {
		id: `e2eBrowser${node.name.slice('campaign'.length)}`,
		name: `e2e browser check: ${node.displayName}`,
		active: false,
		nodes: [
			{
				parameters: {},
				id: `e2e00000-0000-4000-8000-${String(NODES.indexOf(node)).padStart(12, '0')}`,
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

function resetSandbox(options: Parameters<Sandbox['configure']>[0] = {}): void {
	sb.configure({ pageSize: 1000, ...options });
	sb.reset();
	seedDemoData(sb);
}

/** Runs an example with the n8n CLI; returns a reader of its run data. */
async function runExample(id: string) {
	const result = await time(`n8n execute ${id}`, () => rt.executeWorkflow(paths, userFolder, id));
	fs.writeFileSync(path.join(ARTIFACTS, `${id}.execute.log`), `${result.stdout}\n--- stderr ---\n${result.stderr}`);
	if (result.code !== 0 || !result.data) {
		throw new Error(`n8n execute --id ${id} failed (exit ${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`);
	}
	const run = result.data as Json;
	const runData = run.data.resultData.runData as Json;
	expect(run.data.resultData.error).toBeUndefined();
	return {
		nodes: Object.keys(runData),
		/** The items' json of one output of a node (undefined when the node did not run). */
		out(node: string, output = 0): Json[] {
			const task = runData[node]?.[0];
			if (!task) throw new Error(`node "${node}" did not run; ran: ${Object.keys(runData).join(', ')}`);
			if (task.error) throw new Error(`node "${node}" failed: ${JSON.stringify(task.error).slice(0, 1000)}`);
			return ((task.data?.main?.[output] ?? []) as Json[]).map((item) => item.json as Json);
		},
		/** The pairedItem links of one output. */
		paired(node: string, output = 0): unknown[] {
			return ((runData[node]?.[0]?.data?.main?.[output] ?? []) as Json[]).map((item) => item.pairedItem);
		},
	};
}

beforeAll(async () => {
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(SCREENSHOTS, { recursive: true });

	await time('build', () => rt.buildPackage());
	paths = await time('runtime (prepared on first use)', () => rt.ensureRuntime());

	sb = await startSandbox({ accounts: { 'e2e-expired-key': 'expired' } });
	seedDemoData(sb);

	userFolder = rt.createUserFolder(ARTIFACTS, 'n8n-user-');
	const tarball = await rt.packPackage(path.join(ARTIFACTS, 'pack'));
	installedFolder = await rt.installPackage(userFolder, tarball);

	await time('import credential', () =>
		rt.importCredentials(paths, userFolder, [
			{ ...rt.SANDBOX_CREDENTIAL, data: { baseUrl: sb.baseUrl, apiKey: sb.apiKey, memberApiVersion: 'any' } },
		]),
	);
	const scratchDir = path.join(ARTIFACTS, 'scratch-workflows');
	fs.mkdirSync(scratchDir, { recursive: true });
	const scratch = NODES.map((node) => {
		const file = path.join(scratchDir, `${node.name}.json`);
		fs.writeFileSync(file, JSON.stringify(scratchWorkflow(node), null, 2));
		return file;
	});
	const examples = Object.values(EXAMPLES).map((e) => path.join(ROOT, 'examples', e.file));
	await time('import workflows', () => rt.importWorkflows(paths, userFolder, [...examples, ...scratch]));
}, 60 * 60 * 1000);

afterAll(async () => {
	await sb?.close();
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	fs.writeFileSync(path.join(ARTIFACTS, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
	rt.log(`e2e timings: ${JSON.stringify(timings)}`);
});

describe('the package as n8n installs it', () => {
	// Checked on the packed copy, a snapshot: dist/ itself may be rebuilt meanwhile by other work.
	test('the packed tarball holds every node and credential listed in package.json (build them all first)', () => {
		const pkg = JSON.parse(fs.readFileSync(path.join(installedFolder, 'package.json'), 'utf8')) as Json;
		const files = [...pkg.n8n.nodes, ...pkg.n8n.credentials] as string[];
		expect(files).toHaveLength(5);
		expect({ missing: files.filter((file) => !fs.existsSync(path.join(installedFolder, file))) }).toEqual({ missing: [] });
	});

	test('every example workflow is covered by this test', () => {
		const files = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json'));
		expect(files.sort()).toEqual(Object.values(EXAMPLES).map((e) => e.file).sort());
		for (const example of Object.values(EXAMPLES)) {
			const workflow = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', example.file), 'utf8')) as Json;
			expect(workflow.id).toBe(example.id);
		}
	});
});

describe('example workflows through the n8n CLI (n8n execute)', () => {
	test('CRM sync: rows to custom data in chunks, rejected rows to the review list', async () => {
		resetSandbox();
		const run = await runExample(EXAMPLES.crmSync.id);

		// Five rows with Batch Size 2: three requests.
		const posts = sb.requests.filter((r) => r.method === 'POST' && r.path === '/v2/custom');
		expect(posts).toHaveLength(3);

		expect(Object.fromEntries(sb.state.custom.get('crm-1001') ?? [])).toMatchObject({
			name: 'Han Jisoo',
			points: 1200,
			grade: 'gold',
			lastOrderDate: '2024-11-02',
		});
		expect(sb.state.custom.get('crm-1005')?.get('birthday')).toBe('1992-04-17');
		expect(sb.state.custom.get('crm-1003')?.has('points')).toBe(false);
		expect(sb.state.custom.get('crm-1004')?.has('favoriteColor')).toBe(false);

		const review = run.out('Review list');
		expect(review).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ memberId: 'crm-1003', key: 'points', code: 'F02' }),
				expect.objectContaining({ memberId: 'crm-1004', key: 'favoriteColor', code: 'F01' }),
			]),
		);
		expect(review).toHaveLength(2);
		for (const item of review) expect(typeof item.message).toBe('string');

		// No row lost: every member id is on Success or Failed, every item paired with its input.
		const success = run.out('Campaign Custom Data', 0);
		const failed = run.out('Campaign Custom Data', 1);
		const seen = new Set([...success, ...failed].map((item) => item.memberId));
		expect([...seen].sort()).toEqual(['crm-1001', 'crm-1002', 'crm-1003', 'crm-1004', 'crm-1005']);
		for (const link of [...run.paired('Campaign Custom Data', 0), ...run.paired('Campaign Custom Data', 1)]) {
			expect(link).toBeDefined();
		}
		expect(run.out('Synced')).toHaveLength(success.length);
	});

	test('member consent sync: upsert v2, failures with their codes', async () => {
		resetSandbox();
		const run = await runExample(EXAMPLES.consent.id);

		expect(sb.state.membersV2.get('01012345678')).toMatchObject({ memberId: 'member-01', isReceive: 'false' });
		expect(sb.state.membersV2.get('01055550101')).toMatchObject({ memberId: 'crm-1001', isReceive: 'true', name: 'Han Jisoo' });
		expect(sb.state.membersV2.get('01055550102')).toMatchObject({ memberId: 'crm-1002', isReceive: 'true' });
		expect(sb.state.membersV2.has('01055550104')).toBe(false);
		expect(sb.state.membersV2.has('01055550105')).toBe(false);

		expect(run.out('Saved').map((item) => item.memberId)).toEqual(['member-01', 'crm-1001', 'crm-1002']);
		const failures = run.out('Failures with codes');
		expect(failures.map((item) => [item.phoneNumber, item.code])).toEqual([
			['02-123-4567', 'F02'],
			['010-5555-0104', 'F01'],
			['010-5555-0105', 'F03'],
		]);
		for (const item of failures) expect(item.message).toEqual(expect.any(String));
	});

	test('event to message: Alimtalk send with variables, Failed to the retry path', async () => {
		resetSandbox();
		const run = await runExample(EXAMPLES.event.id);

		expect(sb.state.sent.map((m) => [m.campaignKey, m.phoneNumber, m.properties])).toEqual([
			['DEMO-WELCOME', '821055550101', { name: 'Han Jisoo', coupon: 'WELCOME10' }],
			['DEMO-WELCOME', '821055550102', { name: 'Seo Minho', coupon: 'WELCOME10' }],
		]);
		expect(run.out('Sent').map((item) => [item.phoneNumber, item.status])).toEqual([
			['821055550101', 'sent'],
			['821055550102', 'sent'],
		]);
		const retry = run.out('Retry queue');
		expect(retry).toEqual([expect.objectContaining({ phoneNumber: '010-5555', campaignKey: 'DEMO-WELCOME', code: '7012' })]);
		expect(new Date(retry[0].retryAt).getTime()).toBeGreaterThan(Date.now());
		// The node rejected the short number itself: no request for it.
		expect(sb.requests.filter((r) => r.path === '/messages/alimtalk/trigger')).toHaveLength(2);
	});

	test('full read: getAll with Return All follows the paging, one item per member', async () => {
		resetSandbox({ pageSize: 7 });
		const run = await runExample(EXAMPLES.fullRead.id);

		const reads = sb.requests.filter((r) => r.method === 'GET' && r.path === '/v2/custom');
		expect(reads.length).toBeGreaterThan(1);
		const members = run.out('Members');
		expect(members.map((m) => m.memberId)).toEqual([...sb.state.custom.keys()]);
		expect(members).toHaveLength(8);
		expect(members[0]).toMatchObject({ memberId: 'member-01', name: 'Kim Minji', points: 150, grade: 'bronze' });
	});
});

describe('n8n start: REST API, webhook and the editor in a real browser', () => {
	let n8n: rt.StartedN8n;
	let cookie: string;
	let nodeTypes: Json[] = [];
	let browser: rt.Browser | undefined;
	let context: rt.BrowserContext;

	beforeAll(async () => {
		n8n = await time('n8n start', () => rt.startN8n(paths, userFolder, { logFile: path.join(ARTIFACTS, 'n8n-start.log') }));
		cookie = (await rt.setupOwner(n8n.url)).cookie;
		const res = await rt.httpRequest('GET', `${n8n.url}/types/nodes.json`, { headers: { cookie } });
		nodeTypes = JSON.parse(res.body) as Json[];
	}, 10 * 60 * 1000);

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
			expect(type?.credentials).toEqual([expect.objectContaining({ name: 'campaignApi', required: true })]);
		}

		const res = await rt.httpRequest('GET', `${n8n.url}/types/credentials.json`, { headers: { cookie } });
		const credential = (JSON.parse(res.body) as Json[]).find((c) => c.name === 'campaignApi');
		expect(credential).toBeDefined();
		expect((credential?.properties as Json[]).map((p) => p.name)).toEqual(
			expect.arrayContaining(['baseUrl', 'apiKey', 'memberApiVersion']),
		);

		// The credential imported for the examples is there (its data stays encrypted).
		const creds = await rt.httpRequest('GET', `${n8n.url}/rest/credentials`, { headers: { cookie } });
		expect(JSON.parse(creds.body).data).toEqual(
			expect.arrayContaining([expect.objectContaining({ id: rt.SANDBOX_CREDENTIAL.id, type: 'campaignApi' })]),
		);
		expect(creds.body).not.toContain(sb.apiKey);
	});

	test("n8n's own credential test tells a working key from a wrong or expired one", async () => {
		const check = async (apiKey: string) => {
			const res = await rt.httpRequest('POST', `${n8n.url}/rest/credentials/test`, {
				headers: { cookie },
				body: { credentials: { id: rt.SANDBOX_CREDENTIAL.id, name: rt.SANDBOX_CREDENTIAL.name, type: 'campaignApi', data: { baseUrl: sb.baseUrl, apiKey, memberApiVersion: 'any' } } },
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
		expect(expired).toMatchObject({ status: 'Error', message: expect.stringContaining('(code -1003)') });
		// The probe went to the sandbox with the key in its header (the sandbox logs it redacted).
		expect(sb.requests.filter((r) => r.path === '/v2/custom' && r.query.memberId === 'n8n-credential-test').length).toBeGreaterThanOrEqual(3);
	});

	test('event to message: the published workflow answers its webhook and sends', async () => {
		resetSandbox();
		const id = EXAMPLES.event.id;
		const current = JSON.parse((await rt.httpRequest('GET', `${n8n.url}/rest/workflows/${id}`, { headers: { cookie } })).body).data;
		const activated = await rt.httpRequest('POST', `${n8n.url}/rest/workflows/${id}/activate`, {
			headers: { cookie },
			body: { versionId: current.versionId },
		});
		expect(activated.status).toBe(200);

		// n8n registers the webhook of a just-published workflow a moment after answering; a 404
		// starts nothing, so ask again until it is there.
		let hook: rt.HttpResponse | undefined;
		for (let i = 0; i < 60; i++) {
			hook = await rt.httpRequest('POST', `${n8n.url}/webhook/campaign-event`, {
				body: { phoneNumber: '821099990001', name: 'Webhook Kim', coupon: 'HOOK5' },
			});
			if (hook.status !== 404) break;
			await delay(500);
		}
		expect(hook?.status).toBe(200);
		for (let i = 0; i < 60 && sb.state.sent.length === 0; i++) await delay(500);
		expect(sb.state.sent.map((m) => [m.campaignKey, m.phoneNumber, m.properties])).toEqual([
			['DEMO-WELCOME', '821099990001', { name: 'Webhook Kim', coupon: 'HOOK5' }],
		]);

		await rt.httpRequest('POST', `${n8n.url}/rest/workflows/${id}/deactivate`, { headers: { cookie }, body: {} });
	});

	describe('headless Chromium', () => {
		beforeAll(async () => {
			await time('chromium (installed when missing)', () => rt.ensureChromium());
			const { chromium } = rt.loadPlaywright(paths);
			browser = await chromium.launch({ executablePath: rt.CHROMIUM_PATH, args: rt.chromiumArgs(), headless: true });
			context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
		}, 10 * 60 * 1000);

		test('the sign-in page signs the owner in', async () => {
			const page = await context.newPage();
			let passed = false;
			try {
				await page.goto(`${n8n.url}/signin`);
				await page.locator('input[name="emailOrLdapLoginId"]').fill(rt.OWNER.email);
				await page.locator('input[name="password"]').fill(rt.OWNER.password);
				await page.screenshot({ path: path.join(SCREENSHOTS, '00-signin.png') });
				await page.locator('[data-test-id="form-submit-button"]').click();
				await page.waitForURL((url: URL) => !url.pathname.includes('signin'), { timeout: 60000 });
				// The home page lists the imported examples.
				await page.getByText('Campaign example: CRM sync to custom data').first().waitFor({ timeout: 60000 });
				await page.screenshot({ path: path.join(SCREENSHOTS, '01-home.png') });
				passed = true;
			} finally {
				if (!passed) await page.screenshot({ path: path.join(SCREENSHOTS, 'FAILED-signin.png') }).catch(() => undefined);
				await page.close();
			}
		});

		test.each(NODES)('$displayName: found by the node panel search, its actions and operations render', async (node) => {
			const type = nodeTypes.find((t) => t.name === `${TYPE_PREFIX}${node.name}`);
			if (!type) throw new Error(`${node.displayName} (${TYPE_PREFIX}${node.name}) is not registered in n8n: is it built?`);
			const operation = (type.properties as Json[]).find((p) => p.name === 'operation');
			// n8n adds a "Custom API Call" option (value __CUSTOM_API_CALL__) to nodes whose credential
			// can authenticate any request; it is n8n's, not one of the package's operations.
			const own = ((operation?.options ?? []) as Json[]).filter((o) => o.value !== '__CUSTOM_API_CALL__');
			const actions = own.map((o) => String(o.action));
			const operations = own.map((o) => String(o.name));
			expect(own.length).toBeGreaterThan(0);
			const shot = (step: string) => path.join(SCREENSHOTS, `${node.name}-${step}.png`);

			const page = await context.newPage();
			let passed = false;
			try {
				await page.goto(`${n8n.url}/workflow/${scratchWorkflow(node).id}`);
				await page.locator('[data-test-id="canvas"]').waitFor({ timeout: 60000 });
				await page.locator('[data-test-id="node-creator-plus-button"]').click();
				const search = page.locator('[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]').first();
				await search.fill(node.displayName);
				const result = page.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${node.displayName}$`) }).first();
				await result.waitFor({ timeout: 30000 });
				await page.screenshot({ path: shot('1-search') });

				await result.click();
				const firstAction = page.locator('[data-test-id="node-creator-item-name"]', { hasText: actions[0] }).first();
				await firstAction.waitFor({ timeout: 30000 });
				const listed = (await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()).map((t: string) => t.trim());
				await delay(600); // let the panel finish sliding in, for a readable screenshot
				await page.screenshot({ path: shot('2-actions') });
				expect(listed).toEqual(expect.arrayContaining(actions));

				await firstAction.click();
				await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 30000 });
				await page.locator('[data-test-id="parameter-input-operation"]').click();
				await page.getByRole('option').first().waitFor({ timeout: 30000 });
				const options = (await page.getByRole('option').allInnerTexts()).map((t: string) => t.split('\n')[0].trim());
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
		});
	});
});
