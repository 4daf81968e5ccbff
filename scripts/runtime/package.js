/** This repository's package: build it, compile the sandbox, pack it, check that dist/ is complete and current. */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, formatDuration, log, run } = require('./run-command');

/** `npm run build` in the repository. */
async function buildPackage() {
	const t = Date.now();
	log('building the package (npm run build)');
	await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, label: 'npm run build' });
	log(`  built in ${formatDuration(Date.now() - t)}`);
}

/** Compiles the sandbox (npx gulp sandbox) and returns the folder that holds server.js and cli.js. */
async function buildSandbox() {
	await run(
		process.execPath,
		[path.join(ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'sandbox'],
		{ cwd: ROOT },
	);
	const dir = findSandboxBuild();
	if (!dir)
		throw new Error('gulp sandbox ran but no compiled sandbox (cli.js) was found under build/');
	return dir;
}

/** Where `gulp sandbox` put its output (build/sandbox), when it is there. */
function findSandboxBuild() {
	const dir = path.join(ROOT, 'build', 'sandbox');
	return fs.existsSync(path.join(dir, 'cli.js')) && fs.existsSync(path.join(dir, 'server.js'))
		? dir
		: undefined;
}

/** `npm pack` of the repository (or the checkout at `root`) into `dest`; returns the tarball's path. Build first. */
async function packPackage(dest, root = ROOT) {
	fs.mkdirSync(dest, { recursive: true });
	const { stdout } = await run(
		'npm',
		['pack', '--json', '--pack-destination', dest, '--loglevel=error'],
		{ cwd: root },
	);
	const info = JSON.parse(stdout.slice(stdout.indexOf('[')));
	return path.join(dest, info[0].filename);
}

/** The files listed in the package's `n8n` section that are missing from dist/ (nodes not built yet). */
function missingDistFiles(root = ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	return [...pkg.n8n.nodes, ...pkg.n8n.credentials].filter(
		(file) => !fs.existsSync(path.join(root, file)),
	);
}

/** The newest file under `dirs` and its modification time (`mtimeMs` 0 when there is none). */
function newestFile(dirs) {
	let newest = { file: '', mtimeMs: 0 };
	const visit = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) visit(full);
			else if (entry.isFile()) {
				const { mtimeMs } = fs.statSync(full);
				if (mtimeMs > newest.mtimeMs) newest = { file: full, mtimeMs };
			}
		}
	};
	for (const dir of dirs) if (fs.existsSync(dir)) visit(dir);
	return newest;
}

/**
 * Why dist/ does not hold the current package, or undefined when it does: a file the `n8n`
 * section lists is missing, or a file under nodes/ or credentials/ changed after the newest file
 * of dist/ was written (the build empties dist/ and writes every file).
 */
function distProblem(root = ROOT) {
	const missing = missingDistFiles(root);
	if (missing.length > 0) return `dist/ lacks ${missing.join(', ')}`;
	const source = newestFile([path.join(root, 'nodes'), path.join(root, 'credentials')]);
	const built = newestFile([path.join(root, 'dist')]);
	if (source.mtimeMs > built.mtimeMs)
		return `dist/ is older than the sources: ${path.relative(root, source.file)} changed after the last build`;
	return undefined;
}

/**
 * `npm run build` when dist/ is not the current package (distProblem says why), else nothing: the
 * rule of `npm start`, `npm run start:queue`, `npm run test:queue`, `npm run test:compat` and the
 * end-to-end tests (a build empties dist/ first: a needless one costs seconds and pulls the files
 * from under anything reading them).
 */
async function ensureBuilt() {
	const problem = distProblem();
	if (problem === undefined) return;
	log(problem);
	await buildPackage();
}

module.exports = {
	buildPackage,
	ensureBuilt,
	buildSandbox,
	findSandboxBuild,
	packPackage,
	missingDistFiles,
	distProblem,
};
