/**
 * README.ko.md (the Korean README) keeps step with README.md.
 *
 * HOW TO ADD A SECTION (or rename one):
 *   1. Add the heading to README.md as usual, e.g. `### Execution hints`.
 *   2. In README.ko.md, at the same place and the same level, add the Korean heading with the
 *      English heading, exactly, in a comment on the line just above it:
 *
 *        <!-- en: Execution hints -->
 *        ### 실행 힌트
 *
 *   3. In that Korean section keep, verbatim (English), what the rules below list for the English
 *      section: its codes, field names and environment variables in backticks, its `npm ...`
 *      commands, the lines of its code blocks (comments after `#` may be translated), and the
 *      editor names (nodes, parameters, options, outputs, n8n's own menus) it sets in **bold** or
 *      *italics*. A Korean gloss may follow in parentheses. The failure message lists what is
 *      missing, section by section.
 *
 * The rules:
 * (a) README.md links README.ko.md on the line just below its title; README.ko.md links back to
 *     README.md near its top.
 * (b) Every heading of README.md has exactly one counterpart in README.ko.md: the same level, in
 *     the same order, with `<!-- en: <English heading> -->` on the line just above it; README.ko.md
 *     has no other headings.
 * (c) A section is the text from a heading to the next heading (any level). Every token of an
 *     English section listed below appears in its Korean section (after whitespace is collapsed,
 *     as Markdown does):
 *     - backticked codes: `7012`, `-1009`, `F02` (/^-?\d+$/, /^F\d\d$/);
 *     - backticked field names and codes in camelCase (`deliveryUnknown`, `earlierSendUnconfirmed`)
 *       and field/value pairs (`code: "0"`, `deliveryUnknown: true`);
 *     - backticked environment variables (`N8N_ENCRYPTION_KEY`, `EXECUTIONS_MODE=queue`);
 *     - backticked commands a reader types: `npm ...`, `npx ...`, `node ...`, `n8n ...`;
 *     - every line of a fenced code block, without a trailing `# comment`;
 *     - bold or italic UI names: a span whose parts (split at `→`, `>` and `: `) are each a name
 *       the editor shows, that is a `displayName` or option `name` in the package's sources
 *       (nodes/, credentials/; a trailing "(Ms)"-like suffix dropped) or one of N8N_UI below.
 *     Not required: other backticked text (file paths, URLs, `--flags`, sample values): the Korean
 *     text may summarise a long benchmark or file list (the brief allows it), and README.md's own
 *     commands and paths are exercised by the end-to-end and release checks; prose in bold (a
 *     sentence or a label such as **Values**) is translated.
 * (d) Every relative link of README.ko.md points at a file or folder of the repository, and every
 *     `#anchor` at a heading of the file it names (GitHub's slugs).
 */
import { ROOT, fs, path } from '../support/node';
import { slug } from './support';

const EN_FILE = 'README.md';
const KO_FILE = 'README.ko.md';
const KO_LINK_LINE = '한국어 안내: [README.ko.md](README.ko.md)';

/** n8n's own editor names that README.md sets in bold or italics (menus, settings, nodes). */
const N8N_UI = [
	'Settings',
	'Community Nodes',
	'Install',
	'Workflows',
	'Import from File',
	'On Error',
	'Continue',
	'Retry On Fail',
	'Execute workflow',
	'Webhook',
	'Wait',
	'Workflow',
	'Clear Deduplication History',
	'Test',
	'Environments',
	'Rules',
];

interface Section {
	level: number;
	heading: string;
	/** The comment's English heading (README.ko.md only). */
	en?: string;
	/** The heading's line number, 1-based. */
	line: number;
	body: string;
}

