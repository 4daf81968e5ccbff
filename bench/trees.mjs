/**
 * The package trees a bench run measures: this checkout, and with --baseline another one (its
 * package from its own dist/, built first with npmBuild).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** `npm run build` in `cwd`; rejects with the exit code when it fails. */
export function npmBuild(cwd) {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['run', 'build', '--silent'], {
			cwd,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`npm run build in ${cwd} failed (exit ${code})`)),
		);
	});
}

/** This tree, and with --baseline the other checkout (its package from its own dist/). */
export function trees(root, baseline) {
	const list = [{ name: 'this', root }];
	if (!baseline) return list;
	if (!fs.existsSync(path.join(baseline, 'package.json')))
		throw new Error(`--baseline ${baseline}: no package.json there`);
	const commit =
		spawnSync('git', ['-C', baseline, 'rev-parse', '--short', 'HEAD'], {
			encoding: 'utf8',
		}).stdout.trim() || 'not a git checkout';
	return [...list, { name: 'baseline', root: baseline, commit }];
}
