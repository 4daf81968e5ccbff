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
	// One test process more than the cores: many suites wait on real time (a lock's takeover, a
	// stalled answer), and jest's own default (one less than the cores) runs a two-core machine's
	// suites one after the other in its own process, about 1.7 times slower. On 2 cores, `npm test`
	// took 222 s with two test processes and 202 s with three (2026-11-27).
	maxWorkers: os.availableParallelism() + 1,
};
