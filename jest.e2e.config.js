/**
 * End-to-end tests: `npm run test:e2e`. The packed package inside a real n8n (see scripts/runtime/
 * and test/e2e/). Kept apart from `npm test`, whose jest.config.js only picks up `*.test.ts`.
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	// One n8n, one sandbox, one browser: the tests share them and run in order.
	maxWorkers: 1,
	// The run's n8n user folder templates and sandbox port (test/e2e/support/n8n.ts, setupN8n).
	globalSetup: '<rootDir>/test/e2e/support/global-setup.js',
	globalTeardown: '<rootDir>/test/e2e/support/global-teardown.js',
	// The first run installs the n8n runtime (several minutes); each n8n CLI call boots n8n.
	testTimeout: 5 * 60 * 1000,
};
