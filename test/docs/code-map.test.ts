/**
 * CONTRIBUTING.md's code map matches the tree: every source file of the package (nodes/**,
 * credentials/**) is named in it, every file it names under nodes/ or credentials/ exists, and
 * every path the page names anywhere (any table cell, paragraph or list item) exists.
 *
 * How a file is named: each row of the tables under "## Code map" starts with a cell that names a
 * file or a folder in backticks. A file row names its file (`<Node>`-style placeholders stand for
 * one path segment: `nodes/<Node>/operations/<operation>.ts`). A folder row (`nodes/shared/`)
 * names each of its files in backticks by its path from that folder (`transport/client.ts`, or
 * `run.ts` for a file directly in it). To add a file, add its name to the row of its folder.
 *
 * What counts as a path, anywhere on the page: a backticked token with a `/` or ending in a file
 * extension (.ts .js .mjs .cjs .json .md .yml .yaml .svg), made only of path characters (no
 * space, quote, call or URL; no `@scope/` package). It is read from the repository root, or from
 * a folder named before it in the same table row, list item or paragraph (or a parent of that
 * folder: `helpers/common.ts` after `nodes/CampaignMembers/operations/<operation>.ts`); text
 * saying "of the node" or "the node's" names `nodes/<Node>/`. `<Name>` stands for one segment and
 * `*` for part of one (at least one match must exist); a trailing `/` names a folder; an anchor
 * (`#limits`) is not checked here (links.test.ts checks links). A path under a folder .gitignore
 * lists (`dist/`, `build/`) is made by a command and not checked.
 *
 * CODE_MAP_FILE=<file> checks another copy of the page (default CONTRIBUTING.md).
 */
import { ROOT, env, fs, path } from '../support/node';

const DOC_NAME = env.CODE_MAP_FILE ?? 'CONTRIBUTING.md';
const DOC = fs.readFileSync(path.resolve(ROOT, DOC_NAME), 'utf8');

/** The rows of the code map's tables, as their cells. */
function mapRows(): string[][] {
	const start = DOC.indexOf('\n## Code map');
	if (start < 0) throw new Error(`${DOC_NAME} has no "## Code map" section`);
	const end = DOC.indexOf('\n## ', start + 1);
	const section = DOC.slice(start, end < 0 ? undefined : end);
	return section
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
		.map((line) => line.split('|').slice(1, -1));
}

const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** What the map names: patterns from file rows, and per folder row the paths it names in it. */
function mapNames() {
	const patterns: RegExp[] = [];
	const folders: Array<{ folder: string; names: Set<string> }> = [];
	for (const cells of mapRows()) {
		const rowNames = backticked(cells.join('|'));
		for (const anchor of backticked(cells[0] ?? '')) {
			if (anchor.endsWith('/')) folders.push({ folder: anchor, names: new Set(rowNames) });
			else {
				const escaped = anchor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
				patterns.push(new RegExp(`^${escaped.replace(/<[^>]+>/g, '[^/]+')}$`));
			}
		}
	}
	return { patterns, folders };
}

/** Every file under `folder` (relative to the repository), in sorted order. */
function filesUnder(folder: string): string[] {
	return fs
		.readdirSync(path.join(ROOT, folder), { withFileTypes: true })
		.flatMap((entry) =>
			entry.isDirectory() ? filesUnder(`${folder}/${entry.name}`) : [`${folder}/${entry.name}`],
		)
		.sort();
}

const sourceFiles = (): string[] => [...filesUnder('nodes'), ...filesUnder('credentials')];

/** The names .gitignore lists as they are (`dist`, `build`, ...): made by commands, not kept. */
const IGNORED = new Set(
	fs
		.readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
		.split('\n')
		.map((line) => line.trim().replace(/^\/|\/$/g, ''))
		.filter((line) => /^[\w.-]+$/.test(line)),
);

/** The repository's files and folders (folders end in `/`), without .git and ignored names. */
function repositoryTree(): { files: Set<string>; folders: Set<string> } {
	const files = new Set<string>();
	const folders = new Set<string>();
	const walk = (folder: string) => {
		for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
			if (entry.name === '.git' || IGNORED.has(entry.name)) continue;
			const name = `${folder}${entry.name}`;
			if (entry.isDirectory()) {
				folders.add(`${name}/`);
				walk(`${name}/`);
			} else files.add(name);
		}
	};
	walk('');
	return { files, folders };
}

