// n8n's own logger (winston, configured from the environment when n8n-core loads) would print
// every node error of the tests to the console. The engine harness captures n8n's LoggerProxy
// lines instead (see test/support/package-loader.ts), where tests assert that no secret is logged.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL || 'silent';
