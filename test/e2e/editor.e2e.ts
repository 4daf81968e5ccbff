/**
 * End-to-end, the editor: `n8n start` with the packed package, headless Chromium (Debian's
 * chromium with playwright-core). Every word of test/support/search-words.ts finds its nodes in
 * the node panel (the codex files' aliases); a send of 300 messages with 12 phone numbers of the
 * wrong length, run from the editor against the sandbox, shows the execution hint naming 7012 and
 * Convert Phone Numbers above the node's output. Screenshots go to
 * test-artifacts/e2e/editor/screenshots. The set-up is in support/.
 */
import type * as rt from '../../scripts/runtime';
import { delay, path } from '../support/node';
import { DISPLAY_NAMES, SEARCH_WORDS } from '../support/search-words';
import {
	NODES,
	SCREENSHOTS,
	importWorkflows,
	openNodePanel,
	pinnedWorkflow,
	resetSandbox,
	sb,
	setupN8n,
	startEditor,
	step,
	type Editor,
	type Json,
} from './support';

setupN8n('editor');

const HINT_WORKFLOW = 'e2eEditorHint';
const SEND_NODE = 'Send welcome';

/** Recipient i: every 25th phone written 010-xxxx-xxxx (13 characters, code 7012): 12 of 300. */
const recipient = (i: number) => {
	const phone = `8210${String(10000000 + i).slice(-8)}`;
	const bad = i % 25 === 7;
	return {
		phone: bad ? `010-${phone.slice(4, 8)}-${phone.slice(8)}` : phone,
		name: `Kim ${i}`,
	};
};

/** Manual trigger with 300 pinned recipients -> Campaign Alimtalk (DEMO-WELCOME of the sandbox). */
function hintWorkflow(): Json {
	return pinnedWorkflow({
		id: HINT_WORKFLOW,
		name: 'e2e editor: 300 sends, 12 bad phone numbers',
		node: {
			name: SEND_NODE,
			id: 'e2e00000-0000-4000-8000-0000000000a2',
			type: 'campaignAlimtalk',
			typeVersion: 1,
			parameters: {
				operation: 'send',
				campaignKey: 'DEMO-WELCOME',
				phoneNumber: '={{ $json.phone }}',
				properties: {
					property: [
						{ key: 'name', value: '={{ $json.name }}' },
						{ key: 'coupon', value: 'WELCOME10' },
					],
				},
				options: {},
			},
		},
		items: Array.from({ length: 300 }, (_, i) => recipient(i)),
	});
}

describe('the editor: node panel search and execution hints', () => {
	let n8n: rt.StartedN8n;
	let editor: Editor | undefined;
	let page: rt.Page;

	beforeAll(
		async () => {
			await importWorkflows([hintWorkflow()]);
			editor = await startEditor({ width: 1280, height: 800 });
			({ n8n, page } = editor);
		},
		10 * 60 * 1000,
	);

	afterAll(async () => {
		await editor?.close();
	});

	/** The top `height` pixels of an element, as a small picture for the README (docs/images/). */
	async function topOf(selector: string, height: number, file: string): Promise<void> {
		const box = await page
			.locator(selector)
			.first()
			.evaluateAll((elements) => {
				const r = (elements[0] as { getBoundingClientRect(): Json }).getBoundingClientRect();
				return { x: r.x as number, y: r.y as number, width: r.width as number };
			});
		await page.screenshot({ path: path.join(SCREENSHOTS, file), clip: { ...box, height } });
	}

	test('every search word finds its nodes in the node panel', async () => {
		const found: Record<string, string[]> = {};
		await step(page, 'search', async () => {
			const search = await openNodePanel(page, n8n, NODES[3]);
			const names = page.locator('[data-test-id="node-creator-item-name"]');
			for (const [index, [word, want]] of Object.entries(SEARCH_WORDS).entries()) {
				// Empty first, until no node of the package is listed: what is read next is this word's list.
				await search.fill('');
				await page
					.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Campaign / })
					.first()
					.waitFor({ state: 'detached', timeout: 30000 });
				await search.fill(word);
				const first = want.map((name) => DISPLAY_NAMES[name])[0];
				await page
					.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${first}$`) })
					.first()
					.waitFor({ timeout: 30000 });
				const listed = (await names.allInnerTexts()).map((text: string) => text.trim());
				found[word] = Object.values(DISPLAY_NAMES).filter((name) => listed.includes(name));
				const shot = path.join(SCREENSHOTS, `search-${String(index + 1).padStart(2, '0')}.png`);
				await page.locator('[data-test-id="node-creator"]').first().screenshot({ path: shot });
				if (word === '알림톡')
					await topOf('[data-test-id="node-creator"]', 235, 'readme-search.png');
			}
		});
		const expected = Object.fromEntries(
			Object.entries(SEARCH_WORDS).map(([word, want]) => [
				word,
				Object.values(DISPLAY_NAMES).filter((name) =>
					want.some((node) => DISPLAY_NAMES[node] === name),
				),
			]),
		);
		expect(found).toEqual(expected);
	});

	test('a send with 12 phone numbers of the wrong length shows one hint naming 7012 and the option', async () => {
		resetSandbox();
		let hints: string[] = [];
		await step(page, 'hint', async () => {
			await page.goto(`${n8n.url}/workflow/${HINT_WORKFLOW}`);
			await page.locator('[data-test-id="canvas"]').waitFor({ timeout: 60000 });
			await page.locator('[data-test-id="execute-workflow-button"]').first().click();
			for (let i = 0; i < 240 && sb.state.sent.length < 288; i++) await delay(500);
			// The node's box (its label below it lets the canvas take the pointer).
			await page
				.locator(`[data-test-id="canvas-node"][data-node-name="${SEND_NODE}"]`)
				.first()
				.dblclick();
			const hint = page.locator('[data-test-id="ndv"] [data-test-id="node-hint"]');
			await hint.first().waitFor({ timeout: 30000 });
			hints = (await hint.allInnerTexts()).map((text: string) => text.trim());
			await page.screenshot({ path: path.join(SCREENSHOTS, 'hint-after-send.png') });
			// The Failed branch beside the hint, for the README's picture.
			await page
				.getByText(/^Failed Branch/)
				.first()
				.click();
			await page
				.locator('[data-test-id="output-panel"]')
				.first()
				.screenshot({ path: path.join(SCREENSHOTS, 'hint-output-pane.png') });
			await topOf('[data-test-id="output-panel"]', 200, 'readme-hint.png');
		});
		expect(sb.state.sent).toHaveLength(288);
		expect(hints).toHaveLength(1);
		expect(hints[0]).toContain('288 sent, 12 failed (12 with code 7012). See the Failed output.');
		expect(hints[0]).toContain('Code 7012, phone number not 12 characters long');
		expect(hints[0]).toContain('Convert Phone Numbers');
		expect(hints[0]).not.toContain('<br>');
	});
});
