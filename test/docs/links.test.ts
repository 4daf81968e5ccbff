/**
 * Every relative link of the README (both languages), CONTRIBUTING.md and the docs/ pages
 * resolves: its file or folder exists in the repository, and its `#anchor` is a heading of the
 * Markdown file it names (GitHub's anchors). A page moved or a heading renamed fails here, naming
 * the file, the line and the link.
 */
import { ROOT, fs, path } from '../support/node';
import { slug } from './support';

/** The lines of a Markdown text outside fenced code blocks, with their numbers. */
function proseLines(text: string): Array<{ line: string; number: number }> {
	let fenced = false;
	const out: Array<{ line: string; number: number }> = [];
	text.split('\n').forEach((line, i) => {
		if (line.startsWith('```')) fenced = !fenced;
		else if (!fenced) out.push({ line, number: i + 1 });
	});
	return out;
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2...). */
function anchorsOf(text: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const { line } of proseLines(text)) {
		const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
		if (heading === undefined) continue;
		const base = slug(heading.trim());
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

const PAGES = [
	'README.md',
	'README.ko.md',
	'CONTRIBUTING.md',
	...fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

/** What is wrong with one link of `page`, or undefined when it resolves. */
function problemOf(page: string, target: string): string | undefined {
	const [file, anchor] = target.split('#') as [string, string | undefined];
	const resolved = file === '' ? page : path.posix.join(path.posix.dirname(page), file);
	const absolute = path.join(ROOT, resolved);
	if (!fs.existsSync(absolute)) return `${resolved} does not exist`;
	if (anchor === undefined || anchor === '') return undefined;
	if (!resolved.endsWith('.md')) return `an anchor into ${resolved}, which is not Markdown`;
	const anchors = anchorsOf(fs.readFileSync(absolute, 'utf8'));
	return anchors.has(decodeURIComponent(anchor))
		? undefined
		: `${resolved} has no heading #${anchor}`;
}

describe('links between the pages', () => {
	it.each(PAGES)('every relative link of %s resolves (file and #anchor)', (page) => {
		const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
		const problems: string[] = [];
		for (const { line, number } of proseLines(text)) {
			for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
				const target = match[1];
				if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
				const problem = problemOf(page, target);
				if (problem !== undefined) problems.push(`${page}:${number} (${target}): ${problem}`);
			}
		}
		expect(problems).toEqual([]);
	});

	it('finds the links it checks (a README with no relative link would pass vacuously)', () => {
		const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		expect(readme.match(/\]\((?![a-z]+:)[^)\s]+\)/gi)?.length ?? 0).toBeGreaterThan(5);
	});
});
