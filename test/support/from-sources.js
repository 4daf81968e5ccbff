// `npm run test:unit` (jest.unit.config.js): the package is loaded from its TypeScript sources
// instead of dist/ (see test/support/package-loader.ts), so no build is needed.
process.env.CAMPAIGN_PACKAGE_FROM = 'sources';
