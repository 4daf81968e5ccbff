/**
 * End-to-end, part 1: the packed package as n8n installs it (every node and credential present),
 * and every example workflow (examples/*.json) run with `n8n execute`; the test asserts the run
 * data of the workflow and the sandbox's state. The set-up is in support/; `n8n start`, the
 * REST API, the webhook and the browser are in n8n-start.e2e.ts.
 */
import * as rt from '../../scripts/runtime';
import { fs, path, ROOT } from '../support/node';
import { startScripted } from '../support/scripted-server';
import * as e2e from './support';

e2e.setupN8n('execute');

describe('the package as n8n installs it', () => {
	// Checked on the packed copy, a snapshot: dist/ itself may be rebuilt meanwhile by other work.
	test('the packed tarball holds every node and credential listed in package.json (build them all first)', () => {
		const pkg = JSON.parse(
			fs.readFileSync(path.join(e2e.installedFolder, 'package.json'), 'utf8'),
		) as e2e.Json;
		const files = [...pkg.n8n.nodes, ...pkg.n8n.credentials] as string[];
		expect(files).toHaveLength(5);
		expect({
			missing: files.filter((file) => !fs.existsSync(path.join(e2e.installedFolder, file))),
		}).toEqual({ missing: [] });
	});

	test('every example workflow is covered by this test', () => {
		const files = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json'));
		expect(files.sort()).toEqual(
			Object.values(e2e.EXAMPLES)
				.map((e) => e.file)
				.sort(),
		);
		for (const example of Object.values(e2e.EXAMPLES)) {
			const workflow = JSON.parse(
				fs.readFileSync(path.join(ROOT, 'examples', example.file), 'utf8'),
			) as e2e.Json;
			expect(workflow.id).toBe(example.id);
		}
	});
});

describe('example workflows through the n8n CLI (n8n execute)', () => {
	test('CRM sync: rows to custom data in chunks, rejected rows to the review list', async () => {
		e2e.resetSandbox();
		const run = await e2e.runExample(e2e.EXAMPLES.crmSync.id);

		// Five rows with Batch Size 2: three requests.
		const posts = e2e.sb.requests.filter((r) => r.method === 'POST' && r.path === '/v2/custom');
		expect(posts).toHaveLength(3);

		expect(Object.fromEntries(e2e.sb.state.custom.get('crm-1001') ?? [])).toMatchObject({
			name: 'Han Jisoo',
			points: 1200,
			grade: 'gold',
			lastOrderDate: '2024-11-02',
		});
		expect(e2e.sb.state.custom.get('crm-1005')?.get('birthday')).toBe('1992-04-17');
		expect(e2e.sb.state.custom.get('crm-1003')?.has('points')).toBe(false);
		expect(e2e.sb.state.custom.get('crm-1004')?.has('favoriteColor')).toBe(false);

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
		// Every item is paired with one of the five input rows, and every row is reachable.
		const links = [
			...run.paired('Campaign Custom Data', 0),
			...run.paired('Campaign Custom Data', 1),
		] as Array<{ item: number }>;
		expect(
			links.every((link) => Number.isInteger(link?.item) && link.item >= 0 && link.item < 5),
		).toBe(true);
		expect([...new Set(links.map((link) => link.item))].sort()).toEqual([0, 1, 2, 3, 4]);
		expect(run.out('Synced')).toHaveLength(success.length);
	});

	test('member consent sync: upsert v2, failures with their codes', async () => {
		e2e.resetSandbox();
		const run = await e2e.runExample(e2e.EXAMPLES.consent.id);

		expect(e2e.sb.state.membersV2.get('01012345678')).toMatchObject({
			memberId: 'member-01',
			isReceive: 'false',
		});
		expect(e2e.sb.state.membersV2.get('01055550101')).toMatchObject({
			memberId: 'crm-1001',
			isReceive: 'true',
			name: 'Han Jisoo',
		});
		expect(e2e.sb.state.membersV2.get('01055550102')).toMatchObject({
			memberId: 'crm-1002',
			isReceive: 'true',
		});
		expect(e2e.sb.state.membersV2.has('01055550104')).toBe(false);
		expect(e2e.sb.state.membersV2.has('01055550105')).toBe(false);

		expect(run.out('Saved').map((item) => item.memberId)).toEqual([
			'member-01',
			'crm-1001',
			'crm-1002',
		]);
		const failures = run.out('Failures with codes');
		expect(failures.map((item) => [item.phoneNumber, item.code])).toEqual([
			['02-123-4567', 'F02'],
			['010-5555-0104', 'F01'],
			['010-5555-0105', 'F03'],
		]);
		for (const item of failures) expect(item.message).toEqual(expect.any(String));
	});

	test('event to message: Alimtalk send with variables, Failed to the retry path', async () => {
		e2e.resetSandbox();
		const run = await e2e.runExample(e2e.EXAMPLES.event.id);

		// The two sends run concurrently, so the order they reach the service in is not fixed (the
		// node's outputs keep input order, checked below): compare them sorted by phone number.
		const sent = e2e.sb.state.sent.map(
			(m) => [m.campaignKey, m.phoneNumber, m.properties] as const,
		);
		expect([...sent].sort((a, b) => a[1].localeCompare(b[1]))).toEqual([
			['DEMO-WELCOME', '821055550101', { name: 'Han Jisoo', coupon: 'WELCOME10' }],
			['DEMO-WELCOME', '821055550102', { name: 'Seo Minho', coupon: 'WELCOME10' }],
		]);
		expect(run.out('Sent').map((item) => [item.phoneNumber, item.status])).toEqual([
			['821055550101', 'sent'],
			['821055550102', 'sent'],
		]);
		const retry = run.out('Retry queue');
		expect(retry).toEqual([
			expect.objectContaining({
				phoneNumber: '010-5555',
				campaignKey: 'DEMO-WELCOME',
				code: '7012',
			}),
		]);
		expect(new Date(retry[0].retryAt).getTime()).toBeGreaterThan(Date.now());
		// The node rejected the short number itself: no request for it.
		expect(e2e.sb.requests.filter((r) => r.path === '/messages/alimtalk/trigger')).toHaveLength(2);
	});

	test('full read: getAll with Return All follows the paging, one item per member', async () => {
		e2e.resetSandbox({ pageSize: 7 });
		const run = await e2e.runExample(e2e.EXAMPLES.fullRead.id);

		const reads = e2e.sb.requests.filter((r) => r.method === 'GET' && r.path === '/v2/custom');
		// A page holds 7 entries (one key of one member each): exactly as many pages as that takes.
		const entries = [...e2e.sb.state.custom.values()].reduce((n, keys) => n + keys.size, 0);
		expect(reads).toHaveLength(Math.ceil(entries / 7));
		const members = run.out('Members');
		expect(members.map((m) => m.memberId)).toEqual([...e2e.sb.state.custom.keys()]);
		expect(members).toHaveLength(8);
		expect(members[0]).toMatchObject({
			memberId: 'member-01',
			name: 'Kim Minji',
			points: 150,
			grade: 'bronze',
		});
	});
});