/** The path a token names, or undefined for a token that is no path (a command, a package, code). */
function pathOf(token: string): string | undefined {
	const name = token.replace(/#[\w-]*$/, '');
	if (!/^[\w.<>*-]+(\/[\w.<>*-]+)*\/?$/.test(name) || name.startsWith('-')) return undefined;
	if (/^(\.[a-z\d]{1,4})+$/i.test(name)) return undefined; // a suffix such as `.ko.md`
	return name.includes('/') || /\.(ts|js|mjs|cjs|json|md|yml|yaml|svg)$/.test(name)
		? name
		: undefined;
}

/** A table row, a list item or a paragraph: its text and its backticked tokens with line numbers. */
function blocksOf(
	text: string,
): Array<{ text: string; tokens: Array<{ token: string; line: number }> }> {
	const groups: Array<{ start: number; lines: string[] }> = [];
	let fenced = false;
	let open = false;
	text.split('\n').forEach((line, i) => {
		if (line.startsWith('```')) fenced = !fenced;
		const single = line.startsWith('|') || line.startsWith('#');
		if (fenced || line.trim() === '' || line.startsWith('```')) open = false;
		else if (!open || single || /^\s*([-*+]|\d+\.)\s/.test(line)) {
			groups.push({ start: i + 1, lines: [line] });
			open = !single;
		} else groups[groups.length - 1].lines.push(line);
	});
	return groups.map(({ start, lines }) => {
		const joined = lines.join('\n');
		const tokens = [...joined.matchAll(/`([^`]+)`/g)].map((m) => ({
			token: m[1],
			line: start + joined.slice(0, m.index).split('\n').length - 1,
		}));
		return { text: joined, tokens };
	});
}

const NODE_FOLDER_WORDS = /\b(of the node\b|the node's|the node files)/;

/** The folder of a path and every folder above it (`a/b/c.ts` gives `a/`, `a/b/`). */
const foldersOf = (name: string) =>
	name
		.split('/')
		.slice(0, -1)
		.map((_, i, segments) => `${segments.slice(0, i + 1).join('/')}/`);

describe("CONTRIBUTING.md's code map", () => {
	const { patterns, folders } = mapNames();
	const named = (file: string) =>
		patterns.some((pattern) => pattern.test(file)) ||
		folders.some(
			({ folder, names }) => file.startsWith(folder) && names.has(file.slice(folder.length)),
		);

	it('names every source file of the package (nodes/**, credentials/**)', () => {
		const missing = sourceFiles().filter((file) => !named(file));
		expect(
			missing.map(
				(file) =>
					`${file} is missing from the code map of ${DOC_NAME}: name it in backticks, by its path from its folder, in that folder's row`,
			),
		).toEqual([]);
	});

	it('names no file under nodes/ or credentials/ that does not exist', () => {
		const files = new Set(sourceFiles());
		const stale: string[] = [];
		for (const { folder, names } of folders) {
			if (!/^(nodes|credentials)\//.test(folder) || folder.includes('<')) continue;
			for (const name of names) {
				if (!/^[\w./-]+\.(ts|json)$/.test(name) || name.includes('<')) continue;
				const path = /^(nodes|credentials)\//.test(name) ? name : `${folder}${name}`;
				if (!files.has(path)) stale.push(`${path} (named in the row of ${folder})`);
			}
		}
		expect(stale).toEqual([]);
	});

	it('names no path anywhere on the page that is not in the repository', () => {
		const tree = repositoryTree();
		const exists = (pattern: string): boolean => {
			const pool = pattern.endsWith('/') ? tree.folders : tree.files;
			if (!/[<*]/.test(pattern)) return pool.has(pattern);
			const source = pattern
				.split('/')
				.map((segment) =>
					segment
						.split(/(<[^>]+>|\*)/)
						.map((part, i) =>
							i % 2
								? part === '*'
									? '[^/]*'
									: '[^/]+'
								: part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
						)
						.join(''),
				)
				.join('/');
			const re = new RegExp(`^${source}$`);
			return [...pool].some((entry) => re.test(entry));
		};
		const problems: string[] = [];
		for (const block of blocksOf(DOC)) {
			const bases = new Set(['']);
			if (NODE_FOLDER_WORDS.test(block.text)) bases.add('nodes/<Node>/');
			for (const { token, line } of block.tokens) {
				const name = pathOf(token);
				if (name === undefined || IGNORED.has(name.split('/')[0])) continue;
				const found = [...bases].filter((base) => exists(base + name));
				for (const base of found) for (const folder of foldersOf(base + name)) bases.add(folder);
				if (found.length > 0) continue;
				// What may be meant: entries of the same name, the nearest to the folders of the text first.
				const last = name.replace(/\/$/, '').split('/').pop()!;
				const near = (entry: string) =>
					Math.max(...[...bases].filter((base) => entry.startsWith(base)).map((b) => b.length));
				const alike = [...tree.files, ...tree.folders]
					.filter((entry) => entry.replace(/\/$/, '').split('/').pop() === last)
					.sort((a, b) => near(b) - near(a))
					.slice(0, 3);
				const from = [...bases].map((base) => base || 'the root');
				const tried = from.length > 6 ? `${from.slice(0, 6).join(', ')}, ...` : from.join(', ');
				problems.push(
					`  ${DOC_NAME}:${line} \`${token}\` (read from ${tried})` +
						(!name.endsWith('/') && [...bases].some((base) => exists(`${base}${name}/`))
							? ': it is a folder, end it with /'
							: '') +
						(alike.length > 0 ? `; the same name is at ${alike.join(', ')}` : ''),
				);
			}
		}
		if (problems.length > 0) {
			throw new Error(
				[
					`${DOC_NAME} names ${problems.length} path(s) the repository does not have:`,
					...problems,
					'To fix: write each as the path it has now, from the repository root or from a folder named before it in the same table row, list item or paragraph (a file moved: `git status` shows where), or drop it if the file is gone. `<Name>` stands for one path segment and `*` for part of one; a trailing / names a folder. A backticked name that is no path (a package, an option) has no "/" and no file extension.',
				].join('\n'),
			);
		}
	});
});
