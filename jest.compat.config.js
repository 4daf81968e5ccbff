/**
 * The jest suites against another n8n release line (scripts/compat.js sets COMPAT_DIR to a folder
 * holding that line's n8n-core and n8n-workflow). Every import of the two packages, from the tests,
 * the built nodes and n8n-core itself, resolves there instead of the dev tree's node_modules.
 * The suites run in one test file (test/support/compat-suites.ts, which names those left to `npm test`).
 */
const path = require('node:path');
const base = require('./jest.config.js');

const dir = process.env.COMPAT_DIR;
if (!dir)
	throw new Error('COMPAT_DIR is not set: run the compatibility tests with `npm run test:compat`');
const modules = path.join(dir, 'node_modules');
const ESM_ONLY = ['p-retry', 'is-network-error'];

/** @type {import('jest').Config} */
module.exports = {
	...base,
	// One test file: test/support/compat-suites.ts loads every engine suite into one process (over
	// one n8n-core: its loading took about half of a line's work) and says which are left out.
	testMatch: ['<rootDir>/test/support/compat-suites.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	// One test process per line: scripts/compat.js runs the lines at once.
	maxWorkers: 1,
	// n8n-core 1.x leaves a handle open after the last test (jest then never exits on its own).
	forceExit: true,
	// Some lines' dependencies require ES-module-only packages from CommonJS (n8n-core 2.0's
	// @langchain/core requires p-retry 7). Node loads them natively; jest's module loader does not
	// (it failed on Node 20.20 and 24.21 alike), so those few are compiled to CommonJS like the tests.
	transform: {
		...base.transform,
		[`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
			'ts-jest',
			{ tsconfig: { allowJs: true, module: 'commonjs' } },
		],
	},
	transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
	moduleNameMapper: {
		'^(n8n-core|n8n-workflow)$': path.join(modules, '$1'),
		'^(n8n-core|n8n-workflow)/(.*)$': path.join(modules, '$1', '$2'),
	},
};