describe('a Base URL that redirects, in real n8n (n8n execute)', () => {
	test('the send and a Members get reach nothing at the other host, both fail naming it, nothing is reported sent', async () => {
		// A "service" that would answer success, and a Base URL that redirects every request there.
		const other = await startScripted(() => ({
			body: { code: 0, processCode: 0, processValue: [] },
		}));
		const redirector = await startScripted((req) => ({
			status: 307,
			headers: { location: `${other.baseUrl}${req.url}` },
			body: { code: 0 },
		}));
		try {
			const credential = {
				id: 'e2eRedirect00001',
				name: 'Redirecting Base URL',
				type: 'campaignApi',
			};
			const redirectKey = ['e2e', 'redirect', 'key'].join('-');
			await e2e.importCredentials([
				{
					...credential,
					data: { baseUrl: redirector.baseUrl, apiKey: redirectKey, memberApiVersion: 'any' },
				},
			]);
			const uses = {
				credentials: { campaignApi: { id: credential.id, name: credential.name } },
				onError: 'continueRegularOutput',
			};
			const workflow = {
				id: 'e2eRedirectCheck',
				name: 'e2e: a Base URL that redirects',
				active: false,
				nodes: [
					{
						id: 'e2e-redirect-0',
						name: 'Start',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						id: 'e2e-redirect-1',
						name: 'Send',
						type: `${rt.PACKAGE_NAME}.campaignAlimtalk`,
						typeVersion: 1,
						position: [220, 0],
						parameters: {
							operation: 'send',
							campaignKey: 'DEMO-WELCOME',
							phoneNumber: '821099990007',
							properties: { property: [{ key: 'name', value: 'Kim' }] },
							options: { retryDelayMs: 0 },
						},
						...uses,
					},
					{
						id: 'e2e-redirect-2',
						name: 'Member',
						type: `${rt.PACKAGE_NAME}.campaignMembers`,
						typeVersion: 1,
						position: [220, 200],
						parameters: {
							apiVersion: 'v2',
							operation: 'get',
							memberId: 'm-1',
							options: { retryDelayMs: 0 },
						},
						...uses,
					},
				],
				connections: {
					Start: {
						main: [
							[
								{ node: 'Send', type: 'main', index: 0 },
								{ node: 'Member', type: 'main', index: 0 },
							],
						],
					},
				},
				settings: { executionOrder: 'v1' },
				pinData: {},
			};
			await e2e.importWorkflows([workflow]);
			const run = await e2e.runExample(workflow.id);

			expect(other.seen).toEqual([]);
			const host = new URL(other.baseUrl).host;
			for (const node of ['Send', 'Member']) {
				expect(run.out(node)).toEqual([
					expect.objectContaining({
						error: expect.stringContaining(`redirect (HTTP 307) to ${host}`),
					}),
				]);
			}
			expect(JSON.stringify(run.out('Send'))).not.toMatch(/"sent"|deliveryUnknown/);
			expect(JSON.stringify([run.out('Send'), run.out('Member')])).not.toContain(redirectKey);
			expect(redirector.seen.map((r) => r.url.split('?')[0]).sort()).toEqual([
				'/messages/alimtalk/trigger',
				'/v2/users/sms',
			]);
		} finally {
			await other.close();
			await redirector.close();
		}
	});
});
