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
};
