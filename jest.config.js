const os = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	globalSetup: '<rootDir>/test/support/global-setup.js',
	setupFiles: ['<rootDir>/test/support/jest-setup.js'],
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	testTimeout: 60000,
	// Two test processes at least: jest's own default (one less than the cores) runs a two-core
	// machine's suites one after the other in its own process, about 1.7 times slower.
	maxWorkers: Math.max(2, os.availableParallelism() - 1),
};
