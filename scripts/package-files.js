/**
 * The files the published package must hold, derived from the repository rather than listed by
 * hand: package.json's `n8n.nodes` and `n8n.credentials` entries, every compiled module they
 * require (followed through relative `require` calls in dist/), each node's codex file next to
 * it, every `file:` icon those modules name, and the package's own package.json, README and
 * licence. Build first.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const REQUIRE = /require\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;
const ICON = /["']file:([^"']+\.svg)["']/g;

function resolveModule(fromFile, request) {
	const base = path.resolve(path.dirname(fromFile), request);
	for (const candidate of [base, `${base}.js`, path.join(base, 'index.js')]) {
		if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
	}
	throw new Error(`${fromFile} requires ${request}, which is not in the build`);
}

/** Relative paths (POSIX separators) of every file the tarball must hold. */
function expectedFiles(root) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const entries = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((file) => path.join(root, file));
	const files = new Set();
	const pending = [...entries];
	while (pending.length > 0) {
		const file = pending.pop();
		if (files.has(file)) continue;
		if (!fs.existsSync(file))
			throw new Error(`${path.relative(root, file)} is not built (run npm run build)`);
		files.add(file);
		const code = fs.readFileSync(file, 'utf8');
		for (const [, request] of code.matchAll(REQUIRE)) pending.push(resolveModule(file, request));
		for (const [, icon] of code.matchAll(ICON)) files.add(path.resolve(path.dirname(file), icon));
	}
	for (const node of pkg.n8n.nodes) files.add(path.join(root, node.replace(/\.js$/, '.json')));
	const always = fs.readdirSync(root).filter((name) => /^(readme|licen[cs]e)(\.|$)/i.test(name));
	for (const name of ['package.json', ...always]) files.add(path.join(root, name));
	return [...files].map((file) => path.relative(root, file).split(path.sep).join('/')).sort();
}

module.exports = { expectedFiles };
