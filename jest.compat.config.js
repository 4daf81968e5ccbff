/**
 * The jest suites against another n8n release line (scripts/compat.js sets COMPAT_DIR to a folder
 * holding that line's n8n-core and n8n-workflow). Every import of the two packages, from the tests,
 * the built nodes and n8n-core itself, resolves there instead of the dev tree's node_modules.
 * The sandbox's own tests and the docs tests do not load n8n and are left to `npm test`.
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
	// Neither the sandbox's own tests nor the docs tests (README.ko.md against README.md) load n8n,
	// nor do the deduplication lock's races (a fake clock over the lock's own modules); the real
	// 30-second takeover of an abandoned lock runs once, in `npm test`.
	// Nor the generated, property-based hardening suites: they run once, in `npm test`.
	testPathIgnorePatterns: [
		'/node_modules/',
		'/test/sandbox-tests/',
		'/test/docs/',
		'/test/CampaignAlimtalk/dedup/lock\\.(races|faults|abandoned)\\.test\\.ts$',
		'/test/hardening/',
	],
	// One test process per line: scripts/compat.js runs two lines at a time.
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
