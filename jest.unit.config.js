/**
 * The fast loop: `npm run test:unit`. The pure parts and the node tests (custom and legacy data,
 * members, the Alimtalk send and its pool, the transport, the credential, the engine harness, the
 * codex files, the docs' own checks) run on the TypeScript sources, compiled by ts-jest: no build, and dist/ is not read
 * (test/support/from-sources.js, test/support/package-loader.ts).
 * Left to `npm test` (on dist/, as n8n loads the package): the sandbox's own conformance tests
 * (no node code), the hardening suites (generated inputs, faults, slower) and the Deduplication
 * Key suites (they load dist/ twice, as two n8n processes).
 */
const { globalSetup: _distCheck, ...base } = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	testMatch: [
		'<rootDir>/test/{CampaignData,CampaignMembers,shared,credentials,engine,package,docs}/**/*.test.ts',
		'<rootDir>/test/CampaignAlimtalk/{*.test.ts,helpers/**/*.test.ts}',
	],
	setupFiles: [...base.setupFiles, '<rootDir>/test/support/from-sources.js'],
};
