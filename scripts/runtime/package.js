/** This repository's package: build it, compile the sandbox, pack it, check that dist/ is complete. */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, formatDuration, log, run } = require('./process');

/** `npm run build` in the repository. */
async function buildPackage() {
	const t = Date.now();
	log('building the package (npm run build)');
	await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, label: 'npm run build' });
	log(`  built in ${formatDuration(Date.now() - t)}`);
}

/** Compiles the sandbox (npx gulp sandbox) and returns the folder that holds server.js and cli.js. */
async function buildSandbox() {
	await run(process.execPath, [path.join(ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'sandbox'], { cwd: ROOT });
	const dir = findSandboxBuild();
	if (!dir) throw new Error('gulp sandbox ran but no compiled sandbox (cli.js) was found under build/');
	return dir;
}

/** Where `gulp sandbox` put its output (build/sandbox), when it is there. */
function findSandboxBuild() {
	const dir = path.join(ROOT, 'build', 'sandbox');
	return fs.existsSync(path.join(dir, 'cli.js')) && fs.existsSync(path.join(dir, 'server.js')) ? dir : undefined;
}

/** `npm pack` of the repository into `dest`; returns the tarball's path. Build first. */
async function packPackage(dest) {
	fs.mkdirSync(dest, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest, '--loglevel=error'], { cwd: ROOT });
	const info = JSON.parse(stdout.slice(stdout.indexOf('[')));
	return path.join(dest, info[0].filename);
}

/** The files listed in the package's `n8n` section that are missing from dist/ (nodes not built yet). */
function missingDistFiles() {
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	return [...pkg.n8n.nodes, ...pkg.n8n.credentials].filter((file) => !fs.existsSync(path.join(ROOT, file)));
}

module.exports = { buildPackage, buildSandbox, findSandboxBuild, packPackage, missingDistFiles };