const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** Splits Markdown at its headings (outside fenced code blocks). */
function sections(text: string): Section[] {
	const lines = text.split('\n');
	const found: Section[] = [];
	let fenced = false;
	let body: string[] = [];
	lines.forEach((line, index) => {
		if (/^\s*```/.test(line)) fenced = !fenced;
		const heading = fenced ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) {
			body.push(line);
			return;
		}
		if (found.length > 0) found[found.length - 1].body = body.join('\n');
		body = [];
		const comment = /^<!--\s*en:\s*(.*?)\s*-->$/.exec((lines[index - 1] ?? '').trim());
		found.push({
			level: heading[1].length,
			heading: heading[2],
			en: comment?.[1],
			line: index + 1,
			body: '',
		});
	});
	if (found.length > 0) found[found.length - 1].body = body.join('\n');
	return found;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
const withoutComments = (text: string): string => text.replace(/<!--[\s\S]*?-->/g, '');

/** The names the editor shows for this package, from the sources. */
function uiNames(): Set<string> {
	const names = new Set(N8N_UI);
	const visit = (dir: string): void => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) visit(full);
			else if (entry.name.endsWith('.ts')) {
				const source = fs.readFileSync(full, 'utf8');
				for (const m of source.matchAll(/\b(?:displayName|name):\s*'([^'\n]+)'/g)) {
					if (!/^[A-Z]/.test(m[1])) continue; // internal names (memberId) are not shown
					names.add(m[1]);
					names.add(m[1].replace(/\s*\([^)]*\)$/, '')); // "Timeout (Ms)" is written "Timeout"
				}
			}
		}
	};
	visit(path.join(ROOT, 'nodes'));
	visit(path.join(ROOT, 'credentials'));
	return names;
}

const UI = uiNames();

function isUiName(span: string): boolean {
	const parts = span
		.split(/\s*(?:→|>|:\s)\s*/)
		.map((part) => part.trim())
		.filter((part) => part !== '');
	return parts.length > 0 && parts.every((part) => UI.has(part));
}

const CODE = [/^-?\d+$/, /^F\d\d$/];
const FIELD = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const FIELD_VALUE = /^[a-z][A-Za-z0-9]*: \S/;
const ENV = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?:=\S*)?$/;
const COMMAND = /^(?:npm|npx|node|n8n) /;

/** What a Korean section must repeat of an English section's body (rule c). */
function requiredTokens(body: string): string[] {
	const tokens = new Set<string>();
	let prose = withoutComments(body).replace(/```[^\n]*\n([\s\S]*?)```/g, (_block, code: string) => {
		for (const line of code.split('\n')) {
			const command = line.replace(/\s+#.*$/, '').trim();
			if (command !== '' && !command.startsWith('#')) tokens.add(collapse(command));
		}
		return ' ';
	});
	prose = collapse(prose);
	for (const m of prose.matchAll(/`([^`]+)`/g)) {
		const span = m[1].trim();
		if (
			CODE.some((re) => re.test(span)) ||
			FIELD.test(span) ||
			FIELD_VALUE.test(span) ||
			ENV.test(span) ||
			COMMAND.test(span)
		)
			tokens.add(span);
	}
	const noCode = prose.replace(/`[^`]*`/g, ' ');
	for (const m of noCode.matchAll(/\*\*([^*]+?)\*\*/g)) if (isUiName(m[1])) tokens.add(m[1].trim());
	for (const m of noCode.replace(/\*\*/g, ' ').matchAll(/(?<![*\w])\*([^*]+?)\*(?![*\w])/g))
		if (isUiName(m[1])) tokens.add(m[1].trim());
	return [...tokens];
}

function anchors(text: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const section of sections(text)) {
		const base = slug(section.heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

const en = read(EN_FILE);
const ko = read(KO_FILE);
const enSections = sections(en);
const koSections = sections(ko);

describe('README.ko.md, the Korean README', () => {
	test('(a) README.md links README.ko.md just below its title, and README.ko.md links back', () => {
		const lines = en.split('\n');
		const title = lines.findIndex((line) => /^# /.test(line));
		const next = lines.slice(title + 1).find((line) => line.trim() !== '');
		expect(next?.trim()).toBe(KO_LINK_LINE);
		const top = ko.split('\n').slice(0, 10).join('\n');
		expect(top).toMatch(/English: \[README\.md\]\(README\.md\)/);
	});

	test('(b) every heading of README.md has exactly one Korean counterpart, same level and order', () => {
		const problems: string[] = [];
		const english = enSections.map((s) => `${'#'.repeat(s.level)} ${s.heading}`);
		const korean = koSections.map((s) =>
			s.en === undefined
				? `(no <!-- en: ... --> comment above "${s.heading}", README.ko.md line ${s.line})`
				: `${'#'.repeat(s.level)} ${s.en}`,
		);
		const unmatched = (from: string[], other: string[]): string[] => {
			const left = [...other];
			return from.filter((heading) => {
				const at = left.indexOf(heading);
				if (at === -1) return true;
				left.splice(at, 1);
				return false;
			});
		};
		for (const heading of unmatched(english, korean))
			problems.push(`no Korean counterpart for README.md's "${heading}"`);
		for (const heading of unmatched(korean, english))
			problems.push(`README.ko.md has a heading README.md does not: ${heading}`);
		for (let i = 0; problems.length === 0 && i < english.length; i++) {
			// The same headings, in another order or at another level: the first difference.
			if (english[i] !== korean[i])
				problems.push(
					`heading #${i + 1}: README.md has "${english[i]}", README.ko.md has "${korean[i]}" ` +
						`("${koSections[i].heading}", line ${koSections[i].line})`,
				);
		}
		if (problems.length > 0)
			throw new Error(
				`README.ko.md's headings do not follow README.md's (add "<!-- en: <English heading> -->" ` +
					`on the line above each Korean heading, same level, same order):\n  ` +
					problems.join('\n  '),
			);
	});

	test('(c) each Korean section keeps the codes, fields, commands and UI names of its English section', () => {
		expect(koSections.length).toBe(enSections.length); // (b) explains a mismatch
		const missing: string[] = [];
		let total = 0;
		enSections.forEach((section, i) => {
			const tokens = requiredTokens(section.body);
			total += tokens.length;
			const korean = collapse(withoutComments(koSections[i].body));
			const absent = tokens.filter((token) => !korean.includes(token));
			if (absent.length > 0)
				missing.push(
					`${'#'.repeat(section.level)} ${section.heading} (README.ko.md line ${koSections[i].line}): ` +
						absent.map((t) => JSON.stringify(t)).join(', '),
				);
		});
		expect(total).toBeGreaterThan(100); // the rule finds what it should (a sanity floor)
		if (missing.length > 0)
			throw new Error(
				`README.ko.md leaves out, section by section, what README.md's section names:\n  ${missing.join('\n  ')}`,
			);
	});

	test('(d) the links of README.ko.md point at files and headings that exist', () => {
		const broken: string[] = [];
		const stripped = ko.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
		for (const m of stripped.matchAll(/\]\(([^)\s]+)\)/g)) {
			const target = m[1];
			if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
			const [file, anchor] = target.split('#');
			const name = file === '' ? KO_FILE : file;
			const full = path.join(ROOT, name);
			if (!fs.existsSync(full)) {
				broken.push(`${target}: no such file`);
				continue;
			}
			if (anchor !== undefined && name.endsWith('.md')) {
				const heads = anchors(fs.readFileSync(full, 'utf8'));
				if (!heads.has(anchor)) broken.push(`${target}: no heading with that anchor in ${name}`);
			}
		}
		if (broken.length > 0)
			throw new Error(`README.ko.md has broken links:\n  ${broken.join('\n  ')}`);
	});
});
