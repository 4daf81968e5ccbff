/**
 * Lets the bench load the repository's TypeScript test code (test/support/engine.ts,
 * sandbox/*.ts) from source, the way ts-jest does for the tests, without adding a
 * dependency: each .ts file is transpiled with the project's own `typescript` (no type check;
 * `npx tsc` and the tests do that) and cached under node_modules/.cache by content hash.
 *
 * It also makes n8n's own nodes, loaded from the local n8n runtime, share this repository's
 * `n8n-workflow` (the same 2.41 release the engine here runs on), so errors and helpers are the
 * engine's own classes and not a second copy of them.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
// Under node_modules/.cache, like other tools' caches: the package linter must not read it.
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'campaign-messaging-bench');

let ts;
const compilerOptions = () => ({
	module: ts.ModuleKind.CommonJS,
	target: ts.ScriptTarget.ES2022,
	esModuleInterop: true,
	resolveJsonModule: true,
	sourceMap: false,
	inlineSourceMap: true,
	useUnknownInCatchVariables: false,
});

function transpile(filename, source) {
	const hash = crypto.createHash('sha1').update(filename).update('\0').update(source).digest('hex');
	const cached = path.join(CACHE, `${hash}.js`);
	try {
		return fs.readFileSync(cached, 'utf8');
	} catch {
		// not cached yet
	}
	ts = ts ?? require(require.resolve('typescript', { paths: [ROOT] }));
	const { outputText } = ts.transpileModule(source, {
		compilerOptions: compilerOptions(),
		fileName: filename,
	});
	fs.mkdirSync(CACHE, { recursive: true });
	const tmp = `${cached}.${process.pid}.tmp`;
	fs.writeFileSync(tmp, outputText);
	fs.renameSync(tmp, cached);
	return outputText;
}

require.extensions['.ts'] = function loadTs(module, filename) {
	module._compile(transpile(filename, fs.readFileSync(filename, 'utf8')), filename);
};

/** Folders whose `n8n-workflow` imports resolve to this repository's copy (set by the runner). */
const shared = [];
const ownWorkflow = path.dirname(require.resolve('n8n-workflow/package.json', { paths: [ROOT] }));
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function resolve(request, parent, ...rest) {
	if (
		(request === 'n8n-workflow' || request.startsWith('n8n-workflow/')) &&
		parent?.filename &&
		shared.some((dir) => parent.filename.startsWith(dir))
	) {
		return originalResolve.call(
			this,
			request,
			{ ...parent, paths: [path.dirname(ownWorkflow)] },
			...rest,
		);
	}
	return originalResolve.call(this, request, parent, ...rest);
};

module.exports = {
	ROOT,
	/** Routes `n8n-workflow` imports of files under `dir` to this repository's n8n-workflow. */
	shareWorkflowWith(dir) {
		shared.push(path.resolve(dir) + path.sep);
	},
};
