/**
 * The editor suites' shared set-up (editor.e2e.ts, editor-mapper.e2e.ts, n8n-start.e2e.ts): `n8n
 * start` in the suite's user folder with its owner, headless Chromium (Debian's chromium with
 * playwright-core) with one page signed in through the form, the node panel of a scratch
 * workflow, and `step`, which leaves a screenshot of where the editor was when a step failed
 * (and, when asked, when it passed).
 */
import * as rt from '../../../scripts/runtime';
import { path } from '../../support/node';
import { SCREENSHOTS, TYPE_PREFIX, paths, scratchWorkflow, startN8n, time, type Json } from './n8n';

export interface Editor {
	n8n: rt.StartedN8n;
	browser: rt.Browser;
	page: rt.Page;
	/** Stops the browser and n8n. */
	close(): Promise<void>;
}

/** Headless Chromium (Debian's, installed when missing) driven by the runtime's playwright-core. */
export async function launchChromium(): Promise<rt.Browser> {
	await time('chromium (installed when missing)', () => rt.ensureChromium());
	const { chromium } = rt.loadPlaywright(paths);
	return await chromium.launch({
		executablePath: rt.CHROMIUM_PATH,
		args: rt.chromiumArgs(),
		headless: true,
	});
}

/** Publishes (activates) an imported workflow through main's REST API (scripts/runtime/n8n-server.js). */
export const publishWorkflow = rt.publishWorkflow;

export async function startEditor(viewport = { width: 1440, height: 900 }): Promise<Editor> {
	const n8n = await startN8n();
	let browser: rt.Browser | undefined;
	let ready = false;
	try {
		await rt.setupOwner(n8n.url, n8n.ownerPassword);
		browser = await launchChromium();
		const page = await (await browser.newContext({ viewport })).newPage();
		await signInThroughForm(page, n8n);
		const started = browser;
		ready = true;
		return {
			n8n,
			browser: started,
			page,
			close: async () => {
				await started.close();
				await n8n.stop();
			},
		};
	} finally {
		if (!ready) {
			await browser?.close();
			await n8n.stop();
		}
	}
}

/**
 * Signs the owner in through the sign-in form (n8n ties its session cookie to the browser that
 * signed in); `filled` runs once the form is filled, before it is sent.
 */
export async function signInThroughForm(
	page: rt.Page,
	n8n: rt.StartedN8n,
	filled: () => Promise<unknown> = async () => undefined,
): Promise<void> {
	await page.goto(`${n8n.url}/signin`);
	await page.locator('input[name="emailOrLdapLoginId"]').fill(rt.OWNER.email);
	await page.locator('input[name="password"]').fill(n8n.ownerPassword);
	await filled();
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url: URL) => !url.pathname.includes('signin'), { timeout: 60000 });
}

/** Opens the node panel on the scratch workflow of `node`; returns the panel's search input. */
export async function openNodePanel(
	page: rt.Page,
	n8n: rt.StartedN8n,
	node: { name: string; displayName: string },
) {
	await page.goto(`${n8n.url}/workflow/${scratchWorkflow(node).id}`);
	await page.locator('[data-test-id="canvas"]').waitFor({ timeout: 60000 });
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	return page
		.locator(
			'[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]',
		)
		.first();
}

/**
 * Runs a step of a page; a failed step leaves `FAILED-<name>.png` in the suite's screenshots,
 * and with `keep` a passed one leaves `<name>.png`.
 */
export async function step(
	page: rt.Page,
	name: string,
	fn: () => Promise<void>,
	{ keep = false } = {},
): Promise<void> {
	let passed = false;
	try {
		await fn();
		passed = true;
	} finally {
		if (!passed || keep) {
			const file = path.join(SCREENSHOTS, `${passed ? name : `FAILED-${name}`}.png`);
			await page.screenshot({ path: file }).catch(() => undefined);
		}
	}
}

/**
 * A workflow as the editor saves it: Start (a manual trigger with `items` pinned) -> one package
 * node (`type` without the package prefix) with the sandbox credential.
 */
export function pinnedWorkflow(options: {
	id: string;
	name: string;
	node: { name: string; id: string; type: string; typeVersion: number; parameters: Json };
	items: Json[];
}): Json {
	const { node } = options;
	return {
		id: options.id,
		name: options.name,
		active: false,
		nodes: [
			{
				parameters: {},
				id: 'e2e00000-0000-4000-8000-0000000000a1',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				...node,
				type: `${TYPE_PREFIX}${node.type}`,
				position: [300, 0],
				credentials: {
					campaignApi: { id: rt.SANDBOX_CREDENTIAL.id, name: rt.SANDBOX_CREDENTIAL.name },
				},
			},
		],
		connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: { Start: options.items.map((json) => ({ json })) },
	};
}
