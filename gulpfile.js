/**
 * Build and dev-loop tasks that `n8n-node build` and a plain `tsc --watch` do not do:
 * - `gulp icons`: copy the SVG icons into dist/ (tsc never copies them; the watch loop needs it).
 * - `gulp dev`: TypeScript in watch mode plus the icon copy on every icon change.
 * - `gulp sandbox`: compile the API sandbox (sandbox/) to build/sandbox, for `npm run sandbox`
 *   and for end-to-end runs outside jest.
 */
const { src, dest, watch, series } = require('gulp');
const { spawn } = require('node:child_process');

const ICONS = ['icons/**/*.svg', 'nodes/**/*.svg', 'credentials/**/*.svg'];

function icons() {
	return src(ICONS, { base: '.', encoding: false }).pipe(dest('dist'));
}

function tsc(args) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [require.resolve('typescript/bin/tsc'), ...args], {
			stdio: 'inherit',
		});
		child.on('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`tsc ${args.join(' ')} exited with ${code}`)),
		);
	});
}

function sandbox() {
	return tsc(['-p', 'sandbox/tsconfig.json']);
}

function watchSources() {
	watch(ICONS, icons);
	return tsc(['--watch', '--preserveWatchOutput']);
}

exports.icons = icons;
exports.sandbox = sandbox;
exports.dev = series(icons, watchSources);
exports.default = icons;
