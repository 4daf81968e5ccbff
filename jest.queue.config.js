/**
 * Queue-mode tests: `npm run test:queue`. The packed package in n8n's distributed mode
 * (PostgreSQL, Redis, main, webhook and worker processes; see scripts/queue/ and test/queue/).
 * Kept apart from `npm test`, whose jest.config.js only picks up `*.test.ts`.
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.queue.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
	// Each file starts its own cluster (four n8n processes): one file at a time on a small machine.
	maxWorkers: 1,
	// The first run installs PostgreSQL, Redis and the n8n runtime; a 50,000-row sync takes minutes.
	testTimeout: 15 * 60 * 1000,
};
