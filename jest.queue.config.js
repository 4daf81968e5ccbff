/**
 * Queue-mode tests: `npm run test:queue`. The packed package in n8n's distributed mode
 * (PostgreSQL, Redis, main, webhook and worker processes; see scripts/queue/ and test/queue/).
 * The same set-up as the end-to-end tests (jest.e2e.config.js), over its own files.
 * @type {import('jest').Config}
 */
const e2e = require('./jest.e2e.config.js');

module.exports = {
	...e2e,
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.queue.ts'],
	// Each cluster makes its own user folders (scripts/queue/cluster.js): no e2e templates; dist/
	// is built first only when it is not current (ensureBuilt).
	globalSetup: '<rootDir>/test/queue/global-setup.js',
	globalTeardown: undefined,
	// Each file starts its own cluster (four n8n processes): one file at a time.
	maxWorkers: 1,
	// The first run installs PostgreSQL, Redis and the n8n runtime; a 50,000-row sync takes minutes.
	testTimeout: 15 * 60 * 1000,
};
