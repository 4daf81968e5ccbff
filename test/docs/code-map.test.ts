/**
 * CONTRIBUTING.md's code map matches the tree: every source file of the package (nodes/**,
 * credentials/**) is named in it, and every file it names under nodes/ or credentials/ exists.
 *
 * How a file is named: each row of the tables under "## Code map" starts with a cell that names a
 * file or a folder in backticks. A file row names its file (`<Node>`-style placeholders stand for
 * one path segment: `nodes/<Node>/operations/<operation>.ts`). A folder row (`nodes/shared/`)
 * names each of its files in backticks by its path from that folder (`transport/client.ts`, or
 * `run.ts` for a file directly in it). To add a file, add its name to the row of its folder.
 */
import { ROOT, fs, path } from '../support/node';

/** The rows of the code map's tables, as their cells. */
function mapRows(): string[][] {
	const text = fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
	const start = text.indexOf('\n## Code map');
	if (start < 0) throw new Error('CONTRIBUTING.md has no "## Code map" section');
	const end = text.indexOf('\n## ', start + 1);
	const section = text.slice(start, end < 0 ? undefined : end);
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
					`${file} is missing from the code map of CONTRIBUTING.md: name it in backticks, by its path from its folder, in that folder's row`,
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
});
