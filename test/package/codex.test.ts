/**
 * The codex files (nodes/<Node>/<Node>.node.json), which n8n reads next to each node file for the
 * node panel: the words people search find the right nodes, and each documentation link points
 * at a heading of README.md. The same words in the real editor: test/e2e/editor.e2e.ts.
 */
import { loadPackage, PACKAGE_NAME } from '../support';
import { fs, path, ROOT } from '../support/node';
import { DISPLAY_NAMES, SEARCH_WORDS } from '../support/search-words';

interface Codex {
	node: string;
	categories: string[];
	alias: string[];
	resources: { primaryDocumentation: Array<{ url: string }> };
}

const FOLDERS = ['CampaignAlimtalk', 'CampaignMembers', 'CampaignCustomData', 'CampaignLegacyData'];
const codexOf = (folder: string) =>
	JSON.parse(
		fs.readFileSync(path.join(ROOT, 'nodes', folder, `${folder}.node.json`), 'utf8'),
	) as Codex;

/** The editor's first test of a search (n8n 2.41.1's node creator): the letters of the query, in order, case-insensitive. */
function letters(query: string, text: string): boolean {
	let next = 0;
	for (const ch of text) if (ch.toLowerCase() === query.charAt(next).toLowerCase()) next++;
	return next === query.length;
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

describe('codex files', () => {
	const pkg = loadPackage();
	const nodes = FOLDERS.map((folder) => {
		const codex = codexOf(folder);
		const name = codex.node.slice(PACKAGE_NAME.length + 1);
		const displayName = pkg.nodes.get(codex.node)?.description.displayName ?? '';
		return { folder, codex, name, searched: [displayName, ...codex.alias] };
	});

	it('name the node type of the node file beside them', () => {
		for (const { folder, codex, name, searched } of nodes) {
			expect(codex.node).toBe(`${PACKAGE_NAME}.${name}`);
			expect(pkg.nodes.get(codex.node)?.description.name).toBe(name);
			expect(searched[0]).toBe(DISPLAY_NAMES[name]);
			expect(folder.toLowerCase()).toBe(name.toLowerCase());
		}
	});

	it.each(Object.entries(SEARCH_WORDS))('the search "%s" finds %j and no other', (word, want) => {
		const found = nodes.filter((n) => n.searched.some((text) => letters(word, text)));
		expect(found.map((n) => n.name).sort()).toEqual([...want].sort());
	});

	it('link each node to a heading of README.md', () => {
		const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		const anchors = new Set(
			[...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])),
		);
		for (const { codex } of nodes) {
			const [link] = codex.resources.primaryDocumentation;
			const [page, anchor] = link.url.split('#');
			expect(page).toBe('https://github.com/campaign-messaging/n8n-nodes-campaign-messaging');
			expect(anchors).toContain(anchor);
		}
	});
});
