/**
 * End-to-end: Campaign Members version 2 in the real n8n editor (headless Chromium). The resource
 * mapper of Create or Update lists the member fields from the node's own method, with the field
 * the service matches on for each API Version; Map Automatically takes the previous node's output
 * (pinned items), and running the node stores those members in the sandbox. Screenshots go to
 * test-artifacts/e2e/editor-mapper/screenshots. The set-up is in support/.
 */
import type * as rt from '../../scripts/runtime';
import { delay, path } from '../support/node';
import * as e2e from './support';

e2e.setupN8n('editor-mapper');

const WORKFLOW_ID = 'e2eEditorMapper';
const MEMBERS_ID = 'e2e00000-0000-4000-8000-0000000000a2';

/** Start (two pinned members, field names as the mapper's) -> Campaign Members v2, Create or Update. */
function mapperWorkflow(): e2e.Json {
	return e2e.pinnedWorkflow({
		id: WORKFLOW_ID,
		name: 'e2e editor check: the members mapper',
		node: {
			name: 'Members',
			id: MEMBERS_ID,
			type: 'campaignMembers',
			typeVersion: 2,
			parameters: {
				apiVersion: 'v2',
				operation: 'upsert',
				columns: { mappingMode: 'defineBelow', value: null },
				options: {},
			},
		},
		items: [
			{ memberId: 'e2e-map-1', phoneNumber: '01077770001', isReceive: true, name: 'Mapper Kim' },
			{ memberId: 'e2e-map-2', phoneNumber: '010-7777-0002', isReceive: 'N' },
		],
	});
}

/** Waits until `check` holds (the editor loads fields and runs nodes in the background). */
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 60000) {
	for (const started = Date.now(); Date.now() - started < ms; await delay(250)) {
		if (await check()) return;
	}
	throw new Error(`waited ${ms} ms for ${what}`);
}

describe('the members mapper in the n8n editor', () => {
	let n8n: rt.StartedN8n;
	let editor: e2e.Editor | undefined;
	let page: rt.Page;
	const text = (testId: string) => page.locator(`[data-test-id="${testId}"]`).first().innerText();
	/** What a select shows as chosen (n8n's select keeps it in its input, not in the page text). */
	const chosen = (testId: string) =>
		page
			.locator(`[data-test-id="${testId}"] input`)
			.evaluateAll((inputs: Array<{ value: string; placeholder: string }>) =>
				inputs.map((input) => input.value || input.placeholder).join(' '),
			);

	beforeAll(
		async () => {
			await e2e.importWorkflows([mapperWorkflow()]);
			editor = await e2e.startEditor();
			({ n8n, page } = editor);
		},
		10 * 60 * 1000,
	);

	afterAll(async () => {
		await editor?.close();
	});

	test('the mapper lists the member fields, matched on the phone number (v2) or the member ID (v1)', async () => {
		await e2e.step(
			page,
			'1-fields-v2',
			async () => {
				await page.goto(`${n8n.url}/workflow/${WORKFLOW_ID}/${MEMBERS_ID}`);
				await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 60000 });
				await page.locator('[data-test-id="mapping-fields-container"]').waitFor({ timeout: 60000 });
				expect(await text('matching-column-select')).toContain('Member Matched On');
				// n8n's select names the chosen field by its id, the input field Map Automatically reads.
				expect(await chosen('matching-column-select')).toContain('phoneNumber');
				const fields = await text('mapping-fields-container');
				for (const label of ['Phone Number (using to', 'Member ID', 'Receives SMS', 'Name'])
					expect(fields).toContain(label);
				// The parameters column, for the README (docs/images/members-mapper.png is a copy).
				await page.screenshot({
					path: path.join(e2e.SCREENSHOTS, 'readme-mapper.png'),
					clip: { x: 511, y: 100, width: 420, height: 770 },
				});
				expect(fields.indexOf('Phone Number')).toBeLessThan(fields.indexOf('Member ID'));
			},
			{ keep: true },
		);

		await e2e.step(
			page,
			'2-fields-v1',
			async () => {
				await page.locator('[data-test-id="parameter-input-apiVersion"]').click();
				await page.getByRole('option', { name: /^V1/ }).click();
				await until('the fields of member API v1', async () =>
					(await text('mapping-fields-container')).includes('Member ID (using to'),
				);
				expect(await chosen('matching-column-select')).toContain('memberId');
				expect(await text('mapping-fields-container')).not.toContain('Phone Number (using to');
			},
			{ keep: true },
		);
	});

	test("Map Automatically takes the previous node's output: running the node stores those members", async () => {
		e2e.resetSandbox();
		await e2e.step(
			page,
			'3-auto-map',
			async () => {
				await page.locator('[data-test-id="parameter-input-apiVersion"]').click();
				await page.getByRole('option', { name: /^V2/ }).click();
				await until('the fields of member API v2', async () =>
					(await text('mapping-fields-container')).includes('Phone Number (using to'),
				);
				await page.locator('[data-test-id="mapping-mode-select"] input').first().click();
				await page.getByRole('option', { name: /Map Automatically/ }).click();
				await page
					.getByText('make sure the incoming data fields are named the same')
					.first()
					.waitFor({ timeout: 30000 });
			},
			{ keep: true },
		);

		await e2e.step(
			page,
			'4-auto-map-run',
			async () => {
				await page.locator('[data-test-id="node-execute-button"]').first().click();
				// The sandbox also holds its demo members (resetSandbox seeds them).
				await until('the two members in the sandbox', () =>
					e2e.sb.state.membersV2.has('01077770002'),
				);
				expect(e2e.sb.state.membersV2.get('01077770001')).toEqual({
					memberId: 'e2e-map-1',
					phoneNumber: '010-7777-0001',
					isReceive: 'true',
					name: 'Mapper Kim',
				});
				expect(e2e.sb.state.membersV2.get('01077770002')).toMatchObject({
					memberId: 'e2e-map-2',
					isReceive: 'false',
				});
				// The output panel shows the stored members.
				await page.getByText('e2e-map-2').first().waitFor({ timeout: 30000 });
			},
			{ keep: true },
		);
	});
});
