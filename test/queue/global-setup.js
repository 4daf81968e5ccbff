/**
 * Once per `npm run test:queue`, before any file: builds the package when dist/ is not the current
 * one (scripts/runtime/package.js ensureBuilt), since every cluster installs it from dist/.
 */
const { ensureBuilt } = require('../../scripts/runtime/package.js');

module.exports = async function globalSetup() {
	await ensureBuilt();
};
